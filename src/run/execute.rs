//! Running the selected fixtures of a [`FixturePlan`] on parallel worker
//! threads, streaming: each worker loads, validates and judges one fixture
//! at a time and drops its documents once the case's report is made; the
//! calling thread puts the reports back in discovery order, applies the
//! per-run cap on kept values and the baseline, tells the consumers
//! ([`RunEvent`]) and keeps what the final [`RunReport`] needs.
//!
//! Memory stays flat in the number of cases: a case that passed is kept as
//! its id, path, verdict, version, duration and stderr (about 200 bytes);
//! only a case that did not pass keeps its whole report (differences and
//! values, within the caps of [`crate::report::limits`]).

use super::judge::{judge, output_or_verdict};
use crate::baseline::{Baseline, BaselineRun, KnownFixtures};
use crate::fixture::{FixturePlan, FixtureStatus, Notice};
use crate::implementation::{Implementation, LateOutcome};
use crate::report::SelectionSummary;
use crate::report::limits::{ARTIFACT_LIMITS, cap_case_values};
use crate::report::{CaseReport, HarnessInfo, Partition, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport, Verdict};
use crate::report::{RunConsumer, RunEvent};
use crate::suite_api::{Contract, Suite};
use chrono::NaiveDate;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::workers::{spawn_workers, worker_count};

/// How often consumers get a [`RunEvent::Tick`] while nothing finishes.
const TICK: Duration = Duration::from_millis(100);

/// Which case reports the final [`RunReport`] keeps in `cases` (its counts
/// and clusters always cover every case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// Every case, as report writers that list each case need (JUnit, HTML,
    /// Markdown, a verbose terminal report).
    #[default]
    All,
    /// Only cases that did not pass plainly (any verdict but `pass`, or a
    /// pass with a message): enough for the terminal report, the exit code
    /// and a streamed JSON report, and flat in memory.
    NotPassed,
}

/// A baseline to apply as cases finish.
#[derive(Clone, Copy, Debug)]
pub struct BaselineOptions<'a> {
    /// The known failures.
    pub baseline: &'a Baseline,
    /// The day expiry dates are checked against.
    pub today: NaiveDate,
}

/// How to run.
#[derive(Debug, Default)]
pub struct RunOptions<'a> {
    /// Worker threads (0 = one per available core).
    pub jobs: usize,
    /// Fixture paths as given (recorded in the report).
    pub paths: Vec<PathBuf>,
    /// The shard this run covers, if partitioned.
    pub partition: Option<Partition>,
    /// What the run selected, recorded in the report (see
    /// [`crate::run::summarize_selection`]).
    pub selection: Option<SelectionSummary>,
    /// Set from another thread (Ctrl-C) to stop starting new cases; cases
    /// not started are left out of the report.
    pub cancel: Option<&'a AtomicBool>,
    /// A baseline to apply (entries are checked against every discovered
    /// fixture, selected or not).
    pub baseline: Option<BaselineOptions<'a>>,
    /// Which case reports the returned report keeps.
    pub keep: Keep,
}

/// What a worker tells the calling thread.
enum Message {
    Started(usize),
    Judged(usize, Box<CaseReport>, Vec<Notice>),
}

/// What the run keeps of one case (see the module docs).
#[derive(Debug)]
struct KeptCase {
    id: Box<str>,
    path: Box<str>,
    fixture_version: Option<u32>,
    contract: Contract,
    verdict: Verdict,
    /// The verdict before the baseline reclassified it.
    judged: Verdict,
    duration_ms: f64,
    stderr: Option<Box<str>>,
    /// The whole report, unless it was a plain pass.
    full: Option<Box<CaseReport>>,
}

impl KeptCase {
    fn new(case: CaseReport, judged: Verdict) -> Self {
        let plain = case.verdict == Verdict::Pass
            && case.message.is_none()
            && case.problems.is_empty()
            && case.differences.is_empty()
            && case.omitted_differences == 0
            && case.diff.is_empty()
            && case.diff_note.is_none()
            && case.cut.is_empty()
            && case.input.is_none()
            && case.expected.is_none()
            && case.actual.is_none();
        if plain {
            KeptCase {
                id: case.id.into_boxed_str(),
                path: case.path.into_boxed_str(),
                fixture_version: case.fixture_version,
                contract: case.contract,
                verdict: case.verdict,
                judged,
                duration_ms: case.duration_ms,
                stderr: case.stderr.map(String::into_boxed_str),
                full: None,
            }
        } else {
            KeptCase {
                id: case.id.clone().into_boxed_str(),
                path: Box::default(),
                fixture_version: None,
                contract: case.contract,
                verdict: case.verdict,
                judged,
                duration_ms: case.duration_ms,
                stderr: None,
                full: Some(Box::new(case)),
            }
        }
    }

    fn suite(&self) -> &str {
        self.id.split_once('/').map_or(&self.id, |(suite, _)| suite)
    }

    /// The case's report.
    fn report(&self) -> CaseReport {
        if let Some(full) = &self.full {
            return (**full).clone();
        }
        let name = self.id.split_once('/').map_or("", |(_, name)| name).to_owned();
        CaseReport {
            fixture_version: self.fixture_version,
            contract: self.contract,
            duration_ms: self.duration_ms,
            stderr: self.stderr.as_deref().map(str::to_owned),
            ..CaseReport::new(self.id.to_string(), self.suite(), name, self.path.to_string(), self.verdict)
        }
    }
}

/// The calling thread's side of a run: order, caps, baseline, consumers.
struct Collector<'r, 'c> {
    consumers: &'r mut [&'c mut dyn RunConsumer],
    baseline: Option<BaselineRun<'r>>,
    /// The per-run budget of kept values left.
    budget_left: usize,
    kept: Vec<KeptCase>,
    /// Load notices, in discovery order.
    notices: Vec<Notice>,
    /// The messages the baseline replaced, by case position.
    judged_messages: HashMap<usize, Option<String>>,
    /// Reports judged ahead of the next one in order.
    pending: HashMap<usize, (CaseReport, Vec<Notice>)>,
}

impl Collector<'_, '_> {
    fn emit(&mut self, event: RunEvent<'_>) {
        for consumer in self.consumers.iter_mut() {
            consumer.handle(&event);
        }
    }

    fn receive(&mut self, message: Message, ids: &dyn Fn(usize) -> String) {
        match message {
            Message::Started(slot) => {
                let id = ids(slot);
                self.emit(RunEvent::CaseStarted { index: slot, id: &id });
            }
            Message::Judged(slot, case, notices) => {
                self.pending.insert(slot, (*case, notices));
                while let Some((case, notices)) = self.pending.remove(&self.kept.len()) {
                    self.finish_case(case, notices);
                }
            }
        }
    }

    /// The next case in discovery order.
    fn finish_case(&mut self, mut case: CaseReport, notices: Vec<Notice>) {
        let index = self.kept.len();
        self.budget_left -= cap_case_values(&mut case, self.budget_left, &ARTIFACT_LIMITS).min(self.budget_left);
        let judged = case.verdict;
        let message = case.message.clone();
        if let Some(baseline) = &mut self.baseline
            && baseline.apply_case(&mut case)
            && case.message != message
        {
            self.judged_messages.insert(index, message);
        }
        self.emit(RunEvent::CaseFinished { index, case: &case, notices: &notices });
        self.notices.extend(notices);
        self.kept.push(KeptCase::new(case, judged));
    }

    /// Gives a case the verdict of a fault found after it was judged (a
    /// second reply to it, say); the first verdict stays in the message.
    fn apply_late(&mut self, late: LateOutcome, plan: &FixturePlan, selected: &[usize]) {
        let id = format!("{}/{}", late.suite, late.fixture);
        let Some(index) = self.kept.iter().position(|kept| *kept.id == *id) else { return };
        // Only faults replace a verdict; a late output or skip changes nothing.
        let (verdict, message) = match output_or_verdict(late.outcome) {
            Err(fault @ (Verdict::ProtocolError | Verdict::Crash | Verdict::Timeout | Verdict::Error, _)) => fault,
            _ => return,
        };
        let kept = &self.kept[index];
        let mut case = kept.report();
        // Back to the case as judged, before any baseline.
        case.verdict = kept.judged;
        if let Some(judged) = self.judged_messages.remove(&index) {
            case.message = judged;
        }
        if let Some(baseline) = &mut self.baseline {
            baseline.forget_case(&case.id);
        }
        case.message = Some(format!("{message} (first verdict: {})", case.verdict));
        case.verdict = verdict;
        if case.input.is_none()
            && let Some(&file) = selected.get(index)
            && let (fixture, _) = plan.load(file)
            && let FixtureStatus::Ready(parts) = fixture.status
        {
            case.input = Some(parts.input);
            case.expected = Some(parts.expected);
            self.budget_left -= cap_case_values(&mut case, self.budget_left, &ARTIFACT_LIMITS).min(self.budget_left);
        }
        if let Some(baseline) = &mut self.baseline {
            baseline.apply_case(&mut case);
        }
        self.emit(RunEvent::CaseAmended { index, case: &case });
        self.kept[index] = KeptCase::new(case, verdict);
    }
}

/// Most cases started ahead of discovery order (see [`task_order`]).
const MAX_STARTED_EARLY: usize = 32;

/// One thing a worker does.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Load and judge the case at this slot of `selected`.
    Case(usize),
    /// Compile a schema a case started earlier will need (see [`task_order`]).
    PrepareSchema(&'static dyn Suite, u32),
}

/// The order workers take tasks in: discovery order, except that the few
/// fixtures far larger than the average (16 times, at most 32 of them) go
/// first, largest first, so that one big fixture found late does not run
/// alone at the end while the other workers idle. Their reports wait for
/// their turn in discovery order; the others stream as before.
///
/// Right after the large fixtures come their schemas, for the other workers
/// to compile while a large fixture is still being parsed: otherwise its
/// worker compiles the schema after parsing, and the longest case of the
/// run grows by a compile (a quarter of the HAPI corpus's run time here).
/// Only a tree's `VERSION` names the version before a fixture is read; in
/// a tree without one, nothing is prepared.
fn task_order(plan: &FixturePlan, selected: &[usize]) -> Vec<Task> {
    let sizes: Vec<u64> = selected.iter().map(|&index| plan.files[index].len).collect();
    let average = sizes.iter().sum::<u64>() / (sizes.len() as u64).max(1);
    let mut early: Vec<usize> = (0..sizes.len()).filter(|&slot| sizes[slot] > average.saturating_mul(16)).collect();
    early.sort_by_key(|&slot| std::cmp::Reverse(sizes[slot]));
    early.truncate(MAX_STARTED_EARLY);
    let mut order: Vec<Task> = early.iter().map(|&slot| Task::Case(slot)).collect();
    let mut prepared: Vec<(&'static str, u32)> = Vec::new();
    for &slot in &early {
        let file = &plan.files[selected[slot]];
        if let Some(version) = file.tree.version
            && !prepared.contains(&(file.suite.name(), version))
        {
            prepared.push((file.suite.name(), version));
            order.push(Task::PrepareSchema(file.suite, version));
        }
    }
    early.sort_unstable();
    order.extend((0..sizes.len()).filter(|slot| early.binary_search(slot).is_err()).map(Task::Case));
    order
}

/// Runs the fixtures of `plan` at `selected` (indexes into `plan.files`, in
/// discovery order) through `implementation`, telling `consumers` as it
/// goes, and returns the run's report.
pub fn run(
    plan: &FixturePlan,
    selected: &[usize],
    implementation: &dyn Implementation,
    options: &RunOptions<'_>,
    consumers: &mut [&mut dyn RunConsumer],
) -> RunReport {
    let started_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let clock = Instant::now();
    let info = implementation.info();
    let jobs = worker_count(options.jobs, selected.len());
    let mut collector = Collector {
        consumers,
        baseline: options.baseline.map(|b| BaselineRun::new(b.baseline, b.today)),
        budget_left: ARTIFACT_LIMITS.value_bytes_per_run,
        kept: Vec::with_capacity(selected.len()),
        notices: Vec::new(),
        judged_messages: HashMap::new(),
        pending: HashMap::new(),
    };
    collector.emit(RunEvent::RunStarted { cases: selected.len(), implementation: &info, started_at: &started_at });
    let cancelled = || options.cancel.is_some_and(|flag| flag.load(Ordering::SeqCst));
    let judge_one = |slot: usize| {
        let (fixture, notices) = plan.load(selected[slot]);
        (Box::new(judge(&fixture, implementation)), notices)
    };
    let ids = |slot: usize| plan.id(selected[slot]).to_owned();

    let order = task_order(plan, selected);
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<Message>();
    std::thread::scope(|scope| {
        let (next, judge_one, order, cancelled) = (&next, &judge_one, &order, &cancelled);
        let started = spawn_workers(scope, "conform-worker", jobs, move |_| {
            while !cancelled() {
                let Some(&task) = order.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                let slot = match task {
                    Task::Case(slot) => slot,
                    Task::PrepareSchema(suite, version) => {
                        crate::schema::prepare_schema(suite, version);
                        continue;
                    }
                };
                let _ = sender.send(Message::Started(slot));
                let (case, notices) = judge_one(slot);
                let _ = sender.send(Message::Judged(slot, case, notices));
            }
        });
        if started == 0 {
            // No thread could be started: run everything here instead.
            // Alone, a worker gains nothing by preparing schemas early.
            for slot in order.iter().filter_map(|task| match task {
                Task::Case(slot) => Some(*slot),
                Task::PrepareSchema(..) => None,
            }) {
                if cancelled() {
                    break;
                }
                collector.receive(Message::Started(slot), &ids);
                let (case, notices) = judge_one(slot);
                collector.receive(Message::Judged(slot, case, notices), &ids);
            }
            return;
        }
        loop {
            match receiver.recv_timeout(TICK) {
                Ok(message) => collector.receive(message, &ids),
                Err(mpsc::RecvTimeoutError::Timeout) => collector.emit(RunEvent::Tick { elapsed: clock.elapsed() }),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    implementation.finish();
    for late in implementation.late_outcomes() {
        collector.apply_late(late, plan, selected);
    }

    let mut notices: Vec<Notice> = plan.notices.clone();
    notices.append(&mut collector.notices);
    let ran = collector.kept.len();
    if ran < selected.len() {
        notices.push(Notice::warning(format!(
            "interrupted: {ran} of {} cases ran; the report covers those",
            selected.len()
        )));
    }
    let cases: Vec<CaseReport> = collector
        .kept
        .iter()
        .filter(|kept| options.keep == Keep::All || kept.full.is_some())
        .map(KeptCase::report)
        .collect();
    let mut report = RunReport {
        format: REPORT_FORMAT.to_owned(),
        format_version: REPORT_FORMAT_VERSION,
        harness: HarnessInfo::current(),
        // Asked again: an implementation may learn more about itself as it runs.
        implementation: implementation.info(),
        started_at,
        duration_ms: clock.elapsed().as_secs_f64() * 1000.0,
        paths: options.paths.iter().map(|p| p.display().to_string()).collect(),
        partition: options.partition,
        selection: options.selection.clone(),
        notices,
        summary: Default::default(),
        suites: Vec::new(),
        cases,
        clusters: Vec::new(),
        baseline: None,
        limits: Some(ARTIFACT_LIMITS),
    };
    if let Some(baseline) = collector.baseline.take() {
        baseline.finish(&mut report, &KnownFixtures::of_plan(plan));
    }
    report.recount_over(collector.kept.iter().map(|kept| (kept.suite(), kept.verdict)));
    collector.emit(RunEvent::RunFinished { report: &report });
    report
}
