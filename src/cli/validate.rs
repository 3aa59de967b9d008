//! `conform validate`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::NoticeLevel;
use conform::validate::validate_fixtures;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
}

/// Validation judges form as well as content: warnings that `run` tolerates
/// (a byte order mark, CRLF line endings) are errors here.
pub fn execute(args: ValidateArgs) -> anyhow::Result<i32> {
    let selected = args.fixtures.plan(None)?;
    selected.require_some()?;
    let validation = validate_fixtures(&selected.plan, &selected.indexes);
    for notice in &validation.notices {
        match notice.level {
            NoticeLevel::Note => super::print_notices(std::slice::from_ref(notice)),
            NoticeLevel::Warning | NoticeLevel::Error => super::error(&notice.message),
        }
    }
    for line in &validation.problems {
        super::error(line);
    }
    println!("{}", validation.summary_line());
    Ok(if validation.passed() { exit_code::CONFORMANT } else { exit_code::CANNOT_JUDGE })
}
