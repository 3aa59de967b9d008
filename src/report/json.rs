//! The JSON report: the whole [`RunReport`], described by
//! `schemas/report.schema.json`.

use super::baseline_summary::BaselineSummary;
use super::cluster::Cluster;
use super::limits::ArtifactLimits;
use super::model::{CaseReport, Counts, HarnessInfo, Partition, RunReport, SelectionSummary, SuiteCounts};
use super::{RunConsumer, RunEvent};
use crate::files::{AtomicFile, ScratchFile, scratch_file};
use crate::fixture::Notice;
use crate::implementation::ImplementationInfo;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The JSON Schema of the JSON report (draft 2020-12).
pub const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// Writes the report as pretty-printed JSON with a trailing newline (see
/// [`JsonStream`] for the same text written as a run goes).
pub fn write_json(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// The report's members around `cases`, which is written empty: what
/// [`JsonStream`] writes around the cases it spooled. It mirrors
/// [`RunReport`] member for member; a test checks the two agree.
#[derive(Serialize)]
struct Frame<'a> {
    format: &'a str,
    format_version: u32,
    harness: &'a HarnessInfo,
    implementation: &'a ImplementationInfo,
    started_at: &'a str,
    duration_ms: f64,
    paths: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    partition: Option<Partition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<&'a SelectionSummary>,
    notices: &'a [Notice],
    summary: &'a Counts,
    suites: &'a [SuiteCounts],
    cases: &'a [CaseReport],
    clusters: &'a [Cluster],
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limits: Option<ArtifactLimits>,
}

impl<'a> Frame<'a> {
    fn of(report: &'a RunReport) -> Self {
        Frame {
            format: &report.format,
            format_version: report.format_version,
            harness: &report.harness,
            implementation: &report.implementation,
            started_at: &report.started_at,
            duration_ms: report.duration_ms,
            paths: &report.paths,
            partition: report.partition,
            selection: report.selection.as_ref(),
            notices: &report.notices,
            summary: &report.summary,
            suites: &report.suites,
            cases: &[],
            clusters: &report.clusters,
            baseline: report.baseline.as_ref(),
            limits: report.limits,
        }
    }
}

/// Where the empty `cases` of a [`Frame`] stands in its pretty text (its
/// members sit two spaces in; strings never hold a raw newline).
const EMPTY_CASES: &str = "\n  \"cases\": []";

/// The JSON report written as the run goes, flat in memory: each case is
/// written, as it finishes, to a scratch file beside the report (registered
/// like every temporary file, so Ctrl-C removes it), and when the run ends
/// the report is assembled from the run's summary and that file, through a
/// temporary file and a rename. The result is byte for byte what
/// [`write_json`] writes for the whole report.
///
/// A write error stops the writing; [`JsonStream::finish`] returns it.
#[derive(Debug)]
pub struct JsonStream {
    target: PathBuf,
    spool: Option<BufWriter<ScratchFile>>,
    /// Byte ranges of each case's text in the spool, by case position.
    spans: Vec<(u64, u64)>,
    written: u64,
    /// Cases whose report changed after it was spooled.
    amended: HashMap<usize, Vec<u8>>,
    buffer: Vec<u8>,
    error: Option<io::Error>,
    done: bool,
}

impl JsonStream {
    /// A writer of the JSON report at `target` (its folder is created when
    /// the run starts).
    pub fn new(target: &Path) -> Self {
        JsonStream {
            target: target.to_path_buf(),
            spool: None,
            spans: Vec::new(),
            written: 0,
            amended: HashMap::new(),
            buffer: Vec::new(),
            error: None,
            done: false,
        }
    }

    /// The report's path once it is written, or the first error.
    ///
    /// The report is dated now: a run calls this after writing its other
    /// report files, so the JSON report is the newest of them, and one older
    /// than a report beside it is an earlier run's
    /// ([`crate::report::newer_reports_beside`]).
    pub fn finish(self) -> io::Result<PathBuf> {
        match self.error {
            Some(err) => Err(err),
            None if self.done => {
                // Best effort: a file system that keeps no times loses only that hint.
                let _ = std::fs::File::options()
                    .append(true)
                    .open(&self.target)
                    .and_then(|file| file.set_modified(std::time::SystemTime::now()));
                Ok(self.target)
            }
            None => Err(io::Error::other(format!(
                "cannot write {}: the run did not finish",
                crate::files::ShowPath::shown(self.target.as_path())
            ))),
        }
    }

    fn start(&mut self) -> io::Result<()> {
        let folder = match self.target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(folder).map_err(|err| {
            io::Error::new(err.kind(), format!("cannot create {}: {err}", crate::files::ShowPath::shown(folder)))
        })?;
        self.spool = Some(BufWriter::with_capacity(1 << 16, scratch_file(folder)?));
        Ok(())
    }

    /// A case's text as it stands in the report's `cases`: indented two
    /// levels.
    fn case_text(case: &CaseReport, buffer: &mut Vec<u8>, out: &mut Vec<u8>) -> io::Result<()> {
        buffer.clear();
        serde_json::to_writer_pretty(&mut *buffer, case).map_err(io::Error::other)?;
        out.reserve(buffer.len() + buffer.len() / 8);
        out.extend_from_slice(b"    ");
        for line in buffer.split_inclusive(|&byte| byte == b'\n') {
            out.extend_from_slice(line);
            if line.ends_with(b"\n") {
                out.extend_from_slice(b"    ");
            }
        }
        Ok(())
    }

    fn spool_case(&mut self, index: usize, case: &CaseReport) -> io::Result<()> {
        let mut text = Vec::new();
        Self::case_text(case, &mut self.buffer, &mut text)?;
        let Some(spool) = self.spool.as_mut() else { return Ok(()) };
        spool.write_all(&text)?;
        if self.spans.len() <= index {
            self.spans.resize(index + 1, (0, 0));
        }
        self.spans[index] = (self.written, text.len() as u64);
        self.written += text.len() as u64;
        Ok(())
    }

    fn assemble(&mut self, report: &RunReport) -> io::Result<()> {
        let Some(spool) = self.spool.take() else { return Ok(()) };
        let mut spool = spool.into_inner().map_err(io::IntoInnerError::into_error)?;
        let mut frame = serde_json::to_string_pretty(&Frame::of(report)).map_err(io::Error::other)?;
        frame.push('\n');
        let cut = frame
            .find(EMPTY_CASES)
            .map(|at| at + EMPTY_CASES.len() - 1)
            .ok_or_else(|| io::Error::other("the report frame has no cases member"))?;
        let mut file = AtomicFile::create(&self.target)?;
        {
            let mut out = BufWriter::with_capacity(1 << 16, file.file());
            out.write_all(&frame.as_bytes()[..cut])?;
            if !self.spans.is_empty() {
                spool.file().seek(SeekFrom::Start(0))?;
                let mut reader = io::BufReader::with_capacity(1 << 16, spool.file());
                let mut position = 0u64;
                for (index, &(start, length)) in self.spans.iter().enumerate() {
                    out.write_all(if index == 0 { b"\n" } else { b",\n" })?;
                    if start != position {
                        reader.seek(SeekFrom::Start(start))?;
                        position = start;
                    }
                    match self.amended.get(&index) {
                        Some(text) => {
                            out.write_all(text)?;
                            reader.seek_relative(length as i64)?;
                        }
                        None => {
                            io::copy(&mut (&mut reader).take(length), &mut out)?;
                        }
                    }
                    position += length;
                }
                out.write_all(b"\n  ")?;
            }
            out.write_all(&frame.as_bytes()[cut..])?;
            out.flush()?;
        }
        file.commit()?;
        drop(spool);
        self.done = true;
        Ok(())
    }
}

impl RunConsumer for JsonStream {
    fn handle(&mut self, event: &RunEvent<'_>) {
        if self.error.is_some() {
            return;
        }
        let result = match *event {
            RunEvent::RunStarted { .. } => self.start(),
            RunEvent::CaseFinished { index, case, .. } => self.spool_case(index, case),
            RunEvent::CaseAmended { index, case } => {
                let mut text = Vec::new();
                let result = Self::case_text(case, &mut self.buffer, &mut text);
                self.amended.insert(index, text);
                result
            }
            RunEvent::RunFinished { report } => self.assemble(report),
            _ => Ok(()),
        };
        if let Err(err) = result {
            self.spool = None;
            let message = err.to_string();
            self.error = Some(if message.starts_with("cannot ") {
                err
            } else {
                io::Error::new(
                    err.kind(),
                    format!("cannot write {}: {message}", crate::files::ShowPath::shown(self.target.as_path())),
                )
            });
        }
    }
}

#[cfg(test)]
mod streamed {
    use super::*;
    use crate::report::sample;

    /// Streams `report`'s cases through a [`JsonStream`] and returns the file.
    fn streamed(report: &RunReport) -> String {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out/conform-report.json");
        let mut stream = JsonStream::new(&target);
        let info = report.implementation.clone();
        stream.handle(&RunEvent::RunStarted { cases: report.cases.len(), implementation: &info, started_at: "" });
        for (index, case) in report.cases.iter().enumerate() {
            stream.handle(&RunEvent::CaseFinished { index, case, notices: &[] });
        }
        stream.handle(&RunEvent::RunFinished { report });
        let path = stream.finish().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        // Only the report is left in the folder: the spool is gone.
        assert_eq!(std::fs::read_dir(dir.path().join("out")).unwrap().count(), 1);
        text
    }

    fn whole(report: &RunReport) -> String {
        sample::render(|out| write_json(report, out))
    }

    #[test]
    fn a_streamed_report_is_byte_identical_to_the_whole_one() {
        let report = sample::run();
        assert!(!report.cases.is_empty());
        assert_eq!(streamed(&report), whole(&report));
    }

    #[test]
    fn a_streamed_report_without_cases_is_byte_identical_too() {
        let mut report = sample::run();
        report.cases.clear();
        report.recount();
        assert_eq!(streamed(&report), whole(&report));
        let mut report = sample::run();
        report.partition = Some(Partition { index: 2, count: 3 });
        report.limits = None;
        assert_eq!(streamed(&report), whole(&report));
    }

    #[test]
    fn an_amended_case_replaces_the_spooled_one() {
        let mut report = sample::run();
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("conform-report.json");
        let mut stream = JsonStream::new(&target);
        let info = report.implementation.clone();
        stream.handle(&RunEvent::RunStarted { cases: report.cases.len(), implementation: &info, started_at: "" });
        for (index, case) in report.cases.iter().enumerate() {
            stream.handle(&RunEvent::CaseFinished { index, case, notices: &[] });
        }
        report.cases[0].message = Some("changed late".to_owned());
        stream.handle(&RunEvent::CaseAmended { index: 0, case: &report.cases[0] });
        stream.handle(&RunEvent::RunFinished { report: &report });
        let text = std::fs::read_to_string(stream.finish().unwrap()).unwrap();
        assert_eq!(text, whole(&report));
    }
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_json(&sample::run(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }
}
