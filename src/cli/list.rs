//! `conform list`.

use clap::Args;
use conform::fixture::{SuiteFilter, discover, file_stem};
use conform::run::Selection;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Fixture trees, suite folders or fixture files.
    #[arg(default_value = "fixtures")]
    paths: Vec<PathBuf>,
    /// Only these suites (repeatable).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<String>,
    /// Only fixtures whose id matches this glob (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    /// Print the file path after each id (tab-separated).
    #[arg(long)]
    paths_too: bool,
}

pub fn execute(args: ListArgs) -> anyhow::Result<i32> {
    let filter = SuiteFilter::new(&args.suites)?;
    let selection = Selection::new(&args.filters)?;
    let discovery = discover(&args.paths, &filter)?;
    super::print_notices(&discovery.notices);
    let stdout = &mut std::io::stdout().lock();
    for file in &discovery.files {
        let id = format!("{}/{}", file.suite.name(), file_stem(&file.path));
        if !selection.matches(&id) {
            continue;
        }
        if args.paths_too {
            writeln!(stdout, "{id}\t{}", file.path.display())?;
        } else {
            writeln!(stdout, "{id}")?;
        }
    }
    let has_errors = discovery.notices.iter().any(|n| n.level == conform::fixture::NoticeLevel::Error);
    Ok(if has_errors { conform::error::exit_code::CANNOT_JUDGE } else { conform::error::exit_code::CONFORMANT })
}
