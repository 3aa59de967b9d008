//! Turning live captures into reviewed fixtures (`conform capture`).
//!
//! A [`CaptureFormat`] knows one kind of capture file (what a client really
//! received: HAPI message pages, a Claude stream-json log, a Codex JSON-RPC
//! log, …) and which suite its cases belong to. Its importer turns the files
//! into case inputs with provenance; an optional window function cuts a long
//! case into overlapping smaller ones without separating what belongs
//! together. The [`pipeline`] does the rest for every format alike: scrub
//! secrets ([`crate::redact`]), compute the expected part with the suite's
//! reference, build and validate the documents, lint them, and write them for
//! review ([`crate::review`]).
//!
//! Adding a format is local: write its importer (and window function, if its
//! cases can be cut) and list it in [`formats`].

pub mod chat_window;
pub mod claude_stream;
pub mod codex_logs;
pub mod hapi_messages;
pub mod jsonl;
pub mod pipeline;
pub mod streams;

pub use pipeline::{CaptureOptions, Prepared, PreparedFixture, prepare, write};

use crate::error::FixtureError;
use crate::redact::{Finding, RedactError};
use crate::review::ReviewError;
use serde_json::Value;
use std::path::PathBuf;
use thiserror::Error;

/// One capture file, read.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

impl SourceFile {
    /// The file name, for provenance (never the full path: it would name the
    /// folder, and often the user, it was captured in).
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into_owned())
    }
}

/// Where a captured case came from; becomes the fixture's description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// File names the case was read from.
    pub sources: Vec<String>,
    /// The day the capture was taken (`YYYY-MM-DD`), when the data says.
    pub captured_on: Option<String>,
    /// How many items (messages, frames, lines) the case holds.
    pub items: usize,
    /// What the items are called (`messages`, `frames`, `lines`).
    pub noun: &'static str,
    /// Anything else worth recording (`seq 1–200; 14 duplicate rows dropped`).
    pub detail: Option<String>,
}

/// One case an importer found.
#[derive(Clone, Debug)]
pub struct CapturedCase {
    /// The suite's input part.
    pub input: Value,
    /// A name for it (a session id or a file stem), before any prefix.
    pub label: String,
    /// Where it came from.
    pub provenance: Provenance,
}

/// What an importer made of the files.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    /// The cases, in a stable order.
    pub cases: Vec<CapturedCase>,
    /// One line per thing worth telling the user (duplicates resolved,
    /// lines skipped, …).
    pub notices: Vec<String>,
}

/// A window cut from a case.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// The window's input part.
    pub input: Value,
    /// Index of its first item in the whole case.
    pub first: usize,
    /// Index of its last item in the whole case.
    pub last: usize,
    /// Whether it is longer than asked because a group that must stay
    /// together is longer.
    pub oversized: bool,
}

/// Reads capture files into case inputs.
pub type ImportFn = fn(&[SourceFile]) -> Result<Imported, CaptureError>;

/// Cuts one case input into windows of about `size` items.
pub type WindowFn = fn(&Value, usize) -> Vec<Window>;

/// A capture file format. See the module docs.
#[derive(Clone, Copy, Debug)]
pub struct CaptureFormat {
    /// The `--from` name.
    pub name: &'static str,
    /// The suite its cases belong to.
    pub suite: &'static str,
    /// One line saying what files it reads.
    pub summary: &'static str,
    /// The importer.
    pub import: ImportFn,
    /// The window function, when cases can be cut (`--window`).
    pub window: Option<WindowFn>,
}

/// Every capture format, in `--help` order. A format name may serve several
/// suites (one Claude stream-json log feeds `claude-events` and
/// `claude-display`); the pair (suite, name) picks the importer.
pub fn formats() -> &'static [CaptureFormat] {
    &[
        CaptureFormat {
            name: "hapi-messages",
            suite: "chat",
            summary: "HAPI GET /api/sessions/:id/messages response bodies (pages may overlap and come in any order), \
                      NDJSON streams of DecryptedMessage, and optionally the session object for agentState",
            import: hapi_messages::import,
            window: Some(chat_window::cut),
        },
        CaptureFormat {
            name: "claude-stream-json",
            suite: "claude-events",
            summary: "stdout of `claude -p --output-format stream-json --verbose` (with its NAME.stdin.jsonl \
                      companion when there is one); one case per query() run",
            import: streams::claude_events,
            window: None,
        },
        CaptureFormat {
            name: "claude-stream-json",
            suite: "claude-display",
            summary: "Claude stream-json stdout (with its NAME.stdin.jsonl companion) or a session transcript \
                      (~/.claude/projects/…/SESSION.jsonl); one case per file",
            import: streams::claude_display,
            window: None,
        },
        CaptureFormat {
            name: "codex-app-server-jsonl",
            suite: "codex-app-server-events",
            summary: "stdout of `codex app-server` (with its NAME.client.jsonl companion); one case per file",
            import: streams::codex_app_server,
            window: None,
        },
        CaptureFormat {
            name: "codex-exec-jsonl",
            suite: "codex-exec-events",
            summary: "stdout of `codex exec --json`; one case per file",
            import: streams::codex_exec,
            window: None,
        },
    ]
}

/// Looks a format up by suite and `--from` name.
pub fn find_format(suite: &str, name: &str) -> Result<&'static CaptureFormat, CaptureError> {
    if let Some(format) = formats().iter().find(|format| format.name == name && format.suite == suite) {
        return Ok(format);
    }
    let suites: Vec<&str> = formats().iter().filter(|f| f.name == name).map(|f| f.suite).collect();
    if suites.is_empty() {
        return Err(CaptureError::UnknownFormat { name: name.to_owned(), known: format_names().join(", ") });
    }
    Err(CaptureError::SuiteMismatch {
        format: name.to_owned(),
        format_suite: suites.join(" or "),
        suite: suite.to_owned(),
    })
}

/// The distinct format names.
pub fn format_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for format in formats() {
        if !names.contains(&format.name) {
            names.push(format.name);
        }
    }
    names
}

/// Why a capture could not be turned into fixtures.
#[derive(Debug, Error)]
pub enum CaptureError {
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
    /// `--window` for a format whose cases cannot be cut.
    #[error("--from {0} cannot cut cases into windows")]
    WindowUnsupported(String),
    /// `--window 0`.
    #[error("--window must be at least 1")]
    WindowTooSmall,
    /// A capture file could not be read.
    #[error("{}: cannot read: {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A capture file is not what its format expects.
    #[error("{}: {message}", path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// What is wrong (with a line number where there is one).
        message: String,
    },
    /// The files held no case.
    #[error("the capture holds no {0}")]
    Empty(&'static str),
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
