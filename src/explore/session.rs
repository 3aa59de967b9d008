//! One `conform explore` from the seed pools to the report: explore both
//! sides, choose the clusters to reduce, reduce them with fresh processes,
//! write their pending fixtures and build the report. The binary parses the
//! flags, starts the implementations through [`StartSides`] and prints what
//! this returns.

use super::engine::Stop;
use super::report::{ExploreReport, RunFacts, build};
use super::seeds::{keep_in_contract_seeds, keep_judgeable_seeds};
use super::{Budget, ExploreOptions, FoundCluster, Party, SeedPool, ShrinkOptions, ShrunkCluster, explore, shrink_all};
use crate::fixture::{LoadedFixture, Notice};
use crate::implementation::ImplementationInfo;
use crate::review::{WriteMode, Written, write_fixture};
use crate::suite_api::Suite;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Both sides of one phase of an exploration, started: the implementation
/// under test and what it is judged against.
pub trait Sides {
    /// The implementation under test.
    fn subject(&self) -> Party<'_>;
    /// What it is judged against (the reference, or a second implementation).
    fn against(&self) -> Party<'_>;
    /// Ends both sides' processes once the phase is over.
    fn finish(&self);
}

/// Starts the sides of each phase: once to explore, and again, with fresh
/// processes, to reduce.
pub trait StartSides {
    /// The started sides.
    type Sides: Sides;
    /// Why they could not start.
    type Error;
    /// Starts both sides; `restarts` raises both restart budgets to at least
    /// that many (every candidate of a reduction may be one that crashes).
    fn start(&self, restarts: Option<usize>) -> Result<Self::Sides, Self::Error>;
}

/// What an exploration is asked to do beyond the pools and the sides.
#[derive(Clone, Debug)]
pub struct SessionOptions<'a> {
    /// The run's seed: with the corpus, it determines every input.
    pub seed: u64,
    /// How many inputs.
    pub budget: Budget,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Keep inputs that are not valid cases (`--any-json`).
    pub any_json: bool,
    /// Send only inputs in the suites' wire contracts (`--in-contract`).
    pub in_contract: bool,
    /// Stop exploring once this many distinct clusters are found (0: no limit).
    pub max_clusters: usize,
    /// At most this many probes to reduce each cluster's example.
    pub max_tests: usize,
    /// Reduce and write pending fixtures for at most this many clusters.
    pub max_pending: usize,
    /// Pending fixtures go to `<folder>/<suite>/<slug>.json.new`.
    pub pending_dir: &'a Path,
    /// Write no pending fixtures.
    pub no_pending: bool,
    /// Set from another thread (Ctrl-C) to stop early.
    pub cancel: Option<&'a AtomicBool>,
    /// The cancel flag the exploring phase's implementations were started
    /// with, when it is theirs alone ([`ExploreOptions::in_flight`]).
    pub in_flight: Option<&'a AtomicBool>,
    /// When the command started (RFC 3339), for the report.
    pub started_at: String,
    /// The fixture paths seeded from, for the report.
    pub paths: Vec<String>,
    /// Notices of loading the seeds, carried into the report.
    pub notices: Vec<Notice>,
}

/// What an exploration produced.
#[derive(Debug)]
pub struct SessionOutcome {
    /// The report, for the writers.
    pub report: ExploreReport,
    /// The pending fixtures written, in cluster order.
    pub written: Vec<Written>,
    /// Whether it was interrupted (Ctrl-C).
    pub interrupted: bool,
}

/// Explores the pools, reduces the chosen clusters and builds the report
/// (see the module docs). `clock` is when the command started.
pub fn explore_session<S: StartSides>(
    pools: &[SeedPool],
    sides: &S,
    options: SessionOptions<'_>,
    clock: Instant,
) -> Result<SessionOutcome, S::Error> {
    let interrupted = || options.cancel.is_some_and(|flag| flag.load(Ordering::SeqCst));
    // Exploring: the implementations' own restart budget.
    let started = sides.start(None)?;
    // Seeds whose version an implementation under test does not declare
    // would only be spent on `unsupported`.
    let mut pools = pools.to_vec();
    let declared: Vec<&dyn crate::implementation::Implementation> =
        [started.subject(), started.against()].into_iter().map(|party| party.implementation()).collect();
    let seeds_left_out = keep_judgeable_seeds(&mut pools, &declared);
    let robustness_seeds = if options.in_contract { keep_in_contract_seeds(&mut pools) } else { 0 };
    let pools = pools.as_slice();
    let explore_options = ExploreOptions {
        seed: options.seed,
        budget: options.budget,
        jobs: options.jobs,
        any_json: options.any_json,
        in_contract: options.in_contract,
        max_clusters: options.max_clusters,
        cancel: options.cancel,
        in_flight: options.in_flight,
    };
    let exploration = explore(pools, started.subject(), started.against(), &explore_options);
    started.finish();
    let implementation = info(started.subject());
    let against = info(started.against());
    drop(started);

    let mut notices = options.notices;
    notices.extend(seeds_left_out.map(Notice::note));
    if options.in_contract {
        notices.push(Notice::note(dropped_line(pools, &exploration.tallies, robustness_seeds)));
    }
    notices.extend(stop_notice(exploration.stopped.as_ref(), options.max_clusters));

    let (to_reduce, unreduced) = choose_to_reduce(&exploration.clusters, options.max_pending);
    let shrunk = if to_reduce.is_empty() || interrupted() {
        Vec::new()
    } else {
        let started = sides.start(Some(options.max_tests))?;
        let shrink_options = ShrinkOptions {
            seed: options.seed,
            max_tests: options.max_tests,
            jobs: options.jobs,
            pending_dir: options.pending_dir,
            any_json: options.any_json,
            cancel: options.cancel,
        };
        let shrunk = shrink_all(pools, to_reduce, started.subject(), started.against(), &shrink_options);
        started.finish();
        shrunk
    };

    let (fixtures_written, written) = write_pending(&shrunk, options.no_pending);
    let facts = RunFacts {
        implementation,
        against,
        seed: options.seed,
        budget: options.budget,
        any_json: options.any_json,
        in_contract: options.in_contract,
        jobs: options.jobs,
        started_at: options.started_at,
        duration_ms: clock.elapsed().as_secs_f64() * 1000.0,
        paths: options.paths,
        notices,
    };
    let report = build(facts, pools, &exploration, &shrunk, &fixtures_written, &unreduced);
    Ok(SessionOutcome { report, written, interrupted: interrupted() })
}

fn info(party: Party<'_>) -> ImplementationInfo {
    party.implementation().info()
}

/// The one line `--in-contract` adds: how many generated inputs outside the
/// wire contract were dropped before being sent (per suite that dropped
/// any), and how many robustness seeds were left out.
fn dropped_line(pools: &[SeedPool], tallies: &[super::engine::SuiteTally], robustness_seeds: usize) -> String {
    let total: u64 = tallies.iter().map(|tally| tally.dropped).sum();
    let per_suite: Vec<String> = pools
        .iter()
        .zip(tallies)
        .filter(|(_, tally)| tally.dropped > 0)
        .map(|(pool, tally)| format!("{} {}", pool.suite.name(), tally.dropped))
        .collect();
    let mut line = format!(
        "--in-contract: {total} generated {} outside the wire contract dropped before being sent",
        if total == 1 { "input" } else { "inputs" }
    );
    if !per_suite.is_empty() {
        line.push_str(&format!(" ({})", per_suite.join(", ")));
    }
    if robustness_seeds > 0 {
        line.push_str(&format!(
            "; {robustness_seeds} robustness {} left out",
            if robustness_seeds == 1 { "seed" } else { "seeds" }
        ));
    }
    line
}

/// The notice saying why the exploration stopped early, when it did.
fn stop_notice(stopped: Option<&Stop>, max_clusters: usize) -> Option<Notice> {
    Some(match stopped? {
        Stop::Interrupted => Notice::warning("interrupted: the report covers the inputs that ran"),
        Stop::Exhausted(who) => {
            Notice::warning(format!("stopped early: {who} crashed or timed out more often than --max-restarts allows"))
        }
        Stop::EnoughClusters => Notice::note(format!("stopped after finding {max_clusters} clusters (--max-clusters)")),
    })
}

/// Writes each shrunk cluster's pending fixture (unless `no_pending`): per
/// cluster where it went or why there is none, and what was written.
fn write_pending(shrunk: &[ShrunkCluster], no_pending: bool) -> (Vec<Result<String, String>>, Vec<Written>) {
    let mut fixtures = Vec::new();
    let mut written = Vec::new();
    for cluster in shrunk {
        fixtures.push(match &cluster.fixture {
            Ok(_) if no_pending => Err("not written (--no-pending)".to_owned()),
            Ok((target, text)) => match write_fixture(target, text, WriteMode::Pending) {
                Ok(outcome) => {
                    let path = match &outcome {
                        Written::Pending(path) | Written::Accepted(path) | Written::Unchanged(path) => path.clone(),
                    };
                    written.push(outcome);
                    Ok(path.display().to_string())
                }
                Err(err) => Err(err.to_string()),
            },
            Err(why) => Err(why.clone()),
        });
    }
    (fixtures, written)
}

/// The clusters to reduce, at most `limit`, taken from the suites in turn by
/// rank (each suite's most frequent first), in the exploration's order; and
/// the others.
fn choose_to_reduce(clusters: &[FoundCluster], limit: usize) -> (Vec<FoundCluster>, Vec<FoundCluster>) {
    let mut rank = Vec::with_capacity(clusters.len());
    let mut seen_in_pool: HashMap<usize, usize> = HashMap::new();
    for (position, cluster) in clusters.iter().enumerate() {
        let within = seen_in_pool.entry(cluster.pool).or_default();
        rank.push((*within, cluster.pool, position));
        *within += 1;
    }
    rank.sort_unstable();
    let mut chosen: Vec<usize> = rank.iter().take(limit).map(|&(_, _, position)| position).collect();
    chosen.sort_unstable();
    let (mut reduce, mut rest) = (Vec::new(), Vec::new());
    for (position, cluster) in clusters.iter().enumerate() {
        if chosen.binary_search(&position).is_ok() {
            reduce.push(cluster.clone());
        } else {
            rest.push(cluster.clone());
        }
    }
    (reduce, rest)
}

/// The folders explore seeds from: `fixtures` (when it exists, or when
/// nothing is given) and every path given, without repeats.
pub fn seed_paths(given: &[PathBuf]) -> Vec<PathBuf> {
    let default = PathBuf::from("fixtures");
    let mut paths = Vec::new();
    if default.is_dir() || given.is_empty() {
        paths.push(default);
    }
    for path in given {
        let same = |known: &PathBuf| known == path || known.canonicalize().ok() == path.canonicalize().ok();
        if !paths.iter().any(same) {
            paths.push(path.clone());
        }
    }
    paths
}

/// The seed pool of each of `suites` that can be explored: it has seeds,
/// documents that carry an input part, and a reference that judges
/// validity (unless `any_json`).
pub fn seed_pools<'s>(
    suites: impl IntoIterator<Item = &'s &'static dyn Suite>,
    fixtures: &[&LoadedFixture],
    any_json: bool,
) -> Vec<SeedPool> {
    let mut pools = Vec::new();
    for &suite in suites {
        if suite.is_table() || (suite.reference().is_none() && !any_json) {
            continue;
        }
        let pool = SeedPool::of(suite, fixtures.iter().copied());
        if !pool.is_empty() {
            pools.push(pool);
        }
    }
    pools
}
