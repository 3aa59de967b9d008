//! `conform run`.

use super::implementation::{External, ImplementationArgs};
use super::selection::FixtureArgs;
use clap::{Args, ValueEnum};
use conform::baseline::Baseline;
use conform::error::exit_code;
use conform::fixture::{Notice, NoticeLevel};
use conform::report::{
    DEFAULT_MARKDOWN_LIMIT, FileOptions, Format, JsonStream, JunitOptions, Palette, PrettyOptions, Progress,
    visible_controls, write_files, write_pretty,
};
use conform::run::{
    BaselineOptions, Keep, RunConsumer, RunEvent, RunOptions, in_partition, keep_declared_suites, parse_partition, run,
    summarize_selection,
};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

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
    let mut selected = args.fixtures.plan(None)?;
    let shown: Vec<Notice> = selected
        .plan
        .notices
        .iter()
        .filter(|notice| !(args.quiet && notice.level == NoticeLevel::Note))
        .cloned()
        .collect();
    super::print_notices(&shown);
    selected.require_some()?;
    let mut formats: Vec<Format> = args.formats.iter().copied().map(Format::from).collect();
    if formats.is_empty() {
        formats = vec![Format::Pretty, Format::Json];
    }
    // The JSON report is the run's record, which `baseline write`, `compare` and `report merge` read: a run that
    // writes report files writes it too, so none of them can read an older run's by mistake.
    if formats.iter().any(|format| format.file_name().is_some()) && !formats.contains(&Format::Json) {
        formats.push(Format::Json);
    }
    // Only reports that list every case need the passing ones kept.
    let lists_every_case =
        args.verbose || formats.iter().any(|format| matches!(format, Format::Junit | Format::Markdown | Format::Html));
    let interrupted = super::interrupt::flag();
    let subject = args.implementation.start(Arc::clone(&interrupted), args.quiet)?;
    // A team that implements some suites gets reports of those: the others could only be `unsupported`.
    if args.fixtures.suites.is_empty()
        && let Some(hello) = subject.external().and_then(External::hello)
    {
        let left_out =
            keep_declared_suites(selected.plan.ids(), &mut selected.indexes, |suite| hello.versions(suite).is_some());
        if !left_out.is_empty() && !args.quiet {
            let listed: Vec<String> = left_out
                .iter()
                .map(|(suite, count)| format!("{suite} ({count} {})", if *count == 1 { "fixture" } else { "fixtures" }))
                .collect();
            super::note(format!(
                "running the suites the implementation declares ({}); left out, since every case of theirs would be \
                 `unsupported`: {} (name them with --suite to run them anyway)",
                visible_controls(&hello.suite_list()),
                listed.join(", ")
            ));
        }
    }
    // An empty shard is normal when a small corpus is split many ways.
    let whole: Vec<&str> = selected.indexes.iter().map(|&index| selected.plan.id(index)).collect();
    let share: Vec<usize> =
        selected.indexes.iter().copied().filter(|&index| in_partition(selected.plan.id(index), partition)).collect();
    let selection =
        summarize_selection(&args.fixtures.paths, &args.fixtures.suites, &args.fixtures.filters, &whole, share.len());
    drop(whole);
    selected.indexes = share;
    super::sweep_leftovers(std::slice::from_ref(&args.out), false);
    let today = args.today.unwrap_or_else(|| chrono::Utc::now().date_naive());
    let options = RunOptions {
        jobs: args.jobs,
        paths: args.fixtures.paths.clone(),
        partition,
        selection: Some(selection),
        cancel: Some(&interrupted),
        baseline: baseline.as_ref().map(|baseline| BaselineOptions { baseline, today }),
        keep: if lists_every_case { Keep::All } else { Keep::NotPassed },
    };
    let json_path =
        Format::Json.file_name().map(|name| args.out.join(name)).filter(|_| formats.contains(&Format::Json));
    let mut json = json_path.as_deref().map(JsonStream::new);
    let mut stderr = Stderr {
        progress: (!args.quiet && !args.no_progress).then(Progress::stderr),
        quiet: args.quiet,
        printed: selected.plan.notices.len(),
    };
    let report = {
        let mut consumers: Vec<&mut dyn RunConsumer> = vec![&mut stderr];
        if let Some(json) = json.as_mut() {
            consumers.push(json);
        }
        run(&selected.plan, &selected.indexes, subject.implementation(), &options, &mut consumers)
    };
    drop(selected);
    if let Some(external) = subject.external() {
        external.print_notes();
    }
    // What the run itself found at its end (a baseline written for another implementation, an interruption).
    let run_notices: Vec<Notice> = report.notices[stderr.printed.min(report.notices.len())..]
        .iter()
        .filter(|notice| !(args.quiet && notice.level == NoticeLevel::Note))
        .cloned()
        .collect();
    super::print_notices(&run_notices);

    let stdout = &mut std::io::stdout().lock();
    if formats.contains(&Format::Pretty) {
        let options = PrettyOptions { palette: Palette::for_stdout(), verbose: args.verbose, no_diff: args.no_diff };
        write_pretty(&report, stdout, &options)?;
    } else {
        writeln!(stdout, "{}", report.summary.summary_line())?;
    }
    let file_options = FileOptions {
        markdown_limit: args.markdown_limit,
        junit: JunitOptions { testcase_file: args.junit_testcase_file },
        json_streamed: json.is_some(),
    };
    // The JSON report was written as the run went; the others come from the report.
    // Every report is attempted and every failure named: on a full disk each file it cost is said.
    let mut files = write_files(&report, &formats, &args.out, &file_options);
    if let Some(json) = json.take() {
        match json.finish() {
            Ok(path) => {
                let position = formats.iter().filter(|f| f.file_name().is_some()).position(|f| *f == Format::Json);
                files.written.insert(position.unwrap_or(0).min(files.written.len()), path);
            }
            // First: it is the run's record, which `baseline write`, `compare` and `report merge` read.
            Err(err) => files.failed.insert(0, err),
        }
    }
    if !args.quiet {
        super::print_wrote(&files.written);
    }
    if !files.failed.is_empty() {
        files.failed.iter().for_each(super::error);
        return Ok(exit_code::CANNOT_JUDGE);
    }
    if super::interrupt::interrupted(&interrupted) {
        return Ok(exit_code::INTERRUPTED);
    }
    if let Some(reason) = report.nothing_judged().filter(|_| !args.allow_no_judged) {
        super::error(reason);
        return Ok(report.exit_code().max(exit_code::FAILURES));
    }
    Ok(report.exit_code())
}
