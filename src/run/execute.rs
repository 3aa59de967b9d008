//! Running the selected cases of a corpus on parallel worker threads and
//! collecting their reports, in discovery order, into one [`RunReport`].

use super::judge::{judge, output_or_verdict};
use crate::fixture::{Corpus, FixtureStatus, Notice};
use crate::implementation::{Implementation, LateOutcome};
use crate::report::{CaseReport, HarnessInfo, Partition, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport, Verdict};
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
        limits: None,
    };
    crate::report::limits::cap_run_values(&mut report, &crate::report::limits::ARTIFACT_LIMITS);
    report.recount();
    report
}

/// Gives a case the verdict of a fault found after it was judged (a second
/// reply to it, say); the first verdict stays in the message.
fn apply_late(corpus: &Corpus, cases: &mut [CaseReport], late: LateOutcome) {
    let Some(case) = cases.iter_mut().find(|c| c.suite == late.suite && c.name == late.fixture) else { return };
    // Only faults replace a verdict; a late output or skip changes nothing.
    let (verdict, message) = match output_or_verdict(late.outcome) {
        Err(fault @ (Verdict::ProtocolError | Verdict::Crash | Verdict::Timeout | Verdict::Error, _)) => fault,
        _ => return,
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
