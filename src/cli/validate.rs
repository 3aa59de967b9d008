//! `conform validate`.

use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, NoticeLevel, SuiteFilter, load_corpus};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Fixture trees, suite folders or fixture files.
    #[arg(default_value = "fixtures")]
    paths: Vec<PathBuf>,
    /// Only these suites (repeatable).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<String>,
}

/// Validation judges form as well as content: warnings that `run` tolerates
/// (a byte order mark, CRLF line endings) are errors here.
pub fn execute(args: ValidateArgs) -> anyhow::Result<i32> {
    let filter = SuiteFilter::new(&args.suites)?;
    let corpus = load_corpus(&args.paths, &filter)?;
    let mut problems = 0usize;
    for notice in &corpus.notices {
        match notice.level {
            NoticeLevel::Note => eprintln!("{notice}"),
            _ => {
                problems += 1;
                eprintln!("error: {}", notice.message);
            }
        }
    }
    let mut invalid = 0usize;
    for fixture in &corpus.fixtures {
        match &fixture.status {
            FixtureStatus::Ready(_) => {}
            FixtureStatus::Invalid(errors) => {
                invalid += 1;
                for error in errors {
                    eprintln!("error: {error}");
                }
            }
            FixtureStatus::UnsupportedVersion { found, supported } => {
                invalid += 1;
                eprintln!(
                    "error: {}: fixtureVersion {found} cannot be validated: {} supports {:?}",
                    fixture.path.display(),
                    fixture.suite.name(),
                    supported
                );
            }
        }
    }
    let total = corpus.fixtures.len();
    println!("{} of {total} fixtures valid", total - invalid);
    Ok(if invalid > 0 || problems > 0 { exit_code::CANNOT_JUDGE } else { exit_code::CONFORMANT })
}
