//! Every fixture as a named test: `cargo test --test fixtures -- chat::`.
//!
//! Trials come from the project's own `fixtures/` and, when it exists, the
//! HAPI golden corpus in `../shared/hapi/fixtures`. Each is judged by the
//! reference exactly as `conform run` judges it. Suites without a reference
//! yet give ignored trials, never passing ones.
//!
//! Listing the trials reads only file names (discovery); a trial loads its
//! own fixture when it runs. `cargo nextest run`, which starts this binary
//! once per trial (`--exact suite::name`), so reads one fixture per process,
//! not the whole corpus.

mod common;

use conform::fixture::{FixturePlan, NoticeLevel, SuiteFilter};
use conform::implementation::ReferenceImplementation;
use conform::report::{CaseReport, Verdict};
use conform::run::{WORKER_STACK_BYTES, judge};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;
use std::sync::Arc;

fn main() {
    let arguments = Arguments::from_args();
    let mut trees: Vec<PathBuf> = vec![common::root().join("fixtures")];
    let mut trials: Vec<Trial> = Vec::new();
    match common::hapi_corpus() {
        Some(tree) => trees.push(tree),
        // The skip note above is printed once per process; nextest shows
        // trials, so the skip is a trial too, ignored with its reason.
        None => trials.push(
            Trial::test("skipped::hapi-corpus (../shared/hapi/fixtures not found)", || Ok(())).with_ignored_flag(true),
        ),
    }
    for tree in trees.iter().filter(|tree| tree.is_dir()) {
        let plan = match FixturePlan::discover(std::slice::from_ref(tree), &SuiteFilter::default()) {
            Ok(plan) => Arc::new(plan),
            Err(err) => {
                // An empty tree is worth a line, not a failure of every trial.
                eprintln!("note: {err}");
                continue;
            }
        };
        for (i, notice) in plan.notices.iter().filter(|n| n.level == NoticeLevel::Error).enumerate() {
            let message = notice.to_string();
            trials.push(Trial::test(format!("corpus::{}-error-{i}", tree.display()), move || Err(message.into())));
        }
        trials.extend((0..plan.len()).map(|index| trial(&plan, index)));
    }
    libtest_mimic::run(&arguments, trials).exit();
}

fn trial(plan: &Arc<FixturePlan>, index: usize) -> Trial {
    let suite = plan.files[index].suite;
    let name = format!("{}::{}", suite.name(), plan.name(index));
    let plan = Arc::clone(plan);
    Trial::test(name, move || judge_on_large_stack(plan, index)).with_ignored_flag(suite.reference().is_none())
}

fn judge_on_large_stack(plan: Arc<FixturePlan>, index: usize) -> Result<(), Failed> {
    let report = std::thread::Builder::new()
        .stack_size(WORKER_STACK_BYTES)
        .spawn(move || judge(&plan.load(index).0, &ReferenceImplementation))
        .map_err(|err| Failed::from(format!("cannot start a worker thread: {err}")))?
        .join()
        .map_err(|_| Failed::from("the judge panicked"))?;
    if report.verdict == Verdict::Pass { Ok(()) } else { Err(explain(&report).into()) }
}

fn explain(report: &CaseReport) -> String {
    let mut text = format!("{}: {} ({})\n", report.verdict, report.id, report.path);
    for line in report.problems.iter().chain(report.differences.iter().map(|d| &d.message)) {
        text.push_str(&format!("  {line}\n"));
    }
    if report.problems.is_empty()
        && report.differences.is_empty()
        && let Some(message) = &report.message
    {
        text.push_str(&format!("  {message}\n"));
    }
    text.push_str(&conform::compare::render_plain(&report.diff));
    text
}
