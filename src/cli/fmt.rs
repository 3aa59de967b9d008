//! `conform fmt`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::files::ShowPath;
use conform::fixture::discover;
use conform::fmt::{FmtStatus, format_files};

#[derive(Debug, Args)]
pub struct FmtArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Only report files that are not canonical; change nothing (exit 1 if any).
    #[arg(long)]
    check: bool,
}

pub fn execute(args: FmtArgs) -> anyhow::Result<i32> {
    let selection = args.fixtures.selection(None)?;
    if !args.check {
        super::sweep_leftovers(&args.fixtures.paths, true);
    }
    let mut discovery = discover(&args.fixtures.paths, &args.fixtures.suite_filter()?)?;
    super::print_notices(&discovery.notices);
    discovery.files.retain(|file| selection.matches(&file.id()));
    super::selection::require_some(discovery.files.len())?;
    let results = format_files(&discovery.files, args.check);
    let (mut canonical, mut changed, mut broken) = (0, 0, 0);
    for result in &results {
        match &result.status {
            FmtStatus::Canonical => canonical += 1,
            FmtStatus::Reformatted => {
                changed += 1;
                let verb = if args.check { "not canonical" } else { "reformatted" };
                println!("{verb}: {}", result.path.shown());
            }
            FmtStatus::Unparsable(err) => {
                broken += 1;
                super::error(format!("{err} (left untouched)"));
            }
            FmtStatus::WriteFailed(message) => {
                broken += 1;
                super::error(message);
            }
        }
    }
    let verb = if args.check { "would be reformatted" } else { "reformatted" };
    println!("{} files: {canonical} canonical, {changed} {verb}, {broken} unparsable", results.len());
    Ok(if broken > 0 {
        exit_code::CANNOT_JUDGE
    } else if args.check && changed > 0 {
        exit_code::FAILURES
    } else {
        exit_code::CONFORMANT
    })
}
