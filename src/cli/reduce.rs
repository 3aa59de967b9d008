//! `conform reduce`.

use super::implementation::ImplementationArgs;
use anyhow::bail;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, SuiteFilter, discover, load};
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
    let discovery = discover(std::slice::from_ref(&args.fixture), &SuiteFilter::default())?;
    super::print_notices(&discovery.notices);
    let corpus = load(&discovery.files);
    let [fixture] = corpus.fixtures.as_slice() else {
        bail!("{}: expected exactly one fixture file", args.fixture.display());
    };
    if let FixtureStatus::Invalid(problems) = &fixture.status {
        for problem in problems {
            super::error(problem);
        }
        return Ok(exit_code::CANNOT_JUDGE);
    }
    let interrupted = super::interrupt::flag();
    // Every candidate may crash the implementation (that can be the failure
    // being reduced), so the restart budget is the run budget: running out of
    // restarts must not turn into a different verdict mid-reduction.
    let mut implementation = args.implementation.clone();
    let limits = &mut implementation.external.limits;
    limits.max_restarts = limits.max_restarts.max(saturate(args.max_tests));
    let started = implementation.start(Arc::clone(&interrupted), false)?;
    let options = ReduceFixtureOptions {
        name: args.name.as_deref(),
        out: args.out.as_deref(),
        max_tests: args.max_tests,
        external: started.external().is_some(),
        cancel: Some(&interrupted),
    };
    let subject = started.implementation();
    let reduced = reduce_fixture(fixture, subject, &options);
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
    super::print_written(&write_fixture(&reduced.target, &reduced.text, mode)?, "");
    Ok(exit_code::CONFORMANT)
}

fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}
