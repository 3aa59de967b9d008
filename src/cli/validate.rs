//! `conform validate`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, Notice, NoticeLevel};

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
}

/// Validation judges form as well as content: warnings that `run` tolerates
/// (a byte order mark, CRLF line endings) are errors here.
///
/// Fixtures are read and validated on every core, one at a time, and each
/// document is dropped once checked; only the lines to print are kept, so
/// that every notice still comes before the fixtures' own errors.
pub fn execute(args: ValidateArgs) -> anyhow::Result<i32> {
    let selected = args.fixtures.plan(None)?;
    selected.require_some()?;
    let mut notices: Vec<Notice> = selected.plan.notices.clone();
    let mut lines: Vec<String> = Vec::new();
    let mut invalid = 0usize;
    selected.plan.load_each(&selected.indexes, 0, |_, fixture, mut found| {
        notices.append(&mut found);
        match &fixture.status {
            FixtureStatus::Ready(_) => {}
            FixtureStatus::Invalid(errors) => {
                invalid += 1;
                lines.extend(errors.iter().map(ToString::to_string));
            }
            FixtureStatus::UnsupportedVersion { found, readable } => {
                invalid += 1;
                lines.push(format!(
                    "{}: fixtureVersion {found} cannot be validated: {} supports {:?}",
                    fixture.path.display(),
                    fixture.suite.name(),
                    readable
                ));
            }
        }
    });
    let mut problems = 0usize;
    for notice in &notices {
        match notice.level {
            NoticeLevel::Note => super::print_notices(std::slice::from_ref(notice)),
            NoticeLevel::Warning | NoticeLevel::Error => {
                problems += 1;
                super::error(&notice.message);
            }
        }
    }
    for line in &lines {
        super::error(line);
    }
    let total = selected.indexes.len();
    println!("{} of {total} fixtures valid", total - invalid);
    Ok(if invalid > 0 || problems > 0 { exit_code::CANNOT_JUDGE } else { exit_code::CONFORMANT })
}
