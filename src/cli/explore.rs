//! `conform explore`.

use super::implementation::{ExternalArgs, ImplementationArgs, LimitArgs, Subject};
use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};
use conform::error::exit_code;
use conform::explore::engine::Stop;
use conform::explore::report::{ExploreFormat, RunFacts, build, write_files, write_pretty};
use conform::explore::{
    Budget, ExploreOptions, FoundCluster, Generated, Generator, Party, SeedPool, ShrinkOptions, ShrunkCluster, explore,
    shrink_all,
};
use conform::fixture::{Notice, SuiteFilter, load_corpus};
use conform::implementation::{Implementation, ReferenceImplementation};
use conform::report::Palette;
use conform::review::{WriteMode, Written, write_fixture};
use conform::run::{Selection, select};
use conform::suite::Suite;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// Fixture trees, suite folders or files to seed from, besides `fixtures` (when it exists).
    paths: Vec<PathBuf>,
    /// Only this suite (repeatable).
    #[arg(long = "suite", value_name = "SUITE", long_help = super::selection::naming_suites("Only this suite (repeatable)"))]
    suites: Vec<String>,
    /// Only seed from fixtures whose id (`suite/name`) matches this glob (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    /// Inputs per suite [default: 10000 unless --time is given].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    count: Option<u64>,
    /// Explore for this long instead (e.g. 30s, 5m), the suites in turn.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    time: Option<Duration>,
    /// The seed: the same seed and fixtures give the same inputs [default: from the clock; the report names it].
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Judge against a second external implementation instead of the reference (no expectation at all).
    #[arg(long = "against-cmd", value_name = "COMMAND")]
    against_cmd: Option<String>,
    /// Also keep generated inputs that are not valid cases (schema-invalid, or the reference rejects them).
    #[arg(long)]
    any_json: bool,
    /// Report format (repeatable): pretty goes to stdout, the others to files in --out [default: pretty, json].
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    formats: Vec<FormatChoice>,
    /// Folder for report files.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Pending fixtures go to DIR/<suite>/<cluster-slug>.json.new, for `conform review`.
    #[arg(long, value_name = "DIR", default_value = "fixtures")]
    pending_dir: PathBuf,
    /// Write no pending fixtures.
    #[arg(long)]
    no_pending: bool,
    /// Parallel workers, each with its own implementation process (0 = one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// Stop exploring once this many distinct clusters are found (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_clusters: usize,
    /// At most this many probes (each runs both sides once) to reduce each cluster's example.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    max_tests: usize,
    /// Reduce, report in full and write pending fixtures for at most N clusters (the most frequent of each suite
    /// first); the others are listed with their count and example input only.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PENDING)]
    max_pending: usize,
    /// Print input SUITE#INDEX as the seed makes it (and its mutation path on stderr), and stop.
    #[arg(long, value_name = "SUITE#INDEX")]
    replay: Option<String>,
    #[command(flatten)]
    implementation: ImplementationArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatChoice {
    Pretty,
    Json,
    Markdown,
}

impl From<FormatChoice> for ExploreFormat {
    fn from(choice: FormatChoice) -> Self {
        match choice {
            FormatChoice::Pretty => ExploreFormat::Pretty,
            FormatChoice::Json => ExploreFormat::Json,
            FormatChoice::Markdown => ExploreFormat::Markdown,
        }
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    conform::implementation::subprocess::parse_duration(text).map_err(|err| err.to_string())
}

/// Default inputs per suite.
const DEFAULT_COUNT: u64 = 10_000;

/// Default of `--max-pending`.
const DEFAULT_MAX_PENDING: usize = 30;

pub fn execute(args: ExploreArgs) -> anyhow::Result<i32> {
    let clock = Instant::now();
    let started_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let seed = args.seed.unwrap_or_else(clock_seed);
    let paths = seed_paths(&args.paths);
    let filter = SuiteFilter::new(&args.suites)?;
    let corpus = load_corpus(&paths, &filter)?;
    super::print_notices(&corpus.notices);
    let selected = select(&corpus, &Selection::new(&args.filters)?);
    super::selection::require_some(selected.len())?;
    let fixtures: Vec<_> = selected.iter().map(|&index| &corpus.fixtures[index]).collect();
    let mut pools = Vec::new();
    for suite in conform::suites::all().iter().copied().filter(|s| filter.includes(*s)) {
        if let Some(pool) = pool_for(suite, &fixtures, args.any_json) {
            pools.push(pool);
        }
    }
    if pools.is_empty() {
        bail!("no selected suite can be explored: none has a ready fixture to seed from and a reference to judge by");
    }

    if let Some(replay) = &args.replay {
        return replay_input(&pools, replay, seed, args.any_json);
    }
    if args.implementation.external.impl_cmd.is_none() && args.against_cmd.is_none() {
        bail!(
            "explore compares two implementations: give --impl-cmd (judged against the reference), --against-cmd \
             (the reference judged against it), or both"
        );
    }
    let budget = match (args.count, args.time) {
        (_, Some(time)) => Budget::Time(time),
        (count, None) => Budget::Count(count.unwrap_or(DEFAULT_COUNT)),
    };
    let jobs = match args.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let interrupted = super::interrupt::flag();

    // Exploring: the implementations' own restart budget.
    let (subject, against) = start_both(&args.implementation, args.against_cmd.as_deref(), None, &interrupted)?;
    let options = ExploreOptions {
        seed,
        budget,
        jobs,
        any_json: args.any_json,
        max_clusters: args.max_clusters,
        cancel: Some(&interrupted),
    };
    let exploration = explore(&pools, party(&subject), party_of(against.as_ref()), &options);
    finish(&subject, against.as_ref());
    let info = subject.implementation().info();
    let against_info = against.as_ref().map_or_else(|| ReferenceImplementation.info(), |a| a.implementation().info());

    let mut notices = corpus.notices.clone();
    notices.extend(stop_notice(exploration.stopped.as_ref(), args.max_clusters));

    let (to_reduce, unreduced) = choose_to_reduce(&exploration.clusters, args.max_pending);
    // Shrinking: fresh processes with a restart budget as large as the run
    // budget, since every candidate may be one that crashes.
    let shrunk = if to_reduce.is_empty() || super::interrupt::interrupted(&interrupted) {
        Vec::new()
    } else {
        let (subject, against) =
            start_both(&args.implementation, args.against_cmd.as_deref(), Some(args.max_tests), &interrupted)?;
        let options = ShrinkOptions {
            seed,
            max_tests: args.max_tests,
            jobs,
            pending_dir: &args.pending_dir,
            any_json: args.any_json,
            cancel: Some(&interrupted),
        };
        let shrunk = shrink_all(&pools, to_reduce, party(&subject), party_of(against.as_ref()), &options);
        finish(&subject, against.as_ref());
        shrunk
    };

    let (fixtures_written, written) = write_pending(&shrunk, args.no_pending);
    let facts = RunFacts {
        implementation: info,
        against: against_info,
        seed,
        budget,
        any_json: args.any_json,
        jobs,
        started_at,
        duration_ms: clock.elapsed().as_secs_f64() * 1000.0,
        paths: paths.iter().map(|p| p.display().to_string()).collect(),
        notices,
    };
    let report = build(facts, &pools, &exploration, &shrunk, &fixtures_written, &unreduced);

    let mut formats: Vec<ExploreFormat> = args.formats.iter().copied().map(ExploreFormat::from).collect();
    if formats.is_empty() {
        formats = vec![ExploreFormat::Pretty, ExploreFormat::Json];
    }
    let stdout = &mut std::io::stdout().lock();
    if formats.contains(&ExploreFormat::Pretty) {
        write_pretty(&report, stdout, Palette::for_stdout())?;
    } else {
        writeln!(stdout, "{}", report.summary_line())?;
    }
    for outcome in &written {
        super::print_written(outcome, "");
    }
    super::print_wrote(&write_files(&report, &formats, &args.out)?);
    if super::interrupt::interrupted(&interrupted) {
        return Ok(exit_code::INTERRUPTED);
    }
    Ok(report.exit_code())
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
    let mut seen_in_pool: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
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

/// `fixtures` (when it exists) and every path given, without repeats.
fn seed_paths(given: &[PathBuf]) -> Vec<PathBuf> {
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

/// The seed pool of a suite, when the suite can be explored: it has seeds,
/// documents that carry an input part, and a reference that judges
/// validity (unless `--any-json`).
fn pool_for(
    suite: &'static dyn Suite,
    fixtures: &[&conform::fixture::LoadedFixture],
    any_json: bool,
) -> Option<SeedPool> {
    if suite.is_table() || (suite.reference().is_none() && !any_json) {
        return None;
    }
    let pool = SeedPool::of(suite, fixtures.iter().copied());
    (!pool.is_empty()).then_some(pool)
}

fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // Seeds people can type: below 2^32.
    (now.as_nanos() as u64 ^ u64::from(std::process::id())) & 0xFFFF_FFFF
}

fn replay_input(pools: &[SeedPool], replay: &str, seed: u64, any_json: bool) -> anyhow::Result<i32> {
    let (suite, index) = replay
        .split_once('#')
        .and_then(|(suite, index)| Some((suite, index.parse::<u64>().ok()?)))
        .with_context(|| format!("--replay `{replay}`: expected SUITE#INDEX (a suite name, `#`, an input number)"))?;
    let pool = pools
        .iter()
        .find(|pool| pool.suite.name() == suite)
        .with_context(|| format!("--replay `{replay}`: suite `{suite}` is not among the explored suites"))?;
    let generator = Generator { pool, seed, any_json };
    match generator.generate(index) {
        Generated::Input(candidate) => {
            eprintln!("seed {seed}, input {suite}#{index} from {}", pool.seeds[candidate.seed].id);
            for step in &candidate.path {
                eprintln!("  {}", conform::report::visible_controls(step));
            }
            println!("{}", conform::json::to_canonical_string(&candidate.input).trim_end());
            Ok(exit_code::CONFORMANT)
        }
        Generated::Rejected => {
            bail!("input {suite}#{index} of seed {seed} has no valid draw (it counts as rejected)")
        }
    }
}

/// Starts the implementation under test and, with `--against-cmd`, the
/// other one; `restarts` raises both restart budgets.
fn start_both(
    implementation: &ImplementationArgs,
    against_cmd: Option<&str>,
    restarts: Option<usize>,
    interrupted: &Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<(Subject, Option<Subject>)> {
    let mut implementation = implementation.clone();
    if let Some(restarts) = restarts {
        raise(&mut implementation.external.limits, restarts);
    }
    let subject = implementation.start(Arc::clone(interrupted))?;
    let against = match against_cmd {
        Some(command) => {
            let mut external = ExternalArgs {
                impl_cmd: Some(command.to_owned()),
                one_shot: false,
                limits: implementation.external.limits.clone(),
            };
            if let Some(restarts) = restarts {
                raise(&mut external.limits, restarts);
            }
            let started = external.start(Arc::clone(interrupted))?;
            started.map(Subject::External)
        }
        None => None,
    };
    Ok((subject, against))
}

fn raise(limits: &mut LimitArgs, restarts: usize) {
    limits.max_restarts = limits.max_restarts.max(u32::try_from(restarts).unwrap_or(u32::MAX));
}

fn party(subject: &Subject) -> Party<'_> {
    match subject {
        Subject::Builtin(_) => Party::Reference,
        Subject::External(external) => Party::Implementation(external.implementation()),
    }
}

fn party_of(against: Option<&Subject>) -> Party<'_> {
    against.map_or(Party::Reference, party)
}

fn finish(subject: &Subject, against: Option<&Subject>) {
    for side in std::iter::once(subject).chain(against) {
        side.implementation().finish();
        if let Some(external) = side.external() {
            external.print_notes();
        }
    }
}
