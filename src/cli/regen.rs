//! `conform regen`.

use super::review::write_fixture_change;
use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::regen::{RegenStatus, RegenSummary, regenerate, write_drifted};
use conform::review::{WriteMode, Written, running_in_ci};
use std::collections::BTreeMap;
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
    let mut without_reference: BTreeMap<&str, usize> = BTreeMap::new();
    for result in &results {
        for note in &result.notes {
            writeln!(stdout, "warning {}: not portable: {note}", result.id)?;
        }
        match &result.status {
            RegenStatus::Clean => {}
            RegenStatus::Drifted(drift) => {
                let count = drift.differences.len() + drift.omitted;
                writeln!(stdout, "drifted {} ({}): {count} differences", result.id, result.path.display())?;
                write_fixture_change(stdout, &drift.differences, drift.omitted, &drift.hunks, args.no_diff)?;
            }
            RegenStatus::NoReference => *without_reference.entry(result.suite).or_default() += 1,
            RegenStatus::Unimplemented { found } => {
                writeln!(stdout, "not checked {}: the reference does not implement fixtureVersion {found}", result.id)?;
            }
            RegenStatus::ReferenceFailed(message) => {
                writeln!(stdout, "error {}: the reference failed: {message}", result.id)?;
            }
            RegenStatus::Invalid(problems) => {
                for problem in problems {
                    writeln!(stdout, "invalid {}: {problem}", result.id)?;
                }
            }
            RegenStatus::UnsupportedVersion { found } => {
                writeln!(stdout, "invalid {}: fixtureVersion {found} is not supported; not regenerated", result.id)?;
            }
        }
    }
    for (suite, count) in &without_reference {
        writeln!(stdout, "not checked: {count} {suite} fixtures (suite {suite} has no reference implementation)")?;
    }
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
