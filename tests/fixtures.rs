//! Every fixture as a named test: `cargo test --test fixtures -- chat::`.
//!
//! Trials come from the project's own `fixtures/` and, when it exists, the
//! HAPI golden corpus in `../shared/hapi/fixtures`. Each is judged by the
//! reference exactly as `conform run` judges it. Suites without a reference
//! yet give ignored trials, never passing ones.

mod common;

use conform::fixture::{FixtureStatus, LoadedFixture, NoticeLevel, SuiteFilter, load_corpus};
use conform::implementation::ReferenceImplementation;
use conform::report::{CaseReport, Verdict};
use conform::run::{WORKER_STACK_BYTES, judge};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;

fn main() {
    let arguments = Arguments::from_args();
    let mut trees: Vec<PathBuf> = vec![common::root().join("fixtures")];
    trees.extend(common::hapi_corpus());
    let mut trials: Vec<Trial> = Vec::new();
    for tree in trees.iter().filter(|tree| tree.is_dir()) {
        let corpus = match load_corpus(std::slice::from_ref(tree), &SuiteFilter::default()) {
            Ok(corpus) => corpus,
            Err(err) => {
                // An empty tree is worth a line, not a failure of every trial.
                eprintln!("note: {err}");
                continue;
            }
        };
        for (i, notice) in corpus.notices.iter().filter(|n| n.level == NoticeLevel::Error).enumerate() {
            let message = notice.to_string();
            trials.push(Trial::test(format!("corpus::{}-error-{i}", tree.display()), move || Err(message.into())));
        }
        trials.extend(corpus.fixtures.into_iter().map(trial));
    }
    libtest_mimic::run(&arguments, trials).exit();
}

fn trial(fixture: LoadedFixture) -> Trial {
    let name = format!("{}::{}", fixture.suite.name(), fixture.name);
    let runnable = matches!(fixture.status, FixtureStatus::Ready(_));
    let ignored = runnable && fixture.suite.reference().is_none();
    Trial::test(name, move || judge_on_large_stack(fixture)).with_ignored_flag(ignored)
}

fn judge_on_large_stack(fixture: LoadedFixture) -> Result<(), Failed> {
    let report = std::thread::Builder::new()
        .stack_size(WORKER_STACK_BYTES)
        .spawn(move || judge(&fixture, &ReferenceImplementation))
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
