//! `conform explore`.

use super::implementation::{ExternalArgs, ImplementationArgs, LimitArgs, Subject};
use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};
use conform::error::exit_code;
use conform::explore::report::{ExploreFormat, write_files, write_pretty};
use conform::explore::session::{
    SessionOptions, SessionOutcome, Sides, StartSides, explore_session, seed_paths, seed_pools,
};
use conform::explore::{Budget, Generated, Generator, Party, SeedPool};
use conform::fixture::{SuiteFilter, load_corpus};
use conform::report::Palette;
use conform::run::{Selection, select};
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
    /// Send only inputs a real hub can send: generated inputs outside the suite's wire schema are dropped (and
    /// counted), and robustness seeds left out.
    #[arg(long)]
    in_contract: bool,
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
    let suites = conform::suites::all().iter().filter(|suite| filter.includes(**suite));
    let pools = seed_pools(suites, &fixtures, args.any_json);
    if pools.is_empty() {
        bail!("no selected suite can be explored: none has a ready fixture to seed from and a reference to judge by");
    }
    if let Some(replay) = &args.replay {
        return replay_input(pools, replay, seed, args.any_json, args.in_contract);
    }
    if args.implementation.external.impl_cmd.is_none() && args.against_cmd.is_none() {
        bail!(
            "explore compares two implementations: give --impl-cmd (judged against the reference), --against-cmd \
             (the reference judged against it), or both"
        );
    }
    let interrupted = super::interrupt::flag();
    // The exploring processes stop on Ctrl-C and when the time budget is spent: a case in flight is cut then.
    let exploring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sides = CommandSides {
        implementation: &args.implementation,
        against_cmd: args.against_cmd.as_deref(),
        interrupted: &interrupted,
        exploring: &exploring,
    };
    let paths = paths.iter().map(|p| p.display().to_string()).collect();
    let mut options = args.session_options(seed, &interrupted, started_at, paths, corpus.notices.clone());
    options.in_flight = Some(&exploring);
    let outcome = explore_session(&pools, &sides, options, clock)?;
    print_outcome(&outcome, &args.formats, &args.out)
}

impl ExploreArgs {
    /// The session options the flags give, with the report's facts.
    fn session_options<'a>(
        &'a self,
        seed: u64,
        interrupted: &'a std::sync::atomic::AtomicBool,
        started_at: String,
        paths: Vec<String>,
        notices: Vec<conform::fixture::Notice>,
    ) -> SessionOptions<'a> {
        SessionOptions {
            seed,
            budget: match (self.count, self.time) {
                (_, Some(time)) => Budget::Time(time),
                (count, None) => Budget::Count(count.unwrap_or(DEFAULT_COUNT)),
            },
            jobs: conform::workers::jobs_or_cores(self.jobs),
            any_json: self.any_json,
            in_contract: self.in_contract,
            max_clusters: self.max_clusters,
            max_tests: self.max_tests,
            max_pending: self.max_pending,
            pending_dir: &self.pending_dir,
            no_pending: self.no_pending,
            cancel: Some(interrupted),
            in_flight: None,
            started_at,
            paths,
            notices,
        }
    }
}

/// Prints the report (pretty, or its summary line), the pending fixtures
/// written and the report files; the exit code.
fn print_outcome(outcome: &SessionOutcome, formats: &[FormatChoice], out: &std::path::Path) -> anyhow::Result<i32> {
    let mut formats: Vec<ExploreFormat> = formats.iter().copied().map(ExploreFormat::from).collect();
    if formats.is_empty() {
        formats = vec![ExploreFormat::Pretty, ExploreFormat::Json];
    }
    let stdout = &mut std::io::stdout().lock();
    if formats.contains(&ExploreFormat::Pretty) {
        write_pretty(&outcome.report, stdout, Palette::for_stdout())?;
    } else {
        writeln!(stdout, "{}", outcome.report.summary_line())?;
    }
    for written in &outcome.written {
        super::print_written(written, "");
    }
    super::print_wrote(&write_files(&outcome.report, &formats, out)?);
    if outcome.interrupted {
        return Ok(exit_code::INTERRUPTED);
    }
    Ok(outcome.report.exit_code())
}

/// Starts the implementations the flags name, for each phase of an
/// exploration.
struct CommandSides<'a> {
    implementation: &'a ImplementationArgs,
    against_cmd: Option<&'a str>,
    interrupted: &'a Arc<std::sync::atomic::AtomicBool>,
    /// The cancel flag of the exploring phase's processes (the
    /// exploration sets it when its time is spent, see
    /// `ExploreOptions::in_flight`); the reduction's stop on Ctrl-C only.
    exploring: &'a Arc<std::sync::atomic::AtomicBool>,
}

/// The started implementation under test and, with `--against-cmd`, the
/// other one.
struct StartedSides {
    subject: Subject,
    against: Option<Subject>,
}

impl StartSides for CommandSides<'_> {
    type Sides = StartedSides;
    type Error = anyhow::Error;

    fn start(&self, restarts: Option<usize>) -> anyhow::Result<StartedSides> {
        // Exploring keeps the implementations' own restart budget; a reduction raises it.
        let cancel = if restarts.is_none() { self.exploring } else { self.interrupted };
        let (subject, against) = start_both(self.implementation, self.against_cmd, restarts, cancel)?;
        Ok(StartedSides { subject, against })
    }
}

impl Sides for StartedSides {
    fn subject(&self) -> Party<'_> {
        party(&self.subject)
    }

    fn against(&self) -> Party<'_> {
        self.against.as_ref().map_or(Party::Reference, party)
    }

    fn finish(&self) {
        for side in std::iter::once(&self.subject).chain(&self.against) {
            side.implementation().finish();
            if let Some(external) = side.external() {
                external.print_notes();
            }
        }
    }
}

fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // Seeds people can type: below 2^32.
    (now.as_nanos() as u64 ^ u64::from(std::process::id())) & 0xFFFF_FFFF
}

/// Prints input `replay` (`SUITE#INDEX`) of the seed, drawn from `pools`
/// (kept to the in-contract seeds when `in_contract`).
fn replay_input(
    mut pools: Vec<SeedPool>,
    replay: &str,
    seed: u64,
    any_json: bool,
    in_contract: bool,
) -> anyhow::Result<i32> {
    if in_contract {
        conform::explore::keep_in_contract_seeds(&mut pools);
    }
    let (suite, index) = replay
        .split_once('#')
        .and_then(|(suite, index)| Some((suite, index.parse::<u64>().ok()?)))
        .with_context(|| format!("--replay `{replay}`: expected SUITE#INDEX (a suite name, `#`, an input number)"))?;
    let pool = pools
        .iter()
        .find(|pool| pool.suite.name() == suite)
        .with_context(|| format!("--replay `{replay}`: suite `{suite}` is not among the explored suites"))?;
    let generator = Generator { pool, seed, any_json, in_contract };
    match generator.generate(index) {
        Generated::Input(candidate) => {
            eprintln!(
                "seed {seed}, input {suite}#{index} from {} ({})",
                pool.seeds[candidate.seed].id, candidate.contract
            );
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
/// other one; `restarts` raises both restart budgets. The reductions start
/// them again (with `restarts`): their `implementation:` lines were printed
/// when the exploration started them, so they are not printed twice.
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
    let restarted = restarts.is_some();
    let subject = implementation.start(Arc::clone(interrupted), restarted)?;
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
            let started = external.start(Arc::clone(interrupted), restarted)?;
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
