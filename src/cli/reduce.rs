//! `conform reduce`.

use super::implementation::{ImplementationArgs, Subject};
use anyhow::bail;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, LoadedFixture, SuiteFilter, discover, load};
use conform::reduce::{ReduceFixtureError, ReduceFixtureOptions, reduce_fixture};
use conform::review::{WriteMode, running_in_ci, write_fixture};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct ReduceArgs {
    /// The fixture file on which the implementation fails.
    fixture: PathBuf,
    /// Name of the reduced fixture [default: <NAME>-reduced].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Folder to write it to [default: the fixture's folder].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Stop after this many implementation runs (the result is then smaller, not minimal).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    max_tests: usize,
    /// Write NAME.json in place instead of NAME.json.new (refused when CI is set).
    #[arg(long)]
    accept: bool,
    /// The implementation to reduce against; an external one is judged by the suite's reference.
    #[command(flatten)]
    implementation: ImplementationArgs,
}

pub fn execute(args: ReduceArgs) -> anyhow::Result<i32> {
    let mode = WriteMode::from_accept_flag(args.accept, running_in_ci())?;
    let Some(fixture) = load_the_fixture(&args.fixture)? else { return Ok(exit_code::CANNOT_JUDGE) };
    let interrupted = super::interrupt::flag();
    let started = start_for_reduction(&args.implementation, args.max_tests, &interrupted)?;
    let options = ReduceFixtureOptions {
        name: args.name.as_deref(),
        out: args.out.as_deref(),
        max_tests: args.max_tests,
        external: started.external().is_some(),
        cancel: Some(&interrupted),
    };
    let subject = started.implementation();
    let reduced = reduce_fixture(&fixture, subject, &options);
    subject.finish();
    if let Some(external) = started.external() {
        external.print_notes();
    }
    let reduced = match reduced {
        Err(ReduceFixtureError::InvalidResult(problems)) => {
            for problem in problems {
                super::error(problem);
            }
            bail!("the reduced document is not a valid fixture");
        }
        other => other?,
    };
    reduced.write_summary(&mut std::io::stdout().lock(), args.max_tests)?;
    if reduced.removed_nothing() {
        // A pending copy of the same input would only duplicate the fixture once accepted.
        println!("nothing removed: {} already pins this failure; no fixture written", args.fixture.display());
        return Ok(exit_code::CONFORMANT);
    }
    super::print_written(&write_fixture(&reduced.target, &reduced.text, mode)?, "");
    Ok(exit_code::CONFORMANT)
}

/// The one fixture file `path` names, loaded; `None` (its problems printed)
/// when it is invalid.
fn load_the_fixture(path: &std::path::Path) -> anyhow::Result<Option<LoadedFixture>> {
    let discovery = discover(std::slice::from_ref(&path.to_path_buf()), &SuiteFilter::default())?;
    super::print_notices(&discovery.notices);
    let corpus = load(&discovery.files);
    let Ok([fixture]) = <[LoadedFixture; 1]>::try_from(corpus.fixtures) else {
        bail!("{}: expected exactly one fixture file", path.display());
    };
    if let FixtureStatus::Invalid(problems) = &fixture.status {
        for problem in problems {
            super::error(problem);
        }
        return Ok(None);
    }
    Ok(Some(fixture))
}

/// Starts the implementation with a restart budget as large as the run
/// budget: every candidate may crash it (that can be the failure being
/// reduced), and running out of restarts must not turn into a different
/// verdict mid-reduction.
fn start_for_reduction(
    implementation: &ImplementationArgs,
    max_tests: usize,
    interrupted: &Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<Subject> {
    let mut implementation = implementation.clone();
    let limits = &mut implementation.external.limits;
    limits.max_restarts = limits.max_restarts.max(saturate(max_tests));
    implementation.start(Arc::clone(interrupted), false)
}

fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}
