//! `conform check-adapter`: a smoke run that watches every message an
//! implementation sends, validates it against the protocol schemas, and
//! explains in plain words what is wrong and how to fix it (in the spirit of
//! Bowtie's validate mode).
//!
//! Unlike a run, the check keeps going after a problem where it can (it
//! waits for the real reply after a stray line, restarts after a crash) so
//! that one session shows as many problems as possible.
//!
//! It is a tool built on the implementation layer, not part of it: a run
//! never needs it, and it needs from the subprocess module only what a run
//! uses too (the protocol-event loop of a conversation, the one-shot
//! implementation, the codec and the schemas). Persistent mode is checked in
//! `persistent` (its hello in `hello`), one-shot mode in `one_shot`.

mod hello;
mod one_shot;
mod persistent;
mod text;

pub use one_shot::check_one_shot;
pub use persistent::{SLOW_START, check_persistent};
pub use text::{header_line, write_text};

use crate::compare::compare;
use crate::fixture::Corpus;
use crate::implementation::CaseRequest;
use crate::report::rules::{name_rules, rules_line};
use crate::report::{DifferenceReport, visible_controls};
use crate::suite_api::Suite;
use serde_json::Value;
use std::collections::HashMap;

/// Stderr lines quoted under a problem.
const QUOTED_STDERR_LINES: usize = 8;
/// Longest stderr line quoted whole (a path in an error message is easily
/// 150 characters; a run's reports show stderr lines whole too).
const QUOTED_STDERR_CHARS: usize = 1000;

/// How serious an observation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Something that works as it should.
    Ok,
    /// Information.
    Note,
    /// Works, but costs time or hides information.
    Warning,
    /// Breaks the protocol: a run would give a fault verdict.
    Problem,
}

/// One thing the check observed (good or bad, by its [`Level`]), with an
/// explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// How serious it is.
    pub level: Level,
    /// One line saying what happened.
    pub headline: String,
    /// Further lines: why it matters, how to fix it, evidence.
    pub details: Vec<String>,
}

/// One case to send.
#[derive(Clone, Copy, Debug)]
pub struct CheckCase<'a> {
    /// The suite.
    pub suite: &'static dyn Suite,
    /// Fixture name.
    pub fixture: &'a str,
    /// fixtureVersion.
    pub fixture_version: u32,
    /// The input part.
    pub input: &'a Value,
    /// The expected part.
    pub expected: &'a Value,
}

impl CheckCase<'_> {
    fn id(&self) -> String {
        format!("{}/{}", self.suite.name(), self.fixture)
    }

    fn request(&self) -> CaseRequest<'_> {
        CaseRequest {
            suite: self.suite.name(),
            fixture: self.fixture,
            fixture_version: self.fixture_version,
            input: self.input,
        }
    }
}

/// The smoke cases of a check: the ready fixtures among `selected`, at most
/// `per_suite` of each suite (0 = all), in corpus order.
pub fn smoke_cases<'c>(corpus: &'c Corpus, selected: &[usize], per_suite: usize) -> Vec<CheckCase<'c>> {
    let mut taken: HashMap<&str, usize> = HashMap::new();
    selected
        .iter()
        .filter_map(|&index| corpus.fixtures.get(index))
        .filter_map(|fixture| {
            let parts = fixture.parts()?;
            let count = taken.entry(fixture.suite.name()).or_default();
            if per_suite > 0 && *count >= per_suite {
                return None;
            }
            *count += 1;
            Some(CheckCase {
                suite: fixture.suite,
                fixture: &fixture.name,
                fixture_version: fixture.version.unwrap_or(1),
                input: &parts.input,
                expected: &parts.expected,
            })
        })
        .collect()
}

/// Everything the check found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// What the check observed, in the order it happened.
    pub observations: Vec<Observation>,
    /// Smoke cases selected.
    pub selected: usize,
    /// Smoke cases sent to the implementation (the others were undeclared
    /// in its hello, or the check stopped before them).
    pub sent: usize,
    /// Cases answered with an output equal to the expectation.
    pub passed: usize,
    /// Cases answered with a different output.
    pub failed: usize,
    /// Cases answered with `error`.
    pub errors: usize,
    /// Cases answered with `skipped`.
    pub skipped: usize,
    /// Messages received and validated.
    pub messages: usize,
}

impl CheckReport {
    fn add(&mut self, level: Level, headline: impl Into<String>, details: Vec<String>) {
        self.observations.push(Observation { level, headline: headline.into(), details });
    }

    /// Observations of level [`Level::Problem`].
    pub fn problems(&self) -> usize {
        self.observations.iter().filter(|f| f.level == Level::Problem).count()
    }

    /// Observations of level [`Level::Warning`].
    pub fn warnings(&self) -> usize {
        self.observations.iter().filter(|f| f.level == Level::Warning).count()
    }

    /// The closing line.
    pub fn summary(&self) -> String {
        format!(
            "{}, {}; {} checked; smoke cases: {} of {} sent: {} passed, {} failed, {}, {} skipped",
            counted(self.problems(), "protocol problem", "protocol problems"),
            counted(self.warnings(), "warning", "warnings"),
            counted(self.messages, "message", "messages"),
            self.sent,
            self.selected,
            self.passed,
            self.failed,
            counted(self.errors, "error", "errors"),
            self.skipped
        )
    }

    fn judge_output(&mut self, case: &CheckCase<'_>, output: &Value) {
        match compare(case.suite, case.input, case.expected, output) {
            None => self.passed += 1,
            Some(mismatch) => {
                self.failed += 1;
                // The first difference with the contract rules it breaks, as
                // a run's reports name them.
                let mut found: Vec<DifferenceReport> = mismatch.differences.iter().map(Into::into).collect();
                name_rules(case.suite, case.fixture_version, case.input, case.expected, &mut found);
                let mut details: Vec<String> = found.first().map(|d| d.message.clone()).into_iter().collect();
                details.extend(found.first().and_then(|d| rules_line(case.suite.name(), &d.rules)));
                details.push("run `conform run … --impl-cmd …` for the full diff".to_owned());
                self.add(
                    Level::Note,
                    format!("{}: the output differs from the expectation (not a protocol problem)", case.id()),
                    details,
                );
            }
        }
    }
}

fn quote_stderr(stderr: Option<&str>) -> Vec<String> {
    let Some(stderr) = stderr.filter(|s| !s.trim().is_empty()) else { return Vec::new() };
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(QUOTED_STDERR_LINES);
    let mut quoted = vec![format!("stderr (last {} lines):", lines.len() - start)];
    // Shown, not obeyed: an escape sequence in stderr is evidence.
    quoted
        .extend(lines[start..].iter().map(|line| format!("  | {}", visible_controls(&cut(line, QUOTED_STDERR_CHARS)))));
    quoted
}

/// `line` up to `max` characters, then an ellipsis.
fn cut(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &line[..end]).into(),
        None => line.into(),
    }
}

fn with(mut details: Vec<String>, more: Vec<String>) -> Vec<String> {
    details.extend(more);
    details
}

/// `1 warning`, `2 warnings`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
