//! Running a corpus: select cases, hand them to an implementation in
//! parallel, judge each outcome, and collect one [`RunReport`].
//!
//! Cases run on worker threads with large stacks (fixtures may nest deeply);
//! the report keeps discovery order whatever order the cases finish in.

mod select;

pub use select::{Selection, fnv1a_64, parse_partition, select, shard_of};

use crate::compare::{compare, render_plain};
use crate::fixture::{Corpus, FixtureStatus, LoadedFixture, Notice};
use crate::implementation::{CaseRequest, Implementation, LateOutcome, Outcome};
use crate::report::{
    CaseReport, DifferenceReport, HarnessInfo, Partition, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport, Verdict,
};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Stack size of each worker thread. Only touched memory is committed, so
/// this is cheap, and it keeps 10,000-level documents from overflowing.
pub const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// How to run.
#[derive(Debug, Default)]
pub struct RunOptions<'a> {
    /// Worker threads (0 = one per available core).
    pub jobs: usize,
    /// Fixture paths as given (recorded in the report).
    pub paths: Vec<PathBuf>,
    /// The shard this run covers, if partitioned.
    pub partition: Option<Partition>,
    /// Set from another thread (Ctrl-C) to stop starting new cases; cases
    /// not started are left out of the report.
    pub cancel: Option<&'a AtomicBool>,
}

/// Runs the selected fixtures of `corpus` through `implementation`.
pub fn run(
    corpus: &Corpus,
    selected: &[usize],
    implementation: &dyn Implementation,
    options: &RunOptions<'_>,
) -> RunReport {
    let started_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let clock = Instant::now();
    let jobs = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(selected.len().max(1));

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<CaseReport>>> = Mutex::new(vec![None; selected.len()]);
    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let spawned = std::thread::Builder::new()
                .name(format!("conform-worker-{worker}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, || {
                    loop {
                        if options.cancel.is_some_and(|flag| flag.load(Ordering::SeqCst)) {
                            break;
                        }
                        let slot = next.fetch_add(1, Ordering::SeqCst);
                        let Some(&index) = selected.get(slot) else { break };
                        let report = judge(&corpus.fixtures[index], implementation);
                        let mut guard = results.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                        guard[slot] = Some(report);
                    }
                });
            if spawned.is_err() && worker == 0 {
                // No thread could be started: run everything here instead.
                for (slot, &index) in selected.iter().enumerate() {
                    let report = judge(&corpus.fixtures[index], implementation);
                    let mut guard = results.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    guard[slot] = Some(report);
                }
            }
        }
    });
    implementation.finish();

    let mut cases: Vec<CaseReport> =
        results.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()).into_iter().flatten().collect();
    for late in implementation.late_outcomes() {
        apply_late(corpus, &mut cases, late);
    }
    let mut notices: Vec<Notice> = corpus.notices.clone();
    if cases.len() < selected.len() {
        notices.push(Notice::warning(format!(
            "interrupted: {} of {} cases ran; the report covers those",
            cases.len(),
            selected.len()
        )));
    }
    let mut report = RunReport {
        format: REPORT_FORMAT.to_owned(),
        format_version: REPORT_FORMAT_VERSION,
        harness: HarnessInfo::current(),
        implementation: implementation.info(),
        started_at,
        duration_ms: clock.elapsed().as_secs_f64() * 1000.0,
        paths: options.paths.iter().map(|p| p.display().to_string()).collect(),
        partition: options.partition,
        notices,
        summary: Default::default(),
        suites: Vec::new(),
        cases,
        clusters: Vec::new(),
        baseline: None,
    };
    report.recount();
    report
}

/// Gives a case the verdict of a fault found after it was judged (a second
/// reply to it, say); the first verdict stays in the message.
fn apply_late(corpus: &Corpus, cases: &mut [CaseReport], late: LateOutcome) {
    let Some(case) = cases.iter_mut().find(|c| c.suite == late.suite && c.name == late.fixture) else { return };
    let (verdict, message) = match late.outcome {
        Outcome::ProtocolError(message) => (Verdict::ProtocolError, message),
        Outcome::Crash(message) => (Verdict::Crash, message),
        Outcome::Timeout(message) => (Verdict::Timeout, message),
        Outcome::Error(message) => (Verdict::Error, message),
        Outcome::Output(_) | Outcome::Skipped(_) | Outcome::Unsupported(_) => return,
    };
    case.message = Some(format!("{message} (first verdict: {})", case.verdict));
    case.verdict = verdict;
    if case.input.is_none()
        && let Some(FixtureStatus::Ready(parts)) =
            corpus.fixtures.iter().find(|f| f.id == case.id).map(|fixture| &fixture.status)
    {
        case.input = Some(parts.input.clone());
        case.expected = Some(parts.expected.clone());
    }
}

/// Judges one fixture: runs it (when it can run) and assigns the verdict.
pub fn judge(fixture: &LoadedFixture, implementation: &dyn Implementation) -> CaseReport {
    let mut report = CaseReport {
        fixture_version: fixture.version,
        ..CaseReport::new(
            fixture.id.clone(),
            fixture.suite.name(),
            fixture.name.clone(),
            fixture.path.display().to_string(),
            Verdict::Pass,
        )
    };
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => {
            report.verdict = Verdict::Invalid;
            report.problems = problems.iter().map(ToString::to_string).collect();
            report.message = report.problems.first().cloned();
            return report;
        }
        FixtureStatus::UnsupportedVersion { found, supported } => {
            report.verdict = Verdict::UnsupportedVersion;
            let relation = if supported.iter().all(|version| version < found) { "newer than" } else { "not among" };
            let supported: Vec<String> = supported.iter().map(u32::to_string).collect();
            report.message = Some(format!(
                "fixtureVersion {found} is {relation} the versions this harness judges for {} ({}); upgrade conform",
                fixture.suite.name(),
                supported.join(", ")
            ));
            return report;
        }
    };
    let request = CaseRequest {
        suite: fixture.suite.name(),
        fixture: &fixture.name,
        fixture_version: fixture.version.unwrap_or(1),
        input: &parts.input,
    };
    let clock = Instant::now();
    let run = implementation.run_case(&request);
    report.duration_ms = clock.elapsed().as_secs_f64() * 1000.0;
    report.stderr = run.stderr;
    let (verdict, message) = match run.outcome {
        Outcome::Output(actual) => match compare(fixture.suite, &parts.input, &parts.expected, &actual) {
            None => (Verdict::Pass, None),
            Some(mismatch) => {
                report.differences = mismatch.differences.iter().map(DifferenceReport::from).collect();
                report.omitted_differences = mismatch.omitted;
                report.diff = mismatch.diff;
                report.actual = Some(actual);
                let first = report.differences.first().map(|d| d.message.clone());
                (Verdict::Fail, first.or_else(|| Some(render_plain(&report.diff))))
            }
        },
        Outcome::Error(message) => (Verdict::Error, Some(message)),
        Outcome::Skipped(reason) => (Verdict::Skipped, Some(reason)),
        Outcome::Unsupported(reason) => (Verdict::Unsupported, Some(reason)),
        Outcome::Crash(message) => (Verdict::Crash, Some(message)),
        Outcome::Timeout(message) => (Verdict::Timeout, Some(message)),
        Outcome::ProtocolError(message) => (Verdict::ProtocolError, Some(message)),
    };
    report.verdict = verdict;
    report.message = message;
    if verdict != Verdict::Pass {
        report.input = Some(parts.input.clone());
        report.expected = Some(parts.expected.clone());
    }
    report
}
