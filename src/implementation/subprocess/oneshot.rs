//! One-shot mode (`--one-shot`), for the simplest wrappers: the command runs
//! once per case with `CONFORM_SUITE`, `CONFORM_FIXTURE` and
//! `CONFORM_FIXTURE_VERSION` in its environment and the case's input as the
//! whole of stdin, and prints the output JSON on stdout.
//!
//! Exit status 0 means output; any other exit status means `error`, with the
//! tail of stderr as the message; death by a signal is a `crash`; silence
//! past the time limit a `timeout`. Stdout beyond `--max-output` is not
//! kept and the case is a `protocol-error`.
//!
//! The case is judged as soon as the process has exited, on what it wrote
//! until then: a grandchild that left the process group and still holds
//! stdout neither delays the verdict nor takes the output away.

use super::child::{ChildPipes, ChildProcess, describe_status, killed_by_signal};
use super::collector::{Collected, StdoutCollector};
use super::command::CommandLine;
use super::error::StartError;
use super::options::{SubprocessOptions, describe_duration, describe_size};
use super::pipes::{StderrTail, StdinWriter, last_line};
use super::protocol::excerpt;
use super::session::interrupted;
use crate::implementation::{CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome};
use crate::json;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// How long stderr gets to drain after the process exited.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// The same when a process left behind still holds stdout (and so, most
/// likely, stderr): the end of file may never come.
const HELD_GRACE: Duration = Duration::from_millis(100);
/// Longest error message taken from stderr.
const MESSAGE_TAIL_CHARS: usize = 2000;

/// An external implementation run once per case.
#[derive(Debug)]
pub struct OneShotImplementation {
    command: CommandLine,
    options: SubprocessOptions,
}

impl OneShotImplementation {
    /// Checks that the command can be started.
    pub fn new(command: CommandLine, options: SubprocessOptions) -> Result<Self, StartError> {
        command.check_startable()?;
        Ok(OneShotImplementation { command, options })
    }

    fn run(&self, request: &CaseRequest<'_>) -> Result<CaseRun, StartError> {
        let version = request.fixture_version.to_string();
        let env = [
            ("CONFORM_SUITE", request.suite),
            ("CONFORM_FIXTURE", request.fixture),
            ("CONFORM_FIXTURE_VERSION", version.as_str()),
        ];
        let (mut process, ChildPipes { stdin, stdout, stderr }) = ChildProcess::spawn(&self.command, &env)?;
        let threads_failed = |err: std::io::Error| StartError::Spawn {
            program: self.command.program().to_owned(),
            message: err.to_string(),
        };
        let mut writer = StdinWriter::start(stdin).map_err(threads_failed)?;
        let stderr = StderrTail::start(stderr, self.options.stderr_tail).map_err(threads_failed)?;
        let mut output = StdoutCollector::start(stdout, self.options.max_output).map_err(threads_failed)?;
        let mut input = String::new();
        super::wire::write_input(request.input, &mut input);
        input.push('\n');
        // A child that exits without reading its stdin is not an error.
        let _ = writer.send(input.into_bytes());
        writer.close();

        let deadline = Instant::now() + self.options.timeout;
        let status = loop {
            let slice = (Instant::now() + Duration::from_millis(50)).min(deadline);
            if output.closed() {
                if let Some(status) = process.wait_until(slice) {
                    break Some(status);
                }
            } else {
                output.wait(slice);
                if let Some(status) = process.try_status() {
                    break Some(status);
                }
            }
            if self.options.cancelled() {
                process.kill();
                return Ok(CaseRun { outcome: Outcome::Error(interrupted()), stderr: stderr.since(0) });
            }
            if Instant::now() >= deadline {
                break None;
            }
        };
        let Some(status) = status else {
            let stalled = writer.stalled();
            process.kill();
            stderr.wait_closed(Duration::from_millis(100));
            let detail = match stalled {
                Some((accepted, of)) => {
                    format!("; it had read only {} of its {} input", describe_size(accepted), describe_size(of))
                }
                None => String::new(),
            };
            let message =
                format!("no exit within {}; the process was killed{detail}", describe_duration(self.options.timeout));
            return Ok(CaseRun { outcome: Outcome::Timeout(message), stderr: stderr.since(0) });
        };
        // Exiting killed the rest of the process group, so the pipes close
        // unless a process that left the group holds them.
        let held = !output.closed();
        let collected = output.drain();
        stderr.wait_closed(if held { HELD_GRACE } else { DRAIN_GRACE });
        let stderr_text = stderr.since(0);
        Ok(CaseRun { outcome: self.judge_exit(status, &collected, stderr_text.as_deref()), stderr: stderr_text })
    }

    fn judge_exit(&self, status: ExitStatus, collected: &Collected, stderr: Option<&str>) -> Outcome {
        let how = describe_status(status);
        if killed_by_signal(status) {
            let last = last_line(stderr).map(|l| format!(" (last stderr line: {l})")).unwrap_or_default();
            return Outcome::Crash(format!("the implementation was {how}{last}"));
        }
        if !status.success() {
            return Outcome::Error(match stderr.map(str::trim).filter(|s| !s.is_empty()) {
                Some(text) => tail_chars(text, MESSAGE_TAIL_CHARS),
                None => format!("the implementation ended with {how} and wrote nothing to stderr"),
            });
        }
        if collected.total > collected.bytes.len() as u64 {
            return Outcome::ProtocolError(format!(
                "stdout ({}) is larger than --max-output ({})",
                describe_size(collected.total),
                describe_size(self.options.max_output)
            ));
        }
        let text = match std::str::from_utf8(&collected.bytes) {
            Ok(text) => text,
            Err(err) => {
                return Outcome::ProtocolError(format!(
                    "stdout is not UTF-8 (invalid byte at offset {})",
                    err.valid_up_to()
                ));
            }
        };
        if text.trim().is_empty() {
            return Outcome::ProtocolError(
                "the implementation exited with status 0 but wrote nothing to stdout (it must print the output JSON)"
                    .to_owned(),
            );
        }
        match json::parse_bounded(text) {
            Ok(output) => Outcome::Output(output),
            Err(err) => Outcome::ProtocolError(format!(
                "stdout is not one JSON value ({err}); it starts `{}` (print logs to stderr)",
                excerpt(text.trim_start())
            )),
        }
    }
}

fn tail_chars(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max { text.to_owned() } else { format!("…{}", text.chars().skip(count - max).collect::<String>()) }
}

impl Implementation for OneShotImplementation {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo {
            name: self.command.short_name(),
            version: "unknown".to_owned(),
            language: "unknown".to_owned(),
            kind: ImplementationKind::Subprocess,
            command: Some(self.command.text().to_owned()),
        }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        self.run(request).unwrap_or_else(|err| Outcome::Error(format!("not run: {err}")).into())
    }
}
