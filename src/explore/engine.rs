//! The exploration loop: workers take input numbers from one counter (the
//! suites interleaved), make each input, run it through both sides, judge
//! it, and keep per cluster the count, the first input number and the
//! smallest example. Workers keep their own tallies and clusters and merge
//! them at the end, so the result does not depend on which worker ran what.

use super::generate::{Candidate, Generated, Generator};
use super::judge::{ClusterKey, JudgedCase, Judgement, judge_case};
use super::seeds::SeedPool;
use crate::implementation::{CaseRequest, Implementation, Outcome, ReferenceImplementation};
use crate::suite_api::{Contract, ReferenceFailure};
use crate::workers::{jobs_or_cores, spawn_workers};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Distinct clusters kept per suite; divergences beyond are only counted.
pub const MAX_CLUSTERS_PER_SUITE: usize = 200;

/// One side of the comparison.
#[derive(Clone, Copy)]
pub enum Party<'a> {
    /// The suite's built-in reference, in-process.
    Reference,
    /// An implementation (an external program).
    Implementation(&'a dyn Implementation),
}

impl std::fmt::Debug for Party<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Party::Reference => f.write_str("Party::Reference"),
            Party::Implementation(implementation) => write!(f, "Party::Implementation({})", implementation.info().name),
        }
    }
}

impl<'a> Party<'a> {
    /// As an implementation to run (the reference runs in-process).
    pub fn implementation(&self) -> &'a dyn Implementation {
        match self {
            Party::Reference => &ReferenceImplementation,
            Party::Implementation(implementation) => *implementation,
        }
    }

    /// What this side made of a candidate (the reference's output is already
    /// known from making the input).
    fn run(&self, pool: &SeedPool, candidate: &Candidate, fixture: &str) -> Outcome {
        match self {
            Party::Reference => match &candidate.reference {
                Some(Ok(output)) => Outcome::Output(output.clone()),
                Some(Err(ReferenceFailure::Rejected(message))) => Outcome::Error(message.clone()),
                Some(Err(panicked @ ReferenceFailure::Panicked(_))) => Outcome::Crash(panicked.to_string()),
                None => Outcome::Unsupported("the reference does not implement this fixtureVersion".to_owned()),
            },
            Party::Implementation(implementation) => {
                let seed = &pool.seeds[candidate.seed];
                let request = CaseRequest {
                    suite: pool.suite.name(),
                    fixture,
                    fixture_version: seed.version,
                    input: &candidate.input,
                };
                implementation.run_case(&request).outcome
            }
        }
    }

    fn exhausted(&self) -> bool {
        matches!(self, Party::Implementation(implementation) if implementation.exhausted())
    }
}

/// How many inputs to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many inputs per suite.
    Count(u64),
    /// As many as fit in this much time, the suites in turn: no input
    /// starts after it, and an input still running [`TIME_GRACE`] after it
    /// is cut (its process killed through [`ExploreOptions::in_flight`])
    /// and not counted.
    Time(Duration),
}

/// How long past a time budget an input still in flight may run before it
/// is cut.
pub const TIME_GRACE: Duration = Duration::from_secs(1);

/// Sets `in_flight` once `cancel` is set (Ctrl-C) or `cut_at` has passed,
/// until `done` says every worker has stopped: the implementations were
/// started with `in_flight` as their cancel flag, so a case then in flight
/// ends at once and its process is killed.
fn watch_in_flight(
    cut_at: Option<Instant>,
    cancel: Option<&AtomicBool>,
    in_flight: &AtomicBool,
    done: impl Fn() -> bool,
) {
    while !done() {
        let cancelled = cancel.is_some_and(|flag| flag.load(Ordering::SeqCst));
        if cancelled || cut_at.is_some_and(|at| Instant::now() >= at) {
            in_flight.store(true, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How to explore.
#[derive(Clone, Copy, Debug)]
pub struct ExploreOptions<'a> {
    /// The run's seed: with the corpus, it determines every input.
    pub seed: u64,
    /// How many inputs.
    pub budget: Budget,
    /// Worker threads (0 = one per core).
    pub jobs: usize,
    /// Keep inputs that are not valid cases.
    pub any_json: bool,
    /// Drop inputs outside the suites' wire contracts (`--in-contract`).
    pub in_contract: bool,
    /// Stop once this many distinct clusters are found (0: no limit).
    pub max_clusters: usize,
    /// Set from another thread (Ctrl-C) to stop early.
    pub cancel: Option<&'a AtomicBool>,
    /// The cancel flag the implementations were started with, when it is
    /// theirs alone: the exploration sets it on `cancel` and once a time
    /// budget and [`TIME_GRACE`] are spent, so that a case in flight cannot
    /// hold it longer.
    pub in_flight: Option<&'a AtomicBool>,
}

/// Time spent per phase, in nanoseconds summed over workers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    /// Mutating, running the reference on the draw, checking validity.
    pub generate: u64,
    /// The implementation under test (the round trip to its process).
    pub subject: u64,
    /// The other side, when it is an external implementation.
    pub against: u64,
    /// Comparing outcomes and keeping clusters.
    pub judge: u64,
}

impl PhaseTimes {
    fn add(&mut self, other: &PhaseTimes) {
        self.generate += other.generate;
        self.subject += other.subject;
        self.against += other.against;
        self.judge += other.judge;
    }
}

/// What happened to one suite's inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteTally {
    /// Input numbers taken.
    pub generated: u64,
    /// Of those, numbers with no valid draw.
    pub rejected: u64,
    /// Inputs both sides ran on and that were judged.
    pub judged: u64,
    /// Of the judged, those where the sides agree.
    pub agreed: u64,
    /// Of the judged, those where they diverge.
    pub diverged: u64,
    /// Inputs a side declined or does not implement.
    pub unjudged: u64,
    /// Of the judged, those outside the suite's wire contract (robustness).
    pub robustness: u64,
    /// Draws outside the wire contract dropped before being sent
    /// (`--in-contract`).
    pub dropped: u64,
    /// Divergences in clusters beyond [`MAX_CLUSTERS_PER_SUITE`].
    pub overflow: u64,
    /// Where the time went.
    pub times: PhaseTimes,
}

impl SuiteTally {
    fn add(&mut self, other: &SuiteTally) {
        self.generated += other.generated;
        self.rejected += other.rejected;
        self.judged += other.judged;
        self.agreed += other.agreed;
        self.diverged += other.diverged;
        self.unjudged += other.unjudged;
        self.robustness += other.robustness;
        self.dropped += other.dropped;
        self.overflow += other.overflow;
        self.times.add(&other.times);
    }
}

/// One input of a cluster. What the sides made of it is not kept (outputs
/// can be large; the report runs the reduced example again), so a cluster
/// costs the one input it keeps.
#[derive(Clone, Debug)]
pub struct Example {
    /// Its number among the suite's inputs.
    pub index: u64,
    /// The seed it was made from (index into the pool's seeds).
    pub seed: usize,
    /// The input part.
    pub input: Value,
    /// The mutations that made it.
    pub path: Vec<String>,
    /// Compact JSON bytes of the input (smaller examples are kept).
    pub size: usize,
    /// Whether a real hub can send it.
    pub contract: Contract,
}

impl Example {
    /// Which of two examples a cluster keeps: an in-contract one before a
    /// robustness one, then the smaller, then the earlier.
    fn rank(&self) -> (Contract, usize, u64) {
        (self.contract, self.size, self.index)
    }
}

/// Divergences that share a cluster key, in one suite.
#[derive(Clone, Debug)]
pub struct FoundCluster {
    /// Index of the suite's pool.
    pub pool: usize,
    /// What the divergences have in common.
    pub key: ClusterKey,
    /// How many inputs showed it.
    pub count: u64,
    /// How many of those are in the suite's wire contract.
    pub in_contract: u64,
    /// The smallest input number that showed it.
    pub first_index: u64,
    /// The smallest example (in-contract first, then by size, then input
    /// number).
    pub smallest: Example,
}

impl FoundCluster {
    /// In contract when any of its inputs is (a real hub can make the
    /// implementation show it), robustness when every input is outside the
    /// wire contract.
    pub fn contract(&self) -> Contract {
        if self.in_contract > 0 { Contract::InContract } else { Contract::Robustness }
    }
}

/// Why the exploration ended before its budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// A side's restart budget is spent.
    Exhausted(&'static str),
    /// `max_clusters` clusters were found.
    EnoughClusters,
}

/// The raw result of an exploration (before reduction).
#[derive(Clone, Debug)]
pub struct Exploration {
    /// Per pool, in pool order.
    pub tallies: Vec<SuiteTally>,
    /// Every cluster, by pool, then in-contract before robustness, then most
    /// frequent first, then label.
    pub clusters: Vec<FoundCluster>,
    /// Why it stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Wall time of the exploration.
    pub duration: Duration,
}

#[derive(Default)]
struct WorkerState {
    tallies: Vec<SuiteTally>,
    clusters: Vec<HashMap<ClusterKey, FoundCluster>>,
}

/// The name an input is sent under: `explore-<index>`.
pub fn input_name(index: u64) -> String {
    format!("explore-{index}")
}

/// Explores `pools` (suites without seeds are left out by the caller).
pub fn explore(
    pools: &[SeedPool],
    subject: Party<'_>,
    against: Party<'_>,
    options: &ExploreOptions<'_>,
) -> Exploration {
    let clock = Instant::now();
    let jobs = jobs_or_cores(options.jobs);
    let next = AtomicU64::new(0);
    let stop = Mutex::new(None::<Stop>);
    let halted = AtomicBool::new(false);
    let states: Mutex<Vec<WorkerState>> = Mutex::new(Vec::new());
    let distinct: Mutex<HashSet<(usize, ClusterKey)>> = Mutex::new(HashSet::new());
    let deadline = match options.budget {
        Budget::Time(duration) => Some(clock + duration),
        Budget::Count(_) => None,
    };
    let cut_at = deadline.map(|deadline| deadline + TIME_GRACE);
    let suites = pools.len() as u64;
    let work = || {
        let mut state = WorkerState {
            tallies: vec![SuiteTally::default(); pools.len()],
            clusters: vec![HashMap::new(); pools.len()],
        };
        loop {
            if halted.load(Ordering::Relaxed) {
                break;
            }
            if options.cancel.is_some_and(|flag| flag.load(Ordering::SeqCst)) {
                set_stop(&stop, &halted, Stop::Interrupted);
                break;
            }
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                break;
            }
            let ticket = next.fetch_add(1, Ordering::Relaxed);
            let (pool_index, index) = ((ticket % suites) as usize, ticket / suites);
            if let Budget::Count(count) = options.budget
                && index >= count
            {
                break;
            }
            match run_one(pools, pool_index, index, (subject, against), options, cut_at, &mut state) {
                Ok(None) => {}
                Ok(Some(keys)) if options.max_clusters > 0 => {
                    let mut seen = distinct.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    seen.extend(keys.into_iter().map(|key| (pool_index, key)));
                    if seen.len() >= options.max_clusters {
                        drop(seen);
                        set_stop(&stop, &halted, Stop::EnoughClusters);
                        break;
                    }
                }
                Ok(Some(_)) => {}
                Err(problem) => {
                    set_stop(&stop, &halted, problem);
                    break;
                }
            }
        }
        states.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(state);
    };
    if pools.is_empty() {
        return Exploration { tallies: Vec::new(), clusters: Vec::new(), stopped: None, duration: clock.elapsed() };
    }
    let stopped_workers = AtomicUsize::new(0);
    let work = || {
        work();
        stopped_workers.fetch_add(1, Ordering::SeqCst);
    };
    std::thread::scope(|scope| {
        let started = spawn_workers(scope, "conform-explore", jobs, |_| work());
        if let Some(in_flight) = options.in_flight {
            let stopped = &stopped_workers;
            let done = move || stopped.load(Ordering::SeqCst) >= started.max(1);
            scope.spawn(move || watch_in_flight(cut_at, options.cancel, in_flight, done));
        }
        if started == 0 {
            work();
        }
    });
    let duration = clock.elapsed();
    let states = states.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (tallies, clusters) = merge(pools.len(), states);
    let stopped = stop.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    Exploration { tallies, clusters, stopped, duration }
}

fn set_stop(stop: &Mutex<Option<Stop>>, halted: &AtomicBool, why: Stop) {
    let mut guard = stop.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    guard.get_or_insert(why);
    halted.store(true, Ordering::SeqCst);
}

/// Makes, runs and judges one input: its cluster keys when it diverges, or a reason to stop everything when a side can run no more.
/// An input whose run ends after `cut_at` was cut by the time budget: it is
/// neither judged nor counted.
fn run_one(
    pools: &[SeedPool],
    pool_index: usize,
    index: u64,
    (subject, against): (Party<'_>, Party<'_>),
    options: &ExploreOptions<'_>,
    cut_at: Option<Instant>,
    state: &mut WorkerState,
) -> Result<Option<Vec<ClusterKey>>, Stop> {
    let pool = &pools[pool_index];
    let generator =
        Generator { pool, seed: options.seed, any_json: options.any_json, in_contract: options.in_contract };
    let mut times = PhaseTimes::default();
    let clock = Instant::now();
    let (generated, dropped) = generator.generate_counting(index);
    times.generate = elapsed_ns(clock);
    let tally = &mut state.tallies[pool_index];
    tally.generated += 1;
    tally.dropped += u64::from(dropped);
    let candidate = match generated {
        Generated::Input(candidate) => candidate,
        Generated::Rejected => {
            tally.rejected += 1;
            tally.times.add(&times);
            return Ok(None);
        }
    };
    let fixture = input_name(index);
    let clock = Instant::now();
    let subject_outcome = subject.run(pool, &candidate, &fixture);
    times.subject = elapsed_ns(clock);
    if cut_at.is_some_and(|at| Instant::now() >= at) {
        state.tallies[pool_index].generated -= 1;
        return Ok(None);
    }
    if subject.exhausted() {
        return Err(Stop::Exhausted("the implementation under test"));
    }
    let clock = Instant::now();
    let against_outcome = against.run(pool, &candidate, &fixture);
    times.against = elapsed_ns(clock);
    if cut_at.is_some_and(|at| Instant::now() >= at) {
        state.tallies[pool_index].generated -= 1;
        return Ok(None);
    }
    if against.exhausted() {
        return Err(Stop::Exhausted("the implementation it is judged against"));
    }
    let clock = Instant::now();
    let case = JudgedCase { suite: pool.suite, version: pool.seeds[candidate.seed].version, input: &candidate.input };
    let judgement = judge_case(case, &subject_outcome, &against_outcome);
    let tally = &mut state.tallies[pool_index];
    if candidate.contract.is_robustness() && !matches!(judgement, Judgement::Unjudged) {
        tally.robustness += 1;
    }
    let mut diverged = None;
    match judgement {
        Judgement::Agree => {
            tally.judged += 1;
            tally.agreed += 1;
        }
        Judgement::Unjudged => tally.unjudged += 1,
        Judgement::Diverge(keys) => {
            tally.judged += 1;
            tally.diverged += 1;
            let size = crate::json::to_compact_string(&candidate.input).len();
            let rank = (candidate.contract, size, index);
            let in_contract = u64::from(!candidate.contract.is_robustness());
            let clusters = &mut state.clusters[pool_index];
            for key in &keys {
                let room = clusters.len() < MAX_CLUSTERS_PER_SUITE;
                match clusters.get_mut(key) {
                    Some(cluster) => {
                        cluster.count += 1;
                        cluster.in_contract += in_contract;
                        cluster.first_index = cluster.first_index.min(index);
                        if rank < cluster.smallest.rank() {
                            cluster.smallest = example(&candidate, size);
                        }
                    }
                    None if room => {
                        let smallest = example(&candidate, size);
                        let cluster = FoundCluster {
                            pool: pool_index,
                            key: key.clone(),
                            count: 1,
                            in_contract,
                            first_index: index,
                            smallest,
                        };
                        clusters.insert(key.clone(), cluster);
                    }
                    None => tally.overflow += 1,
                }
            }
            diverged = Some(keys);
        }
    }
    times.judge = elapsed_ns(clock);
    state.tallies[pool_index].times.add(&times);
    Ok(diverged)
}

fn example(candidate: &Candidate, size: usize) -> Example {
    Example {
        index: candidate.index,
        seed: candidate.seed,
        input: candidate.input.clone(),
        path: candidate.path.clone(),
        size,
        contract: candidate.contract,
    }
}

fn elapsed_ns(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Adds up the workers' tallies and merges their clusters (counts added,
/// the smallest example and first input number kept).
fn merge(pools: usize, states: Vec<WorkerState>) -> (Vec<SuiteTally>, Vec<FoundCluster>) {
    let mut tallies = vec![SuiteTally::default(); pools];
    let mut merged: Vec<HashMap<ClusterKey, FoundCluster>> = vec![HashMap::new(); pools];
    for state in states {
        for (total, tally) in tallies.iter_mut().zip(&state.tallies) {
            total.add(tally);
        }
        for (pool, clusters) in state.clusters.into_iter().enumerate() {
            for (key, cluster) in clusters {
                let room = merged[pool].len() < MAX_CLUSTERS_PER_SUITE;
                match merged[pool].get_mut(&key) {
                    Some(kept) => {
                        kept.count += cluster.count;
                        kept.in_contract += cluster.in_contract;
                        kept.first_index = kept.first_index.min(cluster.first_index);
                        if cluster.smallest.rank() < kept.smallest.rank() {
                            kept.smallest = cluster.smallest;
                        }
                    }
                    None if room => {
                        merged[pool].insert(key, cluster);
                    }
                    None => tallies[pool].overflow += cluster.count,
                }
            }
        }
    }
    let mut clusters: Vec<FoundCluster> = Vec::new();
    for map in merged {
        let mut list: Vec<FoundCluster> = map.into_values().collect();
        list.sort_by(|a, b| {
            a.contract().cmp(&b.contract()).then_with(|| b.count.cmp(&a.count)).then_with(|| a.key.cmp(&b.key))
        });
        clusters.extend(list);
    }
    (tallies, clusters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{CaseRun, ImplementationInfo, ImplementationKind};
    use crate::suite_api::NoTrace;

    /// The tool-policy reference, except that a command holding a digit is
    /// always allowed.
    struct AllowsDigits;

    impl Implementation for AllowsDigits {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo {
                name: "allows-digits".into(),
                version: "1".into(),
                language: "rust".into(),
                kind: ImplementationKind::Subprocess,
                command: None,
            }
        }

        fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
            let reference = crate::suites::tool_policy::reference::run;
            match reference(request.input, &mut NoTrace) {
                Ok(mut output) => {
                    let command = request.input.get("command").and_then(Value::as_str).unwrap_or_default();
                    if command.chars().any(|c| c.is_ascii_digit()) {
                        output = serde_json::json!({"allowed": true});
                    }
                    Outcome::Output(output).into()
                }
                Err(message) => Outcome::Error(message).into(),
            }
        }
    }

    fn pool() -> SeedPool {
        let suite = crate::suites::find("tool-policy").unwrap_or_else(|| unreachable!());
        let corpus = crate::fixture::load_corpus(
            &[std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/tool-policy")],
            &Default::default(),
        )
        .unwrap_or_else(|err| panic!("{err}"));
        SeedPool::of(suite, &corpus.fixtures)
    }

    #[test]
    fn results_do_not_depend_on_the_number_of_workers() {
        let pools = [pool()];
        let run = |jobs| {
            let options = ExploreOptions {
                seed: 3,
                budget: Budget::Count(400),
                jobs,
                any_json: false,
                in_contract: false,
                max_clusters: 0,
                cancel: None,
                in_flight: None,
            };
            explore(&pools, Party::Implementation(&AllowsDigits), Party::Reference, &options)
        };
        let (one, three) = (run(1), run(3));
        let mut times = (one.tallies[0].clone(), three.tallies[0].clone());
        times.0.times = PhaseTimes::default();
        times.1.times = PhaseTimes::default();
        assert_eq!(times.0, times.1);
        assert_eq!(one.tallies[0].generated, 400);
        assert!(one.tallies[0].diverged > 0, "{:?}", one.tallies[0]);
        let summary = |e: &Exploration| -> Vec<(String, u64, u64, u64)> {
            e.clusters.iter().map(|c| (c.key.label(), c.count, c.first_index, c.smallest.index)).collect()
        };
        assert_eq!(summary(&one), summary(&three));
        assert_eq!(one.stopped, None);
    }

    /// The chat reference, except that it gets `hasReadyEvent` wrong on
    /// every input outside the wire contract, and `latestUsage` on one
    /// in-contract input in 97 (by input number): a robustness bug that
    /// shows far more often than an in-contract one.
    struct RobustnessBug;

    impl Implementation for RobustnessBug {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo { name: "robustness-bug".into(), ..AllowsDigits.info() }
        }

        fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
            let suite = crate::suites::find(request.suite).unwrap_or_else(|| unreachable!());
            let run = ReferenceImplementation.run_case(request);
            let Outcome::Output(mut output) = run.outcome else { return run };
            let index: u64 = request.fixture.trim_start_matches("explore-").parse().unwrap_or(1);
            if crate::schema::input_contract(suite, request.fixture_version, request.input).is_robustness() {
                output["hasReadyEvent"] = Value::from(!output["hasReadyEvent"].as_bool().unwrap_or(false));
            } else if index.is_multiple_of(97) {
                output["latestUsage"] = serde_json::json!({"planted": true});
            }
            Outcome::Output(output).into()
        }
    }

    #[test]
    fn a_cluster_of_robustness_inputs_is_labelled_so_and_ordered_after_in_contract_ones() {
        let suite = crate::suites::find("chat").unwrap_or_else(|| unreachable!());
        let corpus = crate::fixture::load_corpus(
            &[std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/chat")],
            &Default::default(),
        )
        .unwrap_or_else(|err| panic!("{err}"));
        let pools = [SeedPool::of(suite, &corpus.fixtures)];
        let options = ExploreOptions {
            seed: 5,
            budget: Budget::Count(600),
            jobs: 2,
            any_json: false,
            in_contract: false,
            max_clusters: 0,
            cancel: None,
            in_flight: None,
        };
        let found = explore(&pools, Party::Implementation(&RobustnessBug), Party::Reference, &options);
        let tally = &found.tallies[0];
        assert!(tally.robustness > 0 && tally.robustness < tally.judged, "{tally:?}");
        let summary: Vec<(String, Contract, u64, u64)> =
            found.clusters.iter().map(|c| (c.key.label(), c.contract(), c.count, c.in_contract)).collect();
        // The planted bugs show as clusters named by the rule the reference
        // traces the value to, or by pointer: every one of them in contract
        // or robustness throughout, in-contract ones first.
        let split = summary.iter().position(|c| c.1 == Contract::Robustness).unwrap_or(summary.len());
        let (in_contract, robustness) = summary.split_at(split);
        assert!(!in_contract.is_empty() && !robustness.is_empty(), "{summary:?}");
        assert!(in_contract.iter().all(|c| c.1 == Contract::InContract && c.3 == c.2), "{summary:?}");
        assert!(robustness.iter().all(|c| c.1 == Contract::Robustness && c.3 == 0), "{summary:?}");
        assert!(in_contract.iter().any(|c| c.0.contains("/latestUsage")), "{summary:?}");
        assert!(robustness.iter().any(|c| c.0.contains("/hasReadyEvent")), "{summary:?}");
        assert!(robustness.iter().map(|c| c.2).sum::<u64>() >= tally.robustness, "{summary:?}");
        // Ordered by label before frequency: a robustness cluster is the largest.
        let largest = |clusters: &[(String, Contract, u64, u64)]| clusters.iter().map(|c| c.2).max().unwrap_or(0);
        assert!(largest(robustness) > largest(in_contract), "{summary:?}");
        assert!(found.clusters.iter().all(|c| c.smallest.contract == c.contract()));

        // --in-contract: no robustness input is sent, each drop is counted.
        let options = ExploreOptions { in_contract: true, ..options };
        let found = explore(&pools, Party::Implementation(&RobustnessBug), Party::Reference, &options);
        let tally = &found.tallies[0];
        assert_eq!(tally.robustness, 0, "{tally:?}");
        assert!(tally.dropped > 0, "{tally:?}");
        assert!(found.clusters.iter().all(|c| c.contract() == Contract::InContract), "{:?}", found.clusters);
    }

    #[test]
    fn the_reference_against_itself_agrees_and_max_clusters_stops_early() {
        let pools = [pool()];
        let options = ExploreOptions {
            seed: 9,
            budget: Budget::Count(200),
            jobs: 2,
            any_json: false,
            in_contract: false,
            max_clusters: 0,
            cancel: None,
            in_flight: None,
        };
        let same = explore(&pools, Party::Implementation(&ReferenceImplementation), Party::Reference, &options);
        assert_eq!((same.tallies[0].diverged, same.clusters.len()), (0, 0));
        let options = ExploreOptions { max_clusters: 1, budget: Budget::Count(100_000), ..options };
        let stopped = explore(&pools, Party::Implementation(&AllowsDigits), Party::Reference, &options);
        assert_eq!(stopped.stopped, Some(Stop::EnoughClusters));
        assert!(stopped.tallies[0].generated < 100_000);
    }
}
