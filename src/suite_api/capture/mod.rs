//! What a suite offers `conform capture`: the capture formats it reads, the
//! importers that turn capture files into case inputs, and the window
//! functions that cut a long case into smaller ones.
//!
//! A [`CaptureFormat`] knows one kind of capture file (what a client really
//! received: HAPI message pages, a Claude stream-json log, a Codex JSON-RPC
//! log, …). A suite lists its formats in
//! [`Suite::capture_formats`](super::Suite::capture_formats); the capture
//! pipeline (`crate::capture`) finds them there and does the rest for every
//! format alike. [`lines`] reads JSON Lines captures and [`per_file`] turns
//! one-case-per-file formats into cases, for the importers that need them;
//! [`sniff`] reads the first lines of a file for the formats' sniffers,
//! which let the pipeline refuse a file of another format.

pub mod lines;
pub mod per_file;
pub mod sniff;

pub use sniff::{Sniff, SniffFn};

use crate::redact::{NewSecret, Redactor};
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

/// Why an importer could not read the capture files.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ImportFailure {
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
}

/// Reads capture files into case inputs (formats whose cases are read
/// whole, file by file, through [`per_file`]).
pub type ImportFn = fn(&[SourceFile]) -> Result<Imported, ImportFailure>;

/// Cuts one case input into windows of about `size` items.
pub type WindowFn = fn(&Value, usize) -> Vec<Window>;

/// The user names a value reveals (the redactor's
/// [`crate::redact::Redactor::user_names_in`]), lent to a format that reads
/// its capture in pieces, so that it collects them in the capture's order.
pub type NamesFn<'a> = &'a (dyn Fn(&Value) -> Vec<String> + Sync);

/// Opens the capture files: reads what the format must hold whole (an
/// index, a session object) and the user names of every case, in order.
pub type OpenFn = fn(&[PathBuf], NamesFn<'_>) -> Result<Opened, ImportFailure>;

/// What a format made of the capture files before any case is built.
pub struct Opened {
    /// The cases, in a stable order.
    pub cases: Box<dyn CaseSource>,
    /// The user names every case reveals, in order of sight (repeats
    /// allowed): they are learned before anything is scrubbed.
    pub user_names: Vec<String>,
    /// One line per thing worth telling the user.
    pub notices: Vec<String>,
}

/// The cases of an opened capture, one at a time.
pub trait CaseSource: Send {
    /// The next case, `None` after the last.
    fn next_case(&mut self) -> Option<Result<Case, ImportFailure>>;
}

/// One case of a capture.
pub enum Case {
    /// A case held whole.
    Whole(CapturedCase),
    /// A case whose items stay in the capture files until a window needs
    /// them.
    Indexed(Box<dyn IndexedCase>),
}

/// A window of an [`IndexedCase`]: items `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedWindow {
    /// Index of its first item.
    pub first: usize,
    /// Index of its last item.
    pub last: usize,
    /// Whether it is longer than asked.
    pub oversized: bool,
}

/// A case read through an index (see `docs/captures.md`, "Large captures"):
/// the pipeline plans its windows, reads each window's items once, in
/// order, scrubs them, and asks the case for the rest of the window's input.
pub trait IndexedCase: Send {
    /// A name for it, before any prefix.
    fn label(&self) -> &str;
    /// Where it came from.
    fn provenance(&self) -> &Provenance;
    /// Plans windows of about `size` items (remembered for the calls below,
    /// which name a window by its index in the plan).
    fn plan(&mut self, size: usize) -> Vec<PlannedWindow>;
    /// Reads items `first..=last`, as they would be in the whole input.
    fn read_items(&mut self, first: usize, last: usize) -> Result<Vec<Value>, ImportFailure>;
    /// Window `index`'s input from its scrubbed `items`: what else it takes
    /// from the case (permissions of its tool calls, …) is scrubbed with
    /// [`Redactor::scrub_value_known`]; [`NewSecret`] when that holds a
    /// secret without a placeholder yet (the window then waits for the end
    /// of the case, see [`IndexedCase::late_window_input`]).
    fn window_input(&self, index: usize, items: Vec<Value>, redactor: &Redactor) -> Result<Value, NewSecret>;
    /// The case input without its items, for scrubbing once all items are.
    fn rest(&self) -> Value;
    /// Window `index`'s input from its scrubbed `items` and the scrubbed
    /// [`IndexedCase::rest`] (every secret of the case has its placeholder
    /// by then).
    fn late_window_input(&self, index: usize, items: Vec<Value>, rest: &Value, redactor: &Redactor) -> Value;
    /// The whole case, read into memory (when it is not cut, or cannot be
    /// cut while streaming).
    fn into_whole(self: Box<Self>) -> Result<CapturedCase, ImportFailure>;
}

/// A capture file format. See the module docs.
#[derive(Clone, Copy, Debug)]
pub struct CaptureFormat {
    /// The `--from` name. One name may serve several suites (one Claude
    /// stream-json log feeds `claude-events` and `claude-display`); the
    /// pair (suite, name) picks the importer.
    pub name: &'static str,
    /// One line saying what files it reads.
    pub summary: &'static str,
    /// Opens the capture files.
    pub open: OpenFn,
    /// The window function, when cases can be cut (`--window`); it cuts a
    /// case held whole, and [`IndexedCase::plan`] plans the same windows
    /// for a case read through an index.
    pub window: Option<WindowFn>,
    /// Tells from a file's first lines whether it is of this format, so
    /// that a file given with the wrong `--from` (or for the wrong suite) is
    /// refused before it is imported (`--force-format` imports it anyway).
    pub sniff: SniffFn,
}
