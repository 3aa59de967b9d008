//! `conform validate`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, NoticeLevel};

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
}

/// Validation judges form as well as content: warnings that `run` tolerates
/// (a byte order mark, CRLF line endings) are errors here.
pub fn execute(args: ValidateArgs) -> anyhow::Result<i32> {
    let selected = args.fixtures.load(None)?;
    selected.require_some()?;
    let mut problems = 0usize;
    for notice in &selected.corpus.notices {
        match notice.level {
            NoticeLevel::Note => super::print_notices(std::slice::from_ref(notice)),
            NoticeLevel::Warning | NoticeLevel::Error => {
                problems += 1;
                super::error(&notice.message);
            }
        }
    }
    let mut invalid = 0usize;
    for fixture in selected.indexes.iter().filter_map(|&index| selected.corpus.fixtures.get(index)) {
        match &fixture.status {
            FixtureStatus::Ready(_) => {}
            FixtureStatus::Invalid(errors) => {
                invalid += 1;
                for error in errors {
                    super::error(error);
                }
            }
            FixtureStatus::UnsupportedVersion { found, readable } => {
                invalid += 1;
                super::error(format!(
                    "{}: fixtureVersion {found} cannot be validated: {} supports {:?}",
                    fixture.path.display(),
                    fixture.suite.name(),
                    readable
                ));
            }
        }
    }
    let total = selected.indexes.len();
    println!("{} of {total} fixtures valid", total - invalid);
    Ok(if invalid > 0 || problems > 0 { exit_code::CANNOT_JUDGE } else { exit_code::CONFORMANT })
}
