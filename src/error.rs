//! Harness errors and process exit codes.
//!
//! An implementation failing a case is never an error here: that is a
//! [`crate::report::Verdict`] in the report. These types describe what keeps
//! the harness itself from judging: unreadable paths, broken fixture
//! documents, bad arguments.

use crate::files::{ShowPath, one_line};
use std::path::PathBuf;
use thiserror::Error;

/// Process exit codes, in one place.
pub mod exit_code {
    /// Every case passed (or was an expected failure / skipped).
    pub const CONFORMANT: i32 = 0;
    /// At least one case failed, errored, crashed, timed out or passed unexpectedly.
    pub const FAILURES: i32 = 1;
    /// Usage or setup error, invalid fixtures, or fixtures the harness cannot judge.
    pub const CANNOT_JUDGE: i32 = 2;
    /// Stopped by Ctrl-C (128 + SIGINT); the reports cover the cases that ran.
    pub const INTERRUPTED: i32 = 130;
}

/// A problem with one fixture file. Every variant names the file; those that
/// concern a place in the document also carry its JSON pointer and 1-based
/// line and column.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FixtureError {
    /// The file could not be read.
    #[error("{}: cannot read the file: {message}", path.shown())]
    Read {
        /// The fixture file.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not UTF-8.
    #[error("{}: the file is not valid UTF-8 (byte offset {offset})", path.shown())]
    NotUtf8 {
        /// The fixture file.
        path: PathBuf,
        /// Offset of the first invalid byte.
        offset: usize,
    },
    /// The file is not valid JSON (or nests too deeply).
    #[error("{}:{line}:{column}: invalid JSON: {message}", path.shown())]
    Json {
        /// The fixture file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The document does not satisfy its suite's schema.
    #[error("{}:{line}:{column}: {}: {message}", path.shown(), display_pointer(pointer))]
    Schema {
        /// The fixture file.
        path: PathBuf,
        /// JSON pointer of the offending value (`""` is the whole document).
        pointer: String,
        /// 1-based line of the offending value (or its nearest ancestor).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the schema requires.
        message: String,
    },
    /// The document's `name` differs from its file name.
    #[error("{}:{line}:{column}: /name: `{}` does not match the file name `{}`", path.shown(), one_line(name), one_line(stem))]
    NameMismatch {
        /// The fixture file.
        path: PathBuf,
        /// The document's `name`.
        name: String,
        /// The file name without `.json`.
        stem: String,
        /// 1-based line of the `name` value.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Two files define the same fixture id.
    #[error("{}: duplicate fixture id `{}`, already defined by {}", path.shown(), one_line(id), first.shown())]
    Duplicate {
        /// The later file.
        path: PathBuf,
        /// The fixture id.
        id: String,
        /// The file that defined it first.
        first: PathBuf,
    },
    /// The suite cannot split the document into input and expected parts.
    #[error("{}: {message}", path.shown())]
    Shape {
        /// The fixture file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "(document)" } else { pointer }
}

/// Errors that stop a command before it can judge anything (exit code 2).
#[derive(Debug, Error)]
pub enum SetupError {
    /// A path given on the command line does not exist.
    #[error("{}: no such file or directory", .0.shown())]
    MissingPath(PathBuf),
    /// A suite folder named on the command line holds no fixtures.
    #[error("{}: the suite folder `{suite}` holds no fixtures", path.shown())]
    EmptySuiteFolder {
        /// The folder.
        path: PathBuf,
        /// The suite it stands for.
        suite: String,
    },
    /// A fixture tree holds no fixtures at all.
    #[error("{}: no fixtures found (expected one folder per suite: {known})", path.shown())]
    NoFixtures {
        /// The folder.
        path: PathBuf,
        /// The known suite names.
        known: String,
    },
    /// A file given on the command line is not in a suite folder.
    #[error("{}: cannot tell the suite of this file: its folder `{}` is not a suite (known: {known})", path.shown(), one_line(folder))]
    UnknownSuiteOfFile {
        /// The file.
        path: PathBuf,
        /// Its parent folder's name.
        folder: String,
        /// The known suite names.
        known: String,
    },
    /// `--suite` named a suite the harness does not have.
    #[error("unknown suite `{name}`: did you mean `{nearest}`? (known: {known})")]
    UnknownSuite {
        /// The name given.
        name: String,
        /// The known suite name nearest to it.
        nearest: String,
        /// The known suite names.
        known: String,
    },
    /// A glob given with `--filter` does not parse.
    #[error("invalid --filter glob `{glob}`: {message}")]
    BadFilter {
        /// The glob.
        glob: String,
        /// Why it is invalid.
        message: String,
    },
    /// Reading or walking a folder failed.
    #[error("{}: {message}", path.shown())]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Anything else that keeps a command from starting (bad arguments).
    #[error("{0}")]
    Usage(String),
}
