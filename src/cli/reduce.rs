//! `conform reduce`.

use super::implementation::ImplementationArgs;
use anyhow::{Context, bail};
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{FixtureStatus, SuiteFilter, discover, load};
use conform::json;
use conform::reduce::{Oracle, ReduceRequest, reduce, reduced_document};
use conform::review::{WriteMode, running_in_ci, write_fixture};
use conform::validate::schema_errors;
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
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => {
            for problem in problems {
                super::error(problem);
            }
            return Ok(exit_code::CANNOT_JUDGE);
        }
        FixtureStatus::UnsupportedVersion { found, .. } => {
            bail!("{}: fixtureVersion {found} is not supported", fixture.path.display())
        }
    };
    let interrupted = super::interrupt::flag();
    // Every candidate may crash the implementation (that can be the failure
    // being reduced), so the restart budget is the run budget: running out of
    // restarts must not turn into a different verdict mid-reduction.
    let mut implementation = args.implementation.clone();
    let limits = &mut implementation.external.limits;
    limits.max_restarts = limits.max_restarts.max(saturate(args.max_tests));
    let started = implementation.start(Arc::clone(&interrupted))?;
    // An external implementation is judged by the reference where the suite
    // has one; the reference itself only by what the fixture stores.
    let (oracle, expectation) = match fixture.suite.reference().filter(|_| started.external().is_some()) {
        Some(reference) => (Oracle::Reference(reference), "computed by the conform reference".to_owned()),
        None => (
            Oracle::Stored(parts.expected.clone()),
            format!("the stored expectation of {}, less the blocks of removed messages", fixture.id),
        ),
    };
    let subject = started.implementation();
    let info = subject.info();
    let request = ReduceRequest {
        suite: fixture.suite,
        fixture: &fixture.name,
        fixture_version: fixture.version.unwrap_or(1),
        input: &parts.input,
        oracle,
        max_tests: args.max_tests,
        cancel: Some(&interrupted),
    };
    let reduction = reduce(&request, subject);
    subject.finish();
    if let Some(external) = started.external() {
        external.print_notes();
    }
    let reduction = reduction?;

    let list = reduction.list.clone().unwrap_or_else(|| "items".to_owned());
    let (items_before, items_after) = reduction.items;
    let (bytes_before, bytes_after) = reduction.bytes;
    println!("reduced {} against {} ({} runs)", fixture.id, info.name, reduction.tests);
    println!("  failure: {}", reduction.failure);
    println!(
        "  {list}: {items_before} → {items_after} ({} removed); input bytes: {bytes_before} → {bytes_after} ({} removed)",
        items_before - items_after,
        bytes_before.saturating_sub(bytes_after)
    );
    if reduction.budget_exhausted {
        println!(
            "  note: stopped early (--max-tests {} or Ctrl-C); the result is smaller, not minimal",
            args.max_tests
        );
    }

    let name = args.name.clone().unwrap_or_else(|| format!("{}-reduced", fixture.name));
    let description = format!(
        "Reduced by conform reduce from {} against {}: {list} {items_before} → {items_after}, input {bytes_before} → \
         {bytes_after} bytes, same failure ({}). Expected part: {expectation}.",
        fixture.id, info.name, reduction.failure
    );
    let original = fixture.document.as_ref().context("the fixture document is missing")?;
    let document =
        reduced_document(fixture.suite, original, &name, &description, &reduction).map_err(anyhow::Error::msg)?;
    let text = json::to_canonical_string(&document);
    let folder = args.out.clone().or_else(|| fixture.path.parent().map(PathBuf::from)).unwrap_or_default();
    let target = folder.join(format!("{name}.json"));
    let problems = schema_errors(fixture.suite, &document, &text, &target);
    if !problems.is_empty() {
        for problem in problems {
            super::error(problem);
        }
        bail!("the reduced document is not a valid fixture");
    }
    super::print_written(&write_fixture(&target, &text, mode)?, "");
    Ok(exit_code::CONFORMANT)
}

fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}
