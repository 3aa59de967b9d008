//! `conform run`.

use super::implementation::ImplementationArgs;
use super::selection::FixtureArgs;
use clap::{Args, ValueEnum};
use conform::baseline::{Baseline, KnownFixtures, apply};
use conform::error::exit_code;
use conform::report::{
    DEFAULT_MARKDOWN_LIMIT, FileOptions, Format, JunitOptions, Palette, PrettyOptions, write_files, write_pretty,
};
use conform::run::{RunOptions, parse_partition, run};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Report format (repeatable): pretty goes to stdout, the others to files in --out [default: pretty, json].
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
    /// The day baseline expiry dates are checked against [default: today, UTC].
    #[arg(long, value_name = "YYYY-MM-DD", hide = true)]
    today: Option<chrono::NaiveDate>,
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

pub fn execute(args: RunArgs) -> anyhow::Result<i32> {
    let partition = args.partition.as_deref().map(parse_partition).transpose()?;
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let selected = args.fixtures.load(partition)?;
    super::print_notices(&selected.corpus.notices);
    // An empty shard is normal when a small corpus is split many ways.
    if partition.is_none() {
        selected.require_some()?;
    }
    let interrupted = super::interrupt::flag();
    let subject = args.implementation.start(Arc::clone(&interrupted))?;
    let options =
        RunOptions { jobs: args.jobs, paths: args.fixtures.paths.clone(), partition, cancel: Some(&interrupted) };
    let mut report = run(&selected.corpus, &selected.indexes, subject.implementation(), &options);
    if let Some(external) = subject.external() {
        external.print_notes();
    }
    if let Some(baseline) = &baseline {
        let today = args.today.unwrap_or_else(|| chrono::Utc::now().date_naive());
        apply(&mut report, baseline, &KnownFixtures::of_corpus(&selected.corpus), today);
    }

    let mut formats: Vec<Format> = args.formats.iter().copied().map(Format::from).collect();
    if formats.is_empty() {
        formats = vec![Format::Pretty, Format::Json];
    }
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
    };
    super::sweep_leftovers(std::slice::from_ref(&args.out), false);
    super::print_wrote(&write_files(&report, &formats, &args.out, &file_options)?);
    if super::interrupt::interrupted(&interrupted) {
        return Ok(exit_code::INTERRUPTED);
    }
    if let Some(reason) = report.nothing_judged().filter(|_| !args.allow_no_judged) {
        super::error(reason);
        return Ok(report.exit_code().max(exit_code::FAILURES));
    }
    Ok(report.exit_code())
}
