//! `conform run`.

use clap::{Args, ValueEnum};
use conform::baseline::{Baseline, KnownFixtures, apply};
use conform::error::exit_code;
use conform::fixture::{SuiteFilter, load_corpus};
use conform::implementation::{Implementation, ReferenceImplementation};
use conform::report::{Format, Palette, PrettyOptions, write_files, write_pretty};
use conform::run::{RunOptions, Selection, parse_partition, run, select};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Fixture trees, suite folders or fixture files.
    #[arg(default_value = "fixtures")]
    paths: Vec<PathBuf>,
    /// Only these suites (repeatable).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<String>,
    /// Only fixtures whose id (`suite/name`) matches this glob (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    /// The implementation to judge.
    #[arg(long = "impl", value_enum, default_value_t = ImplChoice::Reference)]
    implementation: ImplChoice,
    /// Report formats (repeatable): pretty goes to stdout, the others to files in --out. Default: pretty and json.
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    formats: Vec<FormatChoice>,
    /// Folder for report files.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Parallel workers (0 = one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    jobs: usize,
    /// Also list passing cases.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Leave line diffs out of the terminal report.
    #[arg(long)]
    no_diff: bool,
    /// Known-failures file (TOML): listed failures are xfail, listed passes xpass.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Run only shard K of N (stable hash of the fixture id), e.g. 2/3.
    #[arg(long, value_name = "K/N")]
    partition: Option<String>,
    /// The day baseline expiry dates are checked against (default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD", hide = true)]
    today: Option<chrono::NaiveDate>,
    #[command(flatten)]
    external: super::impl_cmd::ExternalArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ImplChoice {
    /// The built-in reference implementation.
    Reference,
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
    let filter = SuiteFilter::new(&args.suites)?;
    let partition = args.partition.as_deref().map(parse_partition).transpose()?;
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let selection = Selection::new(&args.filters)?.with_partition(partition);
    let corpus = load_corpus(&args.paths, &filter)?;
    super::print_notices(&corpus.notices);
    let selected = select(&corpus, &selection);
    // An empty shard is normal when a small corpus is split many ways.
    if selected.is_empty() && partition.is_none() {
        eprintln!("error: no fixtures match the given --suite/--filter options");
        return Ok(exit_code::CANNOT_JUDGE);
    }
    let interrupted = super::interrupt::flag();
    let external = args.external.start(Arc::clone(&interrupted))?;
    let implementation: &dyn Implementation = match (&external, args.implementation) {
        (Some(external), _) => external.implementation(),
        (None, ImplChoice::Reference) => &ReferenceImplementation,
    };
    let options = RunOptions { jobs: args.jobs, paths: args.paths.clone(), partition, cancel: Some(&interrupted) };
    let mut report = run(&corpus, &selected, implementation, &options);
    if let Some(external) = &external {
        external.print_notes();
    }
    if let Some(baseline) = &baseline {
        let today = args.today.unwrap_or_else(|| chrono::Utc::now().date_naive());
        apply(&mut report, baseline, &KnownFixtures::of_corpus(&corpus), today);
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
        use std::io::Write;
        writeln!(stdout, "{}", report.summary.summary_line())?;
    }
    for path in write_files(&report, &formats, &args.out)? {
        eprintln!("wrote {}", path.display());
    }
    if super::interrupt::interrupted(&interrupted) {
        return Ok(exit_code::INTERRUPTED);
    }
    Ok(report.exit_code())
}
