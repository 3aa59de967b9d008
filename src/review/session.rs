//! One `conform review` over the pending fixtures found: decided by the
//! flags ([`Script`]), listed ([`write_listing`]), or asked about one at a
//! time ([`review_interactively`]). What it says goes to the writer given;
//! the binary chooses which, and the exit code.

use super::write_fixture_change;
use super::{Change, PendingFixture, ReviewError, accept, changed_lines, describe, reject, running_in_ci};
use crate::report::visible_controls;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::io::{BufRead, Write};

/// Longest description shown for a new fixture, in characters.
const MAX_DESCRIPTION_CHARS: usize = 240;
/// Longest line of a new fixture's preview.
const MAX_PREVIEW_LINE_CHARS: usize = 200;

/// What becomes of one pending fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It replaces its target.
    Accept,
    /// It is deleted.
    Reject,
    /// It stays pending.
    Skip,
}

/// The decisions the flags script: accept or reject everything, or the
/// fixtures whose id or path matches a glob.
#[derive(Debug)]
pub struct Script {
    accept_all: bool,
    reject_all: bool,
    accept: GlobSet,
    reject: GlobSet,
}

impl Script {
    /// The script of these flags, `None` when they script nothing (then the
    /// review lists or asks). Accepting is refused while `CI` is set.
    pub fn new(
        accept_all: bool,
        reject_all: bool,
        accept_globs: &[String],
        reject_globs: &[String],
    ) -> Result<Option<Script>, ReviewError> {
        let accepting = accept_all || !accept_globs.is_empty();
        if !accepting && !reject_all && reject_globs.is_empty() {
            return Ok(None);
        }
        if accepting && running_in_ci() {
            return Err(ReviewError::AcceptInCi);
        }
        Ok(Some(Script { accept_all, reject_all, accept: glob_set(accept_globs)?, reject: glob_set(reject_globs)? }))
    }

    /// What the script decides for `item`: accepting wins over rejecting.
    pub fn decide(&self, item: &PendingFixture) -> Decision {
        if self.accept_all || matches(&self.accept, item) {
            Decision::Accept
        } else if self.reject_all || matches(&self.reject, item) {
            Decision::Reject
        } else {
            Decision::Skip
        }
    }

    /// Applies the script to every pending fixture, saying what it did and,
    /// at the end, the counts.
    pub fn apply(&self, pending: &[PendingFixture], out: &mut dyn Write) -> Result<Tally, ReviewError> {
        let mut tally = Tally::default();
        for item in pending {
            tally.apply(item, self.decide(item), out)?;
        }
        tally.write_summary(out)?;
        Ok(tally)
    }
}

fn glob_set(patterns: &[String]) -> Result<GlobSet, ReviewError> {
    let bad = |pattern: &str, err: globset::Error| ReviewError::BadGlob {
        pattern: pattern.to_owned(),
        message: err.to_string(),
    };
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        builder.add(Glob::new(pattern).map_err(|err| bad(pattern, err))?);
    }
    builder.build().map_err(|err| bad(&patterns.join(" "), err))
}

fn matches(set: &GlobSet, item: &PendingFixture) -> bool {
    set.is_match(item.id()) || set.is_match(&item.target) || set.is_match(&item.pending)
}

/// How many pending fixtures a review accepted, rejected and left pending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Accepted.
    pub accepted: usize,
    /// Rejected.
    pub rejected: usize,
    /// Still pending.
    pub skipped: usize,
}

impl Tally {
    /// Carries out `decision` on `item` and says so (`accepted PATH`,
    /// `rejected PATH`).
    pub fn apply(&mut self, item: &PendingFixture, decision: Decision, out: &mut dyn Write) -> Result<(), ReviewError> {
        match decision {
            Decision::Accept => {
                accept(item)?;
                self.accepted += 1;
                writeln!(out, "accepted {}", item.target.display()).map_err(ReviewError::Output)?;
            }
            Decision::Reject => {
                reject(item)?;
                self.rejected += 1;
                writeln!(out, "rejected {}", item.pending.display()).map_err(ReviewError::Output)?;
            }
            Decision::Skip => self.skipped += 1,
        }
        Ok(())
    }

    /// The closing line: the counts.
    pub fn write_summary(&self, out: &mut dyn Write) -> Result<(), ReviewError> {
        writeln!(out, "{} accepted, {} rejected, {} still pending", self.accepted, self.rejected, self.skipped)
            .map_err(ReviewError::Output)
    }
}

/// Lists every pending fixture (see [`write_pending`]) and how to decide.
pub fn write_listing(pending: &[PendingFixture], no_diff: bool, out: &mut dyn Write) -> Result<(), ReviewError> {
    for item in pending {
        write_pending(item, no_diff, out)?;
    }
    writeln!(
        out,
        "{} pending; accept or reject with `conform review --accept GLOB | --reject GLOB | --accept-all | --reject-all`",
        pending.len()
    )
    .map_err(ReviewError::Output)
}

/// Asks about each pending fixture on `out`, reading answers line by line
/// from `answers` (a, r, s, A, R, q); the end of the answers or `q` leaves
/// the rest pending. Writes the counts at the end.
pub fn review_interactively(
    pending: &[PendingFixture],
    no_diff: bool,
    answers: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Tally, ReviewError> {
    let mut tally = Tally::default();
    let mut all: Option<Decision> = None;
    for (index, item) in pending.iter().enumerate() {
        let decision = match all {
            Some(decision) => decision,
            None => {
                write_pending(item, no_diff, out)?;
                let asked = format!("[{}/{}] {}", index + 1, pending.len(), item.id());
                match ask(&asked, answers, out)? {
                    Some((decision, for_all)) => {
                        if for_all {
                            all = Some(decision);
                        }
                        decision
                    }
                    None => {
                        tally.skipped += pending.len() - index;
                        break;
                    }
                }
            }
        };
        tally.apply(item, decision, out)?;
    }
    tally.write_summary(out)?;
    Ok(tally)
}

/// Asks until an answer is understood: the decision and whether it is for
/// every fixture left, or `None` to stop (`q`, or no more answers).
fn ask(asked: &str, answers: &mut dyn BufRead, out: &mut dyn Write) -> Result<Option<(Decision, bool)>, ReviewError> {
    loop {
        write!(out, "{asked}: [a]ccept, [r]eject, [s]kip, [A]ccept all, [R]eject all, [q]uit? ")
            .and_then(|()| out.flush())
            .map_err(ReviewError::Output)?;
        let mut answer = String::new();
        if answers.read_line(&mut answer).map_err(|err| ReviewError::Answer(err.to_string()))? == 0 {
            return Ok(None);
        }
        let decision = match answer.trim() {
            "a" => (Decision::Accept, false),
            "r" => (Decision::Reject, false),
            "s" | "" => (Decision::Skip, false),
            "A" => (Decision::Accept, true),
            "R" => (Decision::Reject, true),
            "q" => return Ok(None),
            _ => continue,
        };
        if decision.0 == Decision::Accept && running_in_ci() {
            return Err(ReviewError::AcceptInCi);
        }
        return Ok(Some(decision));
    }
}

/// One pending fixture as the review shows it: a new one with its
/// description and first lines, an identical one, or a changed one with its
/// differences and (unless `no_diff`) its line diff.
pub fn write_pending(item: &PendingFixture, no_diff: bool, out: &mut dyn Write) -> Result<(), ReviewError> {
    let change = describe(item)?;
    write_change(item, &change, no_diff, out).map_err(ReviewError::Output)
}

fn write_change(item: &PendingFixture, change: &Change, no_diff: bool, out: &mut dyn Write) -> std::io::Result<()> {
    match change {
        Change::New { lines, description, head } => {
            writeln!(out, "new       {} ({lines} lines)", item.pending.display())?;
            if let Some(description) = description {
                writeln!(out, "  {}", shorten(description, MAX_DESCRIPTION_CHARS))?;
            }
            if !no_diff {
                for line in head {
                    writeln!(out, "    + {}", visible_controls(&shorten(line, MAX_PREVIEW_LINE_CHARS)))?;
                }
                if *lines > head.len() {
                    writeln!(out, "    … {} more lines in {}", lines - head.len(), item.pending.display())?;
                }
            }
        }
        Change::Identical => {
            writeln!(out, "identical {} (accepting changes nothing)", item.pending.display())?;
        }
        Change::Modified { differences, omitted, hunks } => {
            let (removed, added) = changed_lines(hunks);
            writeln!(
                out,
                "changed   {} → {} ({} differences, -{removed} +{added} lines)",
                item.pending.display(),
                item.target.display(),
                differences.len() + omitted
            )?;
            write_fixture_change(out, differences, *omitted, hunks, no_diff)?;
        }
    }
    Ok(())
}

/// `text` cut to `max` characters, with `…` when it was longer.
fn shorten(text: &str, max: usize) -> String {
    let short: String = text.chars().take(max).collect();
    if short.len() < text.len() { format!("{short}…") } else { short }
}
