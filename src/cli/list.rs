//! `conform list`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::files::{ShowPath, one_line};
use conform::fixture::{Notice, discover};
use std::io::Write;

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Print the file path after each id (tab-separated).
    #[arg(long)]
    paths_too: bool,
}

/// Lists what discovery finds, without loading it, so a broken fixture is
/// still listed.
pub fn execute(args: ListArgs) -> anyhow::Result<i32> {
    let selection = args.fixtures.selection(None)?;
    let discovery = discover(&args.fixtures.paths, &args.fixtures.suite_filter()?)?;
    super::print_notices(&discovery.notices);
    let selected: Vec<_> = discovery.files.iter().filter(|file| selection.matches(&file.id())).collect();
    super::selection::require_some(selected.len())?;
    let stdout = &mut std::io::stdout().lock();
    for file in selected {
        // A file name holding a newline must not split its line.
        let id = file.id();
        let id = one_line(&id);
        if args.paths_too {
            writeln!(stdout, "{id}\t{}", file.path.shown())?;
        } else {
            writeln!(stdout, "{id}")?;
        }
    }
    Ok(if discovery.notices.iter().any(Notice::is_error) { exit_code::CANNOT_JUDGE } else { exit_code::CONFORMANT })
}
