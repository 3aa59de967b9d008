//! Reading JSON reports back: report diffs, merges, HTML from saved runs
//! and baseline writing all start from a `conform-report.json`.

use super::model::{REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
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
    let read_error = |message: String| ReportReadError::Read { path: path.to_owned(), message };
    // Only a regular file, and within a bound: a FIFO or `/dev/zero` named
    // as a report is refused at once instead of blocking or filling memory.
    let bound = crate::files::Bound { bytes: max_report_bytes(), raised_by: Some(REPORT_SIZE_FLAG) };
    let bytes = crate::files::read_limited(path, bound).map_err(|err| read_error(err.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|err| read_error(format!("not UTF-8: {err}")))?;
    parse_report(&text, path)
}

/// The default largest JSON report read back: 200,000 cases at their bound
/// in [`super::limits`] fit many times over.
pub const DEFAULT_MAX_REPORT_BYTES: u64 = 4 << 30;

/// What raises the report size limit, named when a report is over it.
pub const REPORT_SIZE_FLAG: &str = "--max-report-size or CONFORM_MAX_REPORT_SIZE";

static MAX_REPORT_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_REPORT_BYTES);

/// The largest JSON report [`read_report`] reads (`--max-report-size`,
/// `CONFORM_MAX_REPORT_SIZE`, else [`DEFAULT_MAX_REPORT_BYTES`]).
pub fn max_report_bytes() -> u64 {
    MAX_REPORT_BYTES.load(Ordering::Relaxed)
}

/// Sets [`max_report_bytes`] for the rest of the process (the command line
/// does this once, from its flag).
pub fn set_max_report_bytes(bytes: u64) {
    MAX_REPORT_BYTES.store(bytes, Ordering::Relaxed);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_device_or_a_fifo_is_refused_at_once() {
        let err = read_report(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(err.contains("a device, not a regular file"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("report.json");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and mode.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let err = read_report(&fifo).unwrap_err().to_string();
        assert!(err.contains("a FIFO (named pipe), not a regular file"), "{err}");
    }

    #[test]
    fn a_report_over_the_limit_names_the_flag_that_raises_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conform-report.json");
        // Sparse: nothing is written, and nothing is read.
        std::fs::File::create(&path).unwrap().set_len(DEFAULT_MAX_REPORT_BYTES + 1).unwrap();
        let err = read_report(&path).unwrap_err().to_string();
        assert!(err.contains("4294967297 bytes, over the limit of 4294967296 bytes"), "{err}");
        assert!(err.ends_with("(--max-report-size or CONFORM_MAX_REPORT_SIZE raise it)"), "{err}");
        assert!(!err.contains("fixture"), "{err}");
    }
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

/// The report files of the other formats beside the JSON report `path`
/// (`junit.xml`, `conform-report.md`, `conform-report.html`) written after
/// it: a run writes its JSON report last, so a newer one beside it means the
/// JSON report is an earlier run's. Unreadable times count as not newer.
pub fn newer_reports_beside(path: &Path) -> Vec<PathBuf> {
    let modified = |path: &Path| std::fs::metadata(path).and_then(|metadata| metadata.modified()).ok();
    let (Some(folder), Some(own)) = (path.parent(), modified(path)) else { return Vec::new() };
    super::Format::ALL
        .iter()
        .filter(|format| **format != super::Format::Json)
        .filter_map(|format| format.file_name())
        .map(|name| folder.join(name))
        .filter(|other| modified(other).is_some_and(|time| time > own))
        .collect()
}

#[cfg(test)]
mod beside_tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    fn touch(path: &Path, at: SystemTime) {
        let file = std::fs::File::create(path).unwrap();
        file.set_modified(at).unwrap();
    }

    #[test]
    fn only_reports_written_after_the_json_one_are_named() {
        let folder = tempfile::tempdir().unwrap();
        let json = folder.path().join("conform-report.json");
        let now = SystemTime::now();
        touch(&json, now);
        touch(&folder.path().join("junit.xml"), now - Duration::from_secs(60));
        touch(&folder.path().join("conform-report.html"), now + Duration::from_secs(60));
        touch(&folder.path().join("notes.html"), now + Duration::from_secs(60));
        assert_eq!(newer_reports_beside(&json), [folder.path().join("conform-report.html")]);
        assert!(newer_reports_beside(&folder.path().join("missing.json")).is_empty());
    }
}
