//! One `conform run`, from the planned selection to the report files, in
//! the steps whose output the binary prints in between:
//!
//! 1. [`RunSession::prepare`]: the selection narrowed to the suites the
//!    implementation declares (unless the user named suites) and to this
//!    run's share (`--partition`), with what the report records of it and
//!    the notices to tell before the run;
//! 2. [`ReadyRun::run`]: the streaming run, the JSON report spooled as it
//!    goes;
//! 3. [`FinishedRun`]: the notices the run found at its end, the terminal
//!    report, the report files and the exit code.
//!
//! The binary parses the flags into [`RunSession`], starts the
//! implementation, shows progress and prints what these return.

use super::execute::{BaselineOptions, Keep, RunOptions, run};
use super::select::{in_partition, keep_declared_suites, summarize_selection};
use crate::error::exit_code;
use crate::fixture::{FixturePlan, Notice};
use crate::implementation::Implementation;
use crate::implementation::subprocess::protocol::HelloReply;
use crate::report::{
    FileOptions, FilesWritten, Format, JsonStream, JunitOptions, Partition, PrettyOptions, RunConsumer, RunReport,
    SelectionSummary, visible_controls, write_files, write_pretty,
};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Everything a run is asked to do, built whole from the flags.
#[derive(Debug)]
pub struct RunSession<'a> {
    /// Report formats, as [`report_formats`] completes what was asked.
    pub formats: Vec<Format>,
    /// Folder for report files.
    pub out: &'a Path,
    /// List every case in the terminal report (and keep every case).
    pub verbose: bool,
    /// Most characters of the Markdown report.
    pub markdown_limit: usize,
    /// JUnit options.
    pub junit: JunitOptions,
    /// Worker threads (0 = one per available core).
    pub jobs: usize,
    /// Fixture paths as given (recorded in the report).
    pub paths: &'a [PathBuf],
    /// `--suite` values as given: when there are none, the run keeps to the
    /// suites the implementation declares.
    pub suites: &'a [String],
    /// `--filter` values as given (recorded in the report).
    pub filters: &'a [String],
    /// The shard this run covers, if partitioned.
    pub partition: Option<Partition>,
    /// Set from another thread (Ctrl-C) to stop starting new cases.
    pub cancel: Option<&'a AtomicBool>,
    /// A baseline to apply.
    pub baseline: Option<BaselineOptions<'a>>,
}

/// The report formats of a run: those asked (pretty and JSON when none
/// was), with JSON added whenever any report file is written.
pub fn report_formats(asked: &[Format]) -> Vec<Format> {
    let mut formats = asked.to_vec();
    if formats.is_empty() {
        formats = vec![Format::Pretty, Format::Json];
    }
    // The JSON report is the run's record, which `baseline write`, `compare` and `report merge` read: a run that
    // writes report files writes it too, so none of them can read an older run's by mistake.
    if formats.iter().any(|format| format.file_name().is_some()) && !formats.contains(&Format::Json) {
        formats.push(Format::Json);
    }
    formats
}

impl RunSession<'_> {
    /// Which cases the report keeps: only reports that list every case need
    /// the passing ones.
    fn keep(&self) -> Keep {
        let lists_every_case = self.verbose
            || self.formats.iter().any(|format| matches!(format, Format::Junit | Format::Markdown | Format::Html));
        if lists_every_case { Keep::All } else { Keep::NotPassed }
    }

    /// Step 1 (see the module docs): `indexes` is the whole selection of
    /// `plan` (every shard's); `hello` is the implementation's, when it
    /// sent one.
    pub fn prepare(&self, plan: FixturePlan, mut indexes: Vec<usize>, hello: Option<&HelloReply>) -> ReadyRun {
        let mut notices = Vec::new();
        // A team that implements some suites gets reports of those: the others could only be `unsupported`.
        if let Some(hello) = hello.filter(|_| self.suites.is_empty()) {
            let left_out = keep_declared_suites(plan.ids(), &mut indexes, |suite| hello.versions(suite).is_some());
            notices.extend(declared_suites_note(hello, &left_out));
        }
        // An empty shard is normal when a small corpus is split many ways.
        let whole: Vec<&str> = indexes.iter().map(|&index| plan.id(index)).collect();
        let share: Vec<usize> =
            indexes.iter().copied().filter(|&index| in_partition(plan.id(index), self.partition)).collect();
        let selection = summarize_selection(self.paths, self.suites, self.filters, &whole, share.len());
        drop(whole);
        ReadyRun { plan, indexes: share, selection, notices }
    }

    fn file_options(&self, json_streamed: bool) -> FileOptions {
        FileOptions { markdown_limit: self.markdown_limit, junit: self.junit, json_streamed }
    }
}

/// The note naming the suites a run left out because the implementation
/// does not declare them.
fn declared_suites_note(hello: &HelloReply, left_out: &[(String, usize)]) -> Option<Notice> {
    if left_out.is_empty() {
        return None;
    }
    let listed: Vec<String> = left_out
        .iter()
        .map(|(suite, count)| format!("{suite} ({count} {})", if *count == 1 { "fixture" } else { "fixtures" }))
        .collect();
    Some(Notice::note(format!(
        "running the suites the implementation declares ({}); left out, since every case of theirs would be \
         `unsupported`: {} (name them with --suite to run them anyway)",
        visible_controls(&hello.suite_list()),
        listed.join(", ")
    )))
}

/// A run ready to start: the fixtures it covers and what to tell first.
#[derive(Debug)]
pub struct ReadyRun {
    /// The discovered fixtures, with discovery's notices.
    pub plan: FixturePlan,
    /// Indexes into the plan of the fixtures this run covers.
    pub indexes: Vec<usize>,
    /// What the run selected, for its report.
    pub selection: SelectionSummary,
    /// What to tell before the run (which suites were left out).
    pub notices: Vec<Notice>,
}

impl ReadyRun {
    /// Step 2: runs the fixtures through `implementation`, telling
    /// `consumer` (progress, notices) and the spooled JSON report each event.
    pub fn run(
        self,
        implementation: &dyn Implementation,
        session: &RunSession<'_>,
        consumer: &mut dyn RunConsumer,
    ) -> FinishedRun {
        let options = RunOptions {
            jobs: session.jobs,
            paths: session.paths.to_vec(),
            partition: session.partition,
            selection: Some(self.selection),
            cancel: session.cancel,
            baseline: session.baseline,
            keep: session.keep(),
        };
        let json_path = Format::Json
            .file_name()
            .map(|name| session.out.join(name))
            .filter(|_| session.formats.contains(&Format::Json));
        let mut json = json_path.as_deref().map(JsonStream::new);
        let report = {
            let mut consumers: Vec<&mut dyn RunConsumer> = vec![consumer];
            if let Some(json) = json.as_mut() {
                consumers.push(json);
            }
            run(&self.plan, &self.indexes, implementation, &options, &mut consumers)
        };
        FinishedRun { report, json }
    }
}

/// A run that is over: its report and the JSON report still to finish.
#[derive(Debug)]
pub struct FinishedRun {
    /// The run's report.
    pub report: RunReport,
    json: Option<JsonStream>,
}

impl FinishedRun {
    /// The report's notices after the first `told` (those the consumers
    /// were told as the run went): what the run itself found at its end (a
    /// baseline written for another implementation, an interruption).
    pub fn notices_after(&self, told: usize) -> &[Notice] {
        &self.report.notices[told.min(self.report.notices.len())..]
    }

    /// Writes the terminal report when `formats` asks for it, else the
    /// summary line.
    pub fn write_terminal(
        &self,
        session: &RunSession<'_>,
        out: &mut dyn io::Write,
        options: &PrettyOptions,
    ) -> io::Result<()> {
        if session.formats.contains(&Format::Pretty) {
            write_pretty(&self.report, out, options)
        } else {
            writeln!(out, "{}", self.report.summary.summary_line())
        }
    }

    /// Writes the report files (the JSON report was spooled as the run
    /// went and is finished last, so it is the newest): their paths, in the
    /// order of `formats`. Every file is attempted and every failure kept,
    /// naming its file; the JSON report's first, as it is the run's record
    /// (`baseline write`, `compare` and `report merge` read it).
    pub fn write_files(&mut self, session: &RunSession<'_>) -> FilesWritten {
        let options = session.file_options(self.json.is_some());
        let mut files = write_files(&self.report, &session.formats, session.out, &options);
        if let Some(json) = self.json.take() {
            match json.finish() {
                Ok(path) => {
                    let position =
                        session.formats.iter().filter(|f| f.file_name().is_some()).position(|f| *f == Format::Json);
                    files.written.insert(position.unwrap_or(0).min(files.written.len()), path);
                }
                Err(err) => files.failed.insert(0, err),
            }
        }
        files
    }

    /// The run's exit code, and the error to tell with it: an interrupted
    /// run says so in its own code; a run that judged no case fails unless
    /// `allow_no_judged`.
    pub fn exit_code(&self, interrupted: bool, allow_no_judged: bool) -> (i32, Option<String>) {
        if interrupted {
            return (exit_code::INTERRUPTED, None);
        }
        match self.report.nothing_judged().filter(|_| !allow_no_judged) {
            Some(reason) => (self.report.exit_code().max(exit_code::FAILURES), Some(reason)),
            None => (self.report.exit_code(), None),
        }
    }
}
