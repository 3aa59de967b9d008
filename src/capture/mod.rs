//! Turning live captures into reviewed fixtures (`conform capture`).
//!
//! Each suite lists the capture formats it reads
//! ([`Suite::capture_formats`]): what a client really received (HAPI message
//! pages, a Claude stream-json log, a Codex JSON-RPC log, …), an importer
//! that turns the files into case inputs with provenance, and an optional
//! window function that cuts a long case into overlapping smaller ones
//! without separating what belongs together. The [`pipeline`] does the rest
//! for every format alike: scrub secrets ([`crate::redact`]), compute the
//! expected part with the suite's reference, build and validate the
//! documents, lint them, and write them for review ([`crate::review`]).

mod cases;
mod document;
mod inputs;
mod order;
pub mod pipeline;
mod printed;
mod scrub;
mod windows;
mod write;

pub use crate::suite_api::capture::{
    CaptureFormat, CapturedCase, Case, CaseSource, ImportFailure, ImportFn, Imported, IndexedCase, NamesFn, OpenFn,
    Opened, PlannedWindow, Provenance, Sniff, SniffFn, SourceFile, Window, WindowFn,
};
pub use pipeline::{CaptureOptions, Prepared, PreparedFixture, prepare};
pub use printed::WrittenCounts;
pub use write::{Captured, Progress, capture, write};

use crate::error::FixtureError;
use crate::redact::{Finding, RedactError};
use crate::review::ReviewError;
use crate::suite_api::Suite;
use thiserror::Error;

/// Every capture format of every suite, in registry order: a format name
/// may serve several suites, and the pair (suite, name) picks the importer.
pub fn formats() -> Vec<(&'static dyn Suite, &'static CaptureFormat)> {
    crate::suites::all()
        .iter()
        .flat_map(|suite| suite.capture_formats().iter().map(move |format| (*suite, format)))
        .collect()
}

/// Looks a format up by suite and `--from` name.
pub fn find_format(suite: &str, name: &str) -> Result<(&'static dyn Suite, &'static CaptureFormat), CaptureError> {
    let all = formats();
    if let Some(found) = all.iter().find(|(owner, format)| format.name == name && owner.name() == suite) {
        return Ok(*found);
    }
    let suites: Vec<&str> = all.iter().filter(|(_, f)| f.name == name).map(|(owner, _)| owner.name()).collect();
    if suites.is_empty() {
        return Err(CaptureError::UnknownFormat { name: name.to_owned(), known: format_names().join(", ") });
    }
    Err(CaptureError::SuiteMismatch {
        format: name.to_owned(),
        format_suite: suites.join(" or "),
        suite: suite.to_owned(),
    })
}

/// Checks a `--captured-on` day (`YYYY-MM-DD`).
pub fn check_capture_day(day: Option<&str>) -> Result<(), CaptureError> {
    match day {
        Some(day) if chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").is_err() => {
            Err(CaptureError::NotADay(day.to_owned()))
        }
        _ => Ok(()),
    }
}

/// The distinct format names.
pub fn format_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for (_, format) in formats() {
        if !names.contains(&format.name) {
            names.push(format.name);
        }
    }
    names
}

/// Why a capture could not be turned into fixtures.
#[derive(Debug, Error)]
pub enum CaptureError {
    /// The system refused every worker thread.
    #[error("no worker thread could be started for the capture")]
    NoWorkers,
    /// `--from` names no known format.
    #[error("unknown capture format `{name}` (known: {known})")]
    UnknownFormat {
        /// The name given.
        name: String,
        /// The known names.
        known: String,
    },
    /// The format's cases belong to another suite than the one named.
    #[error("--from {format} captures {format_suite} cases, not {suite} cases")]
    SuiteMismatch {
        /// The format.
        format: String,
        /// Its suite.
        format_suite: String,
        /// The suite named on the command line.
        suite: String,
    },
    /// The suite has no reference, so no expected part can be computed.
    #[error("suite {0} has no reference implementation: its expected parts cannot be computed")]
    NoReference(String),
    /// The suite is unknown.
    #[error("unknown suite `{0}`")]
    UnknownSuite(String),
    /// `--fixture-version` names a version the reference does not implement.
    #[error("{0}")]
    UnimplementedVersion(String),
    /// `--window` for a format whose cases cannot be cut.
    #[error("--from {0} cannot cut cases into windows")]
    WindowUnsupported(String),
    /// `--captured-on` is not a day.
    #[error("--captured-on {0:?} is not a date (YYYY-MM-DD)")]
    NotADay(String),
    /// `--window 0`.
    #[error("--window must be at least 1")]
    WindowTooSmall,
    /// A file's first lines show another format than `--from` names.
    #[error(
        "{}: not a {format} capture for {suite}: {why}{readers} (--force-format imports it as {format} anyway)",
        path.display()
    )]
    FormatMismatch {
        /// The file.
        path: std::path::PathBuf,
        /// The `--from` format.
        format: String,
        /// The suite named.
        suite: String,
        /// Which line shows it and what it is.
        why: String,
        /// `; it reads as …` naming the formats that recognize the file, or
        /// nothing.
        readers: String,
    },
    /// A capture file holds a line longer than a fixture may be.
    #[error(
        "{}: line {line} is longer than {limit} bytes: a fixture holding it would be over the {limit} bytes \
         conform loads; not read further (--max-fixture-size raises both)",
        path.display()
    )]
    LineTooLong {
        /// The file.
        path: std::path::PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The limit in bytes.
        limit: u64,
    },
    /// A case holds no item of its format: its file holds no line of the
    /// format (or only lines the importer leaves out).
    #[error("{sources}: no {noun} of --from {format} in it: nothing to capture")]
    NoItems {
        /// The files the case was read from.
        sources: String,
        /// The format.
        format: String,
        /// What its items are called.
        noun: String,
    },
    /// A document is larger than conform loads.
    #[error(
        "{name}: refusing to write: the fixture would be {bytes} bytes, over the {limit} bytes conform loads; \
         {advice}"
    )]
    FixtureTooLarge {
        /// The fixture name.
        name: String,
        /// Its size in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: u64,
        /// What to do about it.
        advice: String,
    },
    /// A capture's error as it is printed, through the redaction rules
    /// (see [`printed::Shown`]).
    #[error("{0}")]
    Shown(String),
    /// The importer could not read the capture files.
    #[error(transparent)]
    Import(#[from] ImportFailure),
    /// The reference could not compute a case's expected part.
    #[error("{name}: the reference cannot decode this case: {message}")]
    Reference {
        /// The fixture name.
        name: String,
        /// The reference's message.
        message: String,
    },
    /// A document the capture built is not a valid fixture.
    #[error("{name}: the captured document is not a valid fixture:\n  {}", problems_list(.problems))]
    Invalid {
        /// The fixture name.
        name: String,
        /// Its problems.
        problems: Vec<FixtureError>,
    },
    /// Secret-looking content remains after scrubbing.
    #[error(
        "{name}: refusing to write: secret-looking content remains after redaction \
         (add a --redact-rule, or fix the rule that missed it):\n  {}",
        findings_list(.findings)
    )]
    SecretsRemain {
        /// The fixture name.
        name: String,
        /// What the lint found.
        findings: Vec<Finding>,
    },
    /// A redaction rule is broken.
    #[error(transparent)]
    Redact(#[from] RedactError),
    /// Writing failed (or `--accept` in CI).
    #[error(transparent)]
    Review(#[from] ReviewError),
}

fn problems_list(problems: &[FixtureError]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  ")
}

fn findings_list(findings: &[Finding]) -> String {
    findings.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  ")
}
