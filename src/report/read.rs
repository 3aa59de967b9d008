//! Reading JSON reports back: report diffs, merges, HTML from saved runs
//! and baseline writing all start from a `conform-report.json`.

use super::model::{REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A JSON report that cannot be used.
#[derive(Debug, Error)]
pub enum ReportReadError {
    /// The file could not be read.
    #[error("{}: cannot read the report: {message}", path.display())]
    Read {
        /// The report file.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not JSON.
    #[error("{}:{line}:{column}: the report is not valid JSON: {message}", path.display())]
    Json {
        /// The report file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The JSON is not a conform report this harness can read.
    #[error("{}: not a conform report this version can read: {message}", path.display())]
    Shape {
        /// The report file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Reads a JSON report written by `conform run --format json`.
pub fn read_report(path: &Path) -> Result<RunReport, ReportReadError> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| ReportReadError::Read { path: path.to_owned(), message: err.to_string() })?;
    parse_report(&text, path)
}

/// Parses report text; `path` only labels errors.
pub fn parse_report(text: &str, path: &Path) -> Result<RunReport, ReportReadError> {
    let value = crate::json::parse_value(text).map_err(|err| ReportReadError::Json {
        path: path.to_owned(),
        line: err.line,
        column: err.column,
        message: err.message.clone(),
    })?;
    let shape = |message: String| ReportReadError::Shape { path: path.to_owned(), message };
    match value.get("format").and_then(|f| f.as_str()) {
        Some(REPORT_FORMAT) => {}
        Some(other) => return Err(shape(format!("`format` is `{other}`, expected `{REPORT_FORMAT}`"))),
        None => return Err(shape(format!("no `format` member (expected `{REPORT_FORMAT}`)"))),
    }
    let version = value.get("format_version").and_then(|v| v.as_u64()).unwrap_or(0);
    if version != u64::from(REPORT_FORMAT_VERSION) {
        return Err(shape(format!(
            "report format version {version}; this conform reads version {REPORT_FORMAT_VERSION}"
        )));
    }
    RunReport::deserialize(value).map_err(|err| shape(err.to_string()))
}
