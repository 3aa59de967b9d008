//! Reports: one result model ([`RunReport`]), one writer per format.
//!
//! Every writer is a pure function of the report that writes to an injected
//! `io::Write`, so tests can capture output and the CLI decides where it goes.

mod baseline_summary;
pub(crate) mod budget;
pub mod cause;
pub mod cluster;
mod escape;
mod events;
mod html;
mod html_json;
mod json;
mod junit;
pub mod limits;
pub(crate) mod markdown;
mod merge;
mod model;
mod palette;
mod pretty;
mod progress;
mod read;
pub mod rules;
#[cfg(test)]
pub(crate) mod sample;
mod signature;

pub use baseline_summary::{BaselineSummary, ChangedCase, EntryOutcome, EntryStatus};
pub use budget::{DEFAULT_MARKDOWN_LIMIT, MarkdownBudget};
pub use cluster::Cluster;
pub use escape::escape_html;
pub use events::{RunConsumer, RunEvent};
pub use html::{write_html, write_html_matrix};
pub use json::{JsonStream, REPORT_SCHEMA, write_json};
pub use junit::{JunitOptions, write_junit, write_junit_with};
pub(crate) use markdown::{escape_inline as markdown_inline, fenced as markdown_fenced};
pub use markdown::{write_markdown, write_markdown_within};
pub use merge::{MergeError, merge};
pub use model::{
    CaseReport, Counts, DifferenceReport, HarnessInfo, Partition, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport,
    SelectionSummary, SuiteCounts, Tally, Verdict,
};
pub use palette::{Palette, visible_controls};
pub use pretty::{PrettyOptions, write_pretty};
pub use progress::{PLAIN_INTERVAL, Progress};
pub use read::{
    DEFAULT_MAX_REPORT_BYTES, REPORT_SIZE_FLAG, ReportReadError, max_report_bytes, newer_reports_beside, parse_report,
    read_report, set_max_report_bytes,
};
pub use signature::Signature;

use std::io;
use std::path::{Path, PathBuf};

/// A report format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Human-readable terminal output (to stdout).
    Pretty,
    /// The full run as JSON (`conform-report.json`).
    Json,
    /// JUnit XML (`junit.xml`).
    Junit,
    /// Markdown for CI step summaries and PR comments (`conform-report.md`).
    Markdown,
    /// One self-contained HTML page (`conform-report.html`).
    Html,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [Format::Pretty, Format::Json, Format::Junit, Format::Markdown, Format::Html];

    /// The file name a format is written to inside the output folder.
    pub fn file_name(self) -> Option<&'static str> {
        match self {
            Format::Pretty => None,
            Format::Json => Some("conform-report.json"),
            Format::Junit => Some("junit.xml"),
            Format::Markdown => Some("conform-report.md"),
            Format::Html => Some("conform-report.html"),
        }
    }

    /// Writes `report` in this format.
    pub fn write(self, report: &RunReport, out: &mut dyn io::Write, palette: Palette) -> io::Result<()> {
        self.write_within(report, out, palette, &MarkdownBudget::default())
    }

    /// Writes `report` in this format, Markdown within `markdown`.
    pub fn write_within(
        self,
        report: &RunReport,
        out: &mut dyn io::Write,
        palette: Palette,
        markdown: &MarkdownBudget,
    ) -> io::Result<()> {
        match self {
            Format::Pretty => write_pretty(report, out, &PrettyOptions { palette, ..Default::default() }),
            Format::Json => write_json(report, out),
            Format::Junit => write_junit(report, out),
            Format::Markdown => write_markdown_within(report, out, markdown),
            Format::Html => write_html(report, out),
        }
    }
}

/// Choices of the report files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileOptions {
    /// Most characters of the Markdown report.
    pub markdown_limit: usize,
    /// Choices of the JUnit writer.
    pub junit: JunitOptions,
    /// The JSON report is written by a [`JsonStream`] as the run goes:
    /// [`write_files`] leaves it out (Markdown still names it).
    pub json_streamed: bool,
}

impl Default for FileOptions {
    fn default() -> Self {
        FileOptions { markdown_limit: DEFAULT_MARKDOWN_LIMIT, junit: JunitOptions::default(), json_streamed: false }
    }
}

/// What [`write_files`] did: the files written, and the error of each
/// file that could not be (each naming its file), in the order of the
/// formats.
#[derive(Debug, Default)]
pub struct FilesWritten {
    /// The files written.
    pub written: Vec<PathBuf>,
    /// One error per file not written.
    pub failed: Vec<io::Error>,
}

/// Writes the file formats among `formats` into `dir` (created if needed),
/// each through a temporary file and a rename. A file that cannot be
/// written does not stop the others: every failure is returned, naming its
/// file, so a full disk names each report it cost.
/// Markdown keeps to `options.markdown_limit` and, when cut, names the HTML report
/// (else the JSON report) written beside it as the full report.
pub fn write_files(report: &RunReport, formats: &[Format], dir: &Path, options: &FileOptions) -> FilesWritten {
    let full = [Format::Html, Format::Json].into_iter().find(|f| formats.contains(f)).and_then(Format::file_name);
    let markdown = MarkdownBudget {
        limit: options.markdown_limit,
        full_report: full.map(|name| dir.join(name).display().to_string()),
    };
    let mut files = FilesWritten::default();
    for format in formats {
        let Some(name) = format.file_name() else { continue };
        if *format == Format::Json && options.json_streamed {
            continue;
        }
        let path = dir.join(name);
        let written = std::fs::create_dir_all(dir)
            .map_err(|err| {
                io::Error::new(
                    err.kind(),
                    format!(
                        "cannot write {}: cannot create {}: {err}",
                        crate::files::ShowPath::shown(path.as_path()),
                        crate::files::ShowPath::shown(dir)
                    ),
                )
            })
            .and_then(|()| {
                let mut buffer = Vec::new();
                match format {
                    Format::Junit => write_junit_with(report, &mut buffer, options.junit)?,
                    _ => format.write_within(report, &mut buffer, Palette::plain(), &markdown)?,
                }
                crate::files::write_report_atomically(&path, &buffer)
            });
        match written {
            Ok(()) => files.written.push(path),
            Err(err) => files.failed.push(err),
        }
    }
    files
}
