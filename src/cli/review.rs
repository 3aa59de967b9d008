//! `conform review`.

use anyhow::Context;
use clap::Args;
use conform::error::exit_code;
use conform::report::visible_controls;
use conform::review::{
    Change, PendingFixture, ReviewError, accept, changed_lines, describe, find_pending, reject, running_in_ci,
    write_fixture_change,
};
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// Longest description shown for a new fixture, in characters.
const MAX_DESCRIPTION_CHARS: usize = 240;
/// Longest line of a new fixture's preview.
const MAX_PREVIEW_LINE_CHARS: usize = 200;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Accept,
    Reject,
    Skip,
}

pub fn execute(args: ReviewArgs) -> anyhow::Result<i32> {
    if !args.check && !args.list {
        super::sweep_leftovers(&args.paths, true);
    }
    let pending = find_pending(&args.paths)?;
    if pending.is_empty() {
        println!("no pending fixtures under {}", join_paths(&args.paths));
        return Ok(exit_code::CONFORMANT);
    }
    let accepting = args.accept_all || !args.accept_globs.is_empty();
    let scripted = accepting || args.reject_all || !args.reject_globs.is_empty();
    if accepting && running_in_ci() {
        return Err(ReviewError::AcceptInCi.into());
    }
    if scripted {
        let accept_set = glob_set(&args.accept_globs)?;
        let reject_set = glob_set(&args.reject_globs)?;
        let mut outcome = Outcome::default();
        for item in &pending {
            let decision = if args.accept_all || matches(&accept_set, item) {
                Decision::Accept
            } else if args.reject_all || matches(&reject_set, item) {
                Decision::Reject
            } else {
                Decision::Skip
            };
            outcome.apply(item, decision)?;
        }
        return Ok(outcome.finish());
    }
    let interactive = args.interactive || (!args.list && !args.check && std::io::stdin().is_terminal());
    if !interactive {
        for item in &pending {
            print_pending(item, args.no_diff)?;
        }
        println!(
            "{} pending; accept or reject with `conform review --accept GLOB | --reject GLOB | --accept-all | --reject-all`",
            pending.len()
        );
        return Ok(if args.check { exit_code::FAILURES } else { exit_code::CONFORMANT });
    }
    review_interactively(&pending, args.no_diff)
}

#[derive(Default)]
struct Outcome {
    accepted: usize,
    rejected: usize,
    skipped: usize,
}

impl Outcome {
    fn apply(&mut self, item: &PendingFixture, decision: Decision) -> anyhow::Result<()> {
        match decision {
            Decision::Accept => {
                accept(item)?;
                self.accepted += 1;
                println!("accepted {}", item.target.display());
            }
            Decision::Reject => {
                reject(item)?;
                self.rejected += 1;
                println!("rejected {}", item.pending.display());
            }
            Decision::Skip => self.skipped += 1,
        }
        Ok(())
    }

    fn finish(&self) -> i32 {
        println!("{} accepted, {} rejected, {} still pending", self.accepted, self.rejected, self.skipped);
        exit_code::CONFORMANT
    }
}

fn review_interactively(pending: &[PendingFixture], no_diff: bool) -> anyhow::Result<i32> {
    let mut outcome = Outcome::default();
    let mut all: Option<Decision> = None;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    for (index, item) in pending.iter().enumerate() {
        let decision = match all {
            Some(decision) => decision,
            None => {
                print_pending(item, no_diff)?;
                loop {
                    print!(
                        "[{}/{}] {}: [a]ccept, [r]eject, [s]kip, [A]ccept all, [R]eject all, [q]uit? ",
                        index + 1,
                        pending.len(),
                        item.id()
                    );
                    std::io::stdout().flush()?;
                    let Some(answer) = lines.next().transpose().context("cannot read the answer")? else {
                        return Ok(outcome.finish_with_rest(pending.len() - index));
                    };
                    let decision = match answer.trim() {
                        "a" => Decision::Accept,
                        "r" => Decision::Reject,
                        "s" | "" => Decision::Skip,
                        "A" => {
                            all = Some(Decision::Accept);
                            Decision::Accept
                        }
                        "R" => {
                            all = Some(Decision::Reject);
                            Decision::Reject
                        }
                        "q" => return Ok(outcome.finish_with_rest(pending.len() - index)),
                        _ => continue,
                    };
                    if decision == Decision::Accept && running_in_ci() {
                        return Err(ReviewError::AcceptInCi.into());
                    }
                    break decision;
                }
            }
        };
        outcome.apply(item, decision)?;
    }
    Ok(outcome.finish())
}

impl Outcome {
    fn finish_with_rest(&mut self, rest: usize) -> i32 {
        self.skipped += rest;
        self.finish()
    }
}

fn print_pending(item: &PendingFixture, no_diff: bool) -> anyhow::Result<()> {
    let stdout = &mut std::io::stdout().lock();
    match describe(item)? {
        Change::New { lines, description, head } => {
            writeln!(stdout, "new       {} ({lines} lines)", item.pending.display())?;
            if let Some(description) = description {
                writeln!(stdout, "  {}", shorten(&description, MAX_DESCRIPTION_CHARS))?;
            }
            if !no_diff {
                for line in &head {
                    writeln!(stdout, "    + {}", visible_controls(&shorten(line, MAX_PREVIEW_LINE_CHARS)))?;
                }
                if lines > head.len() {
                    writeln!(stdout, "    … {} more lines in {}", lines - head.len(), item.pending.display())?;
                }
            }
        }
        Change::Identical => {
            writeln!(stdout, "identical {} (accepting changes nothing)", item.pending.display())?;
        }
        Change::Modified { differences, omitted, hunks } => {
            let (removed, added) = changed_lines(&hunks);
            writeln!(
                stdout,
                "changed   {} → {} ({} differences, -{removed} +{added} lines)",
                item.pending.display(),
                item.target.display(),
                differences.len() + omitted
            )?;
            write_fixture_change(stdout, &differences, omitted, &hunks, no_diff)?;
        }
    }
    Ok(())
}

/// `text` cut to `max` characters, with `…` when it was longer.
fn shorten(text: &str, max: usize) -> String {
    let short: String = text.chars().take(max).collect();
    if short.len() < text.len() { format!("{short}…") } else { short }
}

fn glob_set(patterns: &[String]) -> anyhow::Result<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        builder.add(Glob::new(pattern).with_context(|| format!("invalid glob {pattern:?}"))?);
    }
    Ok(builder.build()?)
}

fn matches(set: &GlobSet, item: &PendingFixture) -> bool {
    set.is_match(item.id()) || set.is_match(&item.target) || set.is_match(&item.pending)
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
