//! One-shot mode (`--one-shot`), for the simplest wrappers: the command runs
//! once per case with `CONFORM_SUITE`, `CONFORM_FIXTURE` and
//! `CONFORM_FIXTURE_VERSION` in its environment and the case's input as the
//! whole of stdin, and prints the output JSON on stdout.
//!
//! Exit status 0 means output; any other exit status means `error`, with the
//! tail of stderr as the message; death by a signal is a `crash`; silence
//! past the time limit a `timeout`. Stdout beyond `--max-output` is not
//! kept and the case is a `protocol-error`.

use super::child::{ChildPipes, ChildProcess, describe_status, killed_by_signal};
use super::command::CommandLine;
use super::error::StartError;
use super::options::{SubprocessOptions, describe_duration, describe_size};
use super::pipes::{StderrTail, StdinWriter, last_line};
use super::protocol::excerpt;
use super::session::interrupted;
use crate::implementation::{CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome};
use crate::json::{self, Style};
use std::io::Read;
use std::process::ExitStatus;
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::{Duration, Instant};

/// How long stdout and stderr get to drain after the process exited.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Longest error message taken from stderr.
const MESSAGE_TAIL_CHARS: usize = 2000;

/// An external implementation run once per case.
#[derive(Debug)]
pub struct OneShotImplementation {
    command: CommandLine,
    options: SubprocessOptions,
}

/// The stdout of a one-shot run.
#[derive(Debug, Default)]
struct Collected {
    bytes: Vec<u8>,
    /// Total bytes written (more than `bytes` when over the limit).
    total: u64,
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
        let output = collect(stdout, self.options.max_output).map_err(threads_failed)?;
        let mut input = json::write_value(request.input, Style::STRINGIFY_COMPACT);
        input.push('\n');
        // A child that exits without reading its stdin is not an error.
        let _ = writer.send(input.into_bytes());
        writer.close();

        let deadline = Instant::now() + self.options.timeout;
        let status = loop {
            let slice = (Instant::now() + Duration::from_millis(50)).min(deadline);
            if let Some(status) = process.wait_until(slice) {
                break Some(status);
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
        // Exiting killed the rest of the process group, so both pipes close.
        let collected: Collected = output.recv_timeout(DRAIN_GRACE).unwrap_or_default();
        stderr.wait_closed(DRAIN_GRACE);
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
        match json::parse_value(text) {
            Ok(output) => Outcome::Output(output),
            Err(err) => Outcome::ProtocolError(format!(
                "stdout is not one JSON value ({err}); it starts `{}` (print logs to stderr)",
                excerpt(text.trim_start())
            )),
        }
    }
}

/// Reads all of stdout on a thread, keeping at most `max` bytes.
fn collect(stdout: std::process::ChildStdout, max: u64) -> std::io::Result<Receiver<Collected>> {
    let (sender, receiver) = sync_channel(1);
    std::thread::Builder::new().name("conform-stdout".to_owned()).spawn(move || {
        let mut stdout = stdout;
        let mut collected = Collected::default();
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match stdout.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    collected.total += n as u64;
                    let room = usize::try_from(max.saturating_sub(collected.bytes.len() as u64)).unwrap_or(usize::MAX);
                    collected.bytes.extend_from_slice(&chunk[..n.min(room)]);
                }
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = sender.send(collected);
    })?;
    Ok(receiver)
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
