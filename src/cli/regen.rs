//! `conform regen`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::regen::{RegenSummary, regenerate, write_drifted, write_results};
use conform::review::{WriteMode, Written, running_in_ci};
use std::io::Write;

#[derive(Debug, Args)]
pub struct RegenArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Write nothing; list every drifted fixture with its differences and exit 1 if any drifted.
    #[arg(long)]
    check: bool,
    /// Rewrite drifted fixtures in place instead of writing NAME.json.new (refused when CI is set).
    #[arg(long, conflicts_with = "check")]
    accept: bool,
    /// Leave line diffs out (pointer-level differences only).
    #[arg(long)]
    no_diff: bool,
}

pub fn execute(args: RegenArgs) -> anyhow::Result<i32> {
    let mode = WriteMode::from_accept_flag(args.accept, running_in_ci())?;
    if !args.check {
        super::sweep_leftovers(&args.fixtures.paths, true);
    }
    let selected = args.fixtures.load(None)?;
    super::print_notices(&selected.corpus.notices);
    selected.require_some()?;
    let results = regenerate(&selected.corpus, &selected.indexes);
    let stdout = &mut std::io::stdout().lock();
    write_results(stdout, &results, args.no_diff)?;
    if !args.check {
        for written in write_drifted(&results, mode)? {
            if !matches!(written, Written::Unchanged(_)) {
                super::print_written(&written, "");
            }
        }
    }
    let summary = RegenSummary::of(&results);
    writeln!(stdout, "{}", summary.line())?;
    if !args.check && summary.drifted > 0 && mode == WriteMode::Pending {
        writeln!(stdout, "review the pending files with `conform review`")?;
    }
    Ok(if summary.invalid > 0 {
        exit_code::CANNOT_JUDGE
    } else if summary.failed > 0 || (args.check && summary.drifted > 0) {
        exit_code::FAILURES
    } else {
        exit_code::CONFORMANT
    })
}
