//! Reports: one result model ([`RunReport`]), one writer per format.
//!
//! Every writer is a pure function of the report that writes to an injected
//! `io::Write`, so tests can capture output and the CLI decides where it goes.

pub mod cluster;
mod html;
mod html_json;
mod json;
mod junit;
mod markdown;
mod merge;
mod model;
mod palette;
mod pretty;
mod read;

pub use cluster::{Cluster, Signature};
pub use html::{write_html, write_html_matrix};
pub use json::{REPORT_SCHEMA, write_json};
pub use junit::write_junit;
pub use markdown::write_markdown;
pub(crate) use markdown::{escape_inline as markdown_inline, fenced as markdown_fenced, html_escape as markdown_html};
pub use merge::{MergeError, merge};
pub use model::{
    CaseReport, Counts, DifferenceReport, HarnessInfo, Partition, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport,
    SuiteCounts, Tally, Verdict,
};
pub use palette::{Palette, visible_controls};
pub use pretty::{PrettyOptions, write_pretty};
pub use read::{ReportReadError, parse_report, read_report};

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
        match self {
            Format::Pretty => write_pretty(report, out, &PrettyOptions { palette, ..Default::default() }),
            Format::Json => write_json(report, out),
            Format::Junit => write_junit(report, out),
            Format::Markdown => write_markdown(report, out),
            Format::Html => write_html(report, out),
        }
    }
}

/// Writes the file formats among `formats` into `dir` (created if needed),
/// each through a temporary file and a rename, and returns the paths written.
pub fn write_files(report: &RunReport, formats: &[Format], dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for format in formats {
        let Some(name) = format.file_name() else { continue };
        std::fs::create_dir_all(dir)?;
        let path = dir.join(name);
        let mut buffer = Vec::new();
        format.write(report, &mut buffer, Palette::plain())?;
        crate::files::write_atomically(&path, &buffer)?;
        written.push(path);
    }
    Ok(written)
}
