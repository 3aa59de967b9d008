//! `conform run`.

use super::implementation::{External, ImplementationArgs};
use super::selection::FixtureArgs;
use clap::{Args, ValueEnum};
use conform::baseline::Baseline;
use conform::error::exit_code;
use conform::fixture::{Notice, NoticeLevel};
use conform::report::{DEFAULT_MARKDOWN_LIMIT, Format, JunitOptions, Palette, Partition, PrettyOptions, Progress};
use conform::run::session::{RunSession, report_formats};
use conform::run::{BaselineOptions, RunConsumer, RunEvent, parse_partition};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Report format (repeatable): pretty goes to stdout, the others to files in --out, the JSON report always
    /// among them (baseline, compare and report merge read it) [default: pretty, json].
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    formats: Vec<FormatChoice>,
    /// Folder for report files.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Parallel workers (0 = one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// List every case: passing ones too, and each skipped, unsupported or repeated failure (the terminal folds those).
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Leave line diffs out of the terminal report.
    #[arg(long)]
    no_diff: bool,
    /// Exit 0 even when no case was judged (every case skipped or unsupported).
    #[arg(long)]
    allow_no_judged: bool,
    /// Most characters of the Markdown report (a GitHub comment holds 65,536): the summary, clusters and first failures stay whole, the rest one line each.
    #[arg(long, value_name = "CHARS", default_value_t = DEFAULT_MARKDOWN_LIMIT)]
    markdown_limit: usize,
    /// Add file="FIXTURE PATH" to each JUnit testcase, for annotation tools (junit-10.xsd does not allow it).
    #[arg(long)]
    junit_testcase_file: bool,
    /// Known-failures file (TOML): listed failures are xfail, listed passes xpass.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Run only shard K of N (stable hash of the fixture id), e.g. 2/3.
    #[arg(long, value_name = "K/N")]
    partition: Option<String>,
    /// No progress display on stderr (it shows on a terminal once a run takes a second, elsewhere every few seconds).
    #[arg(long)]
    no_progress: bool,
    /// No progress display, and no `note:`, `implementation:` or `wrote` lines on stderr (warnings and errors still show).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// The day baseline expiry dates are checked against [default: today, UTC].
    #[arg(long, value_name = "YYYY-MM-DD", hide = true)]
    today: Option<chrono::NaiveDate>,
    /// Keep what the implementation prints (stderr, error messages) as it is in every report, secrets included: for local debugging only, never for a report you publish.
    #[arg(long)]
    keep_printed_secrets: bool,
    #[command(flatten)]
    implementation: ImplementationArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatChoice {
    Pretty,
    Json,
    Junit,
    Markdown,
    Html,
}

impl From<FormatChoice> for Format {
    fn from(choice: FormatChoice) -> Self {
        match choice {
            FormatChoice::Pretty => Format::Pretty,
            FormatChoice::Json => Format::Json,
            FormatChoice::Junit => Format::Junit,
            FormatChoice::Markdown => Format::Markdown,
            FormatChoice::Html => Format::Html,
        }
    }
}

/// What the command line shows on stderr while a run goes: the notices of
/// fixtures as they are read, and the progress display.
struct Stderr {
    progress: Option<Progress>,
    quiet: bool,
    /// Notices printed so far (the plan's, then the cases'): the report's
    /// notices after those are the run's own, printed at its end.
    printed: usize,
}

impl RunConsumer for Stderr {
    fn handle(&mut self, event: &RunEvent<'_>) {
        if let RunEvent::CaseFinished { notices, .. } = event {
            self.printed += notices.len();
            let shown: Vec<Notice> =
                notices.iter().filter(|notice| !(self.quiet && notice.level == NoticeLevel::Note)).cloned().collect();
            if !shown.is_empty() {
                match &self.progress {
                    Some(progress) => progress.suspend(|| super::print_notices(&shown)),
                    None => super::print_notices(&shown),
                }
            }
        }
        if let Some(progress) = &mut self.progress {
            progress.handle(event);
        }
    }
}

pub fn execute(args: RunArgs) -> anyhow::Result<i32> {
    conform::redact::printed::keep_printed_secrets(args.keep_printed_secrets);
    let partition = args.partition.as_deref().map(parse_partition).transpose()?;
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    // The whole selection first (every shard's), then this run's share of it: the report records both, so
    // `report merge` can tell whether shards add up to one selection.
    let selected = args.fixtures.plan(None)?;
    print_shown(&selected.plan.notices, args.quiet);
    selected.require_some()?;
    let interrupted = super::interrupt::flag();
    let subject = args.implementation.start(Arc::clone(&interrupted), args.quiet)?;
    let session = args.session(partition, baseline.as_ref(), &interrupted);
    let hello = subject.external().and_then(External::hello);
    let ready = session.prepare(selected.plan, selected.indexes, hello.as_ref());
    print_shown(&ready.notices, args.quiet);
    super::sweep_leftovers(std::slice::from_ref(&args.out), false);
    let mut stderr = Stderr {
        progress: (!args.quiet && !args.no_progress).then(Progress::stderr),
        quiet: args.quiet,
        printed: ready.plan.notices.len(),
    };
    let mut finished = ready.run(subject.implementation(), &session, &mut stderr);
    if let Some(external) = subject.external() {
        external.print_notes();
    }
    print_shown(finished.notices_after(stderr.printed), args.quiet);
    let pretty = PrettyOptions { palette: Palette::for_stdout(), verbose: args.verbose, no_diff: args.no_diff };
    finished.write_terminal(&session, &mut std::io::stdout().lock(), &pretty)?;
    let files = finished.write_files(&session);
    if !args.quiet {
        super::print_wrote(&files.written);
    }
    if !files.failed.is_empty() {
        files.failed.iter().for_each(super::error);
        return Ok(exit_code::CANNOT_JUDGE);
    }
    let (code, error) = finished.exit_code(super::interrupt::interrupted(&interrupted), args.allow_no_judged);
    error.into_iter().for_each(super::error);
    Ok(code)
}

impl RunArgs {
    /// The session the flags ask for.
    fn session<'a>(
        &'a self,
        partition: Option<Partition>,
        baseline: Option<&'a Baseline>,
        interrupted: &'a AtomicBool,
    ) -> RunSession<'a> {
        let today = self.today.unwrap_or_else(|| chrono::Utc::now().date_naive());
        let asked: Vec<Format> = self.formats.iter().copied().map(Format::from).collect();
        RunSession {
            formats: report_formats(&asked),
            out: &self.out,
            verbose: self.verbose,
            markdown_limit: self.markdown_limit,
            junit: JunitOptions { testcase_file: self.junit_testcase_file },
            jobs: self.jobs,
            paths: &self.fixtures.paths,
            suites: &self.fixtures.suites,
            filters: &self.fixtures.filters,
            partition,
            cancel: Some(interrupted),
            baseline: baseline.map(|baseline| BaselineOptions { baseline, today }),
        }
    }
}

/// Prints `notices`, but no `note:` when quiet.
fn print_shown(notices: &[Notice], quiet: bool) {
    let shown: Vec<Notice> =
        notices.iter().filter(|notice| !(quiet && notice.level == NoticeLevel::Note)).cloned().collect();
    super::print_notices(&shown);
}
