//! `conform upgrade --to N`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::error::exit_code;
use conform::review::{WriteMode, Written, running_in_ci};
use conform::upgrade::{NotUpgraded, UpgradeStatus, UpgradeSummary, upgrade, write_results, write_upgraded};
use std::io::Write;

#[derive(Debug, Args)]
pub struct UpgradeArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// The fixtureVersion to move the fixtures to.
    #[arg(long = "to", value_name = "VERSION", value_parser = clap::value_parser!(u32).range(2..))]
    to: u32,
    /// Write nothing; list what would change.
    #[arg(long)]
    check: bool,
    /// Rewrite the fixtures in place instead of writing NAME.json.new (refused when CI is set).
    #[arg(long, conflicts_with = "check")]
    accept: bool,
}

pub fn execute(args: UpgradeArgs) -> anyhow::Result<i32> {
    let mode = WriteMode::from_accept_flag(args.accept, running_in_ci())?;
    if !args.check {
        super::sweep_leftovers(&args.fixtures.paths, true);
    }
    let selected = args.fixtures.load(None)?;
    super::print_notices(&selected.corpus.notices);
    selected.require_some()?;
    let target = args.to;
    let results = upgrade(&selected.corpus, &selected.indexes, target);
    let stdout = &mut std::io::stdout().lock();
    write_results(stdout, &results, target)?;
    if !args.check {
        for written in write_upgraded(&results, mode)? {
            if !matches!(written, Written::Unchanged(_)) {
                super::print_written(&written, "");
            }
        }
    }
    let summary = UpgradeSummary::of(&results);
    writeln!(stdout, "{}", summary.line(target))?;
    if !args.check && summary.upgraded + summary.recomputed > 0 && mode == WriteMode::Pending {
        writeln!(stdout, "review the pending files with `conform review`")?;
    }
    let invalid =
        results.iter().any(|result| matches!(result.status, UpgradeStatus::NotUpgraded(NotUpgraded::Invalid(_))));
    Ok(if invalid { exit_code::CANNOT_JUDGE } else { exit_code::CONFORMANT })
}
