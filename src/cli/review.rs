//! `conform review`.

use clap::Args;
use conform::error::exit_code;
use conform::review::find_pending;
use conform::review::session::{Script, review_interactively, write_listing};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// Folders or files to look for pending `*.json.new` fixtures in.
    #[arg(default_value = "fixtures")]
    paths: Vec<PathBuf>,
    /// Only list pending fixtures with their diffs; change nothing.
    #[arg(long)]
    list: bool,
    /// Like --list, but exit 1 when anything is pending (for CI).
    #[arg(long, conflicts_with = "list")]
    check: bool,
    /// Accept every pending fixture (refused when CI is set).
    #[arg(long, conflicts_with_all = ["reject_all", "list", "check"])]
    accept_all: bool,
    /// Reject (delete) every pending fixture.
    #[arg(long, conflicts_with_all = ["list", "check"])]
    reject_all: bool,
    /// Accept the pending fixtures whose id (`suite/name`) or path matches (repeatable).
    #[arg(long = "accept", value_name = "GLOB", conflicts_with_all = ["list", "check"])]
    accept_globs: Vec<String>,
    /// Reject the pending fixtures whose id or path matches (repeatable).
    #[arg(long = "reject", value_name = "GLOB", conflicts_with_all = ["list", "check"])]
    reject_globs: Vec<String>,
    /// Leave line diffs out (pointer-level differences only).
    #[arg(long)]
    no_diff: bool,
    /// Ask about each pending fixture even when stdin is not a terminal
    /// (answers are read line by line: a, r, s, A, R, q).
    #[arg(long, conflicts_with_all = ["list", "check", "accept_all", "reject_all"])]
    interactive: bool,
}

pub fn execute(args: ReviewArgs) -> anyhow::Result<i32> {
    if !args.check && !args.list {
        super::sweep_leftovers(&args.paths, true);
    }
    let pending = find_pending(&args.paths)?;
    let stdout = &mut std::io::stdout().lock();
    if pending.is_empty() {
        writeln!(stdout, "no pending fixtures under {}", join_paths(&args.paths))?;
        return Ok(exit_code::CONFORMANT);
    }
    if let Some(script) = Script::new(args.accept_all, args.reject_all, &args.accept_globs, &args.reject_globs)? {
        script.apply(&pending, stdout)?;
        return Ok(exit_code::CONFORMANT);
    }
    let interactive = args.interactive || (!args.list && !args.check && std::io::stdin().is_terminal());
    if !interactive {
        write_listing(&pending, args.no_diff, stdout)?;
        return Ok(if args.check { exit_code::FAILURES } else { exit_code::CONFORMANT });
    }
    review_interactively(&pending, args.no_diff, &mut std::io::stdin().lock(), stdout)?;
    Ok(exit_code::CONFORMANT)
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
