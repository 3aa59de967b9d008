//! One running implementation process with its pipes: the
//! transport both modes and `check-adapter` build on. It knows bytes, lines
//! and exits, not protocol messages.

use super::child::{ChildPipes, ChildProcess, describe_status};
use super::command::CommandLine;
use super::duplex::Duplex;
use super::error::StartError;
use super::options::{SubprocessOptions, describe_size};
use super::pipes::{Next, SendError, StderrExcerpt, StderrTail};
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a process that closed its stdout gets to exit before it is
/// killed, and how long its stderr gets to drain after it exited.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// A started implementation process.
#[derive(Debug)]
pub struct Connection {
    process: ChildProcess,
    duplex: Duplex,
    stderr: Arc<StderrTail>,
    options: SubprocessOptions,
}

impl Connection {
    /// Starts `command` (with `env` added) and its pipe threads.
    pub fn open(command: &CommandLine, env: &[(&str, &str)], options: &SubprocessOptions) -> Result<Self, StartError> {
        let (process, ChildPipes { stdin, stdout, stderr }) = ChildProcess::spawn(command, env)?;
        let threads_failed =
            |err: std::io::Error| StartError::Spawn { program: command.program().to_owned(), message: err.to_string() };
        // On failure here `process` is dropped, which kills and reaps it.
        let duplex = Duplex::new(stdin, stdout, options.max_output).map_err(threads_failed)?;
        let stderr = StderrTail::start(stderr, options.stderr_tail).map_err(threads_failed)?;
        Ok(Connection { process, duplex, stderr, options: options.clone() })
    }

    /// The options it runs under.
    pub fn options(&self) -> &SubprocessOptions {
        &self.options
    }

    /// Sends a message on stdin.
    pub fn send(&mut self, message: Vec<u8>) -> Result<(), SendError> {
        self.duplex.send(message)
    }

    /// Closes stdin after the queued messages.
    pub fn close_stdin(&mut self) {
        self.duplex.close_stdin();
    }

    /// The next stdout event before `deadline` (or cancellation). Stdout
    /// ends when the process has exited, even if a process it left behind
    /// still holds the pipe.
    pub fn next(&mut self, deadline: Instant) -> Next {
        let options = &self.options;
        let process = &mut self.process;
        self.duplex.next(deadline, &|| options.cancelled(), &mut || process.try_status().is_some())
    }

    /// A mark in the stderr stream, after reading what the pipe holds: it
    /// counts everything the process wrote before the harness saw its last
    /// stdout line (see [`StderrTail::sync`]).
    pub fn stderr_mark(&self) -> u64 {
        self.stderr.sync();
        self.stderr.total()
    }

    /// Stderr written from mark `start` to mark `end` (bounded).
    pub fn stderr_between(&self, start: u64, end: u64) -> Option<StderrExcerpt> {
        self.stderr.between(start, end)
    }

    /// Stderr written since `mark` (bounded), up to what the pipe holds now.
    pub fn stderr_since(&self, mark: u64) -> Option<String> {
        self.stderr.sync();
        self.stderr.since(mark)
    }

    /// Bytes of stderr written so far (what the pipe holds included).
    pub fn stderr_total(&self) -> u64 {
        self.stderr_mark()
    }

    /// `(accepted, length)` of a message the child has not finished reading.
    pub fn stdin_stalled(&self) -> Option<(u64, u64)> {
        self.duplex.stalled()
    }

    /// Bytes of a stdout line received without its newline (yet).
    pub fn partial_line(&self) -> usize {
        self.duplex.partial_line()
    }

    /// Why a reply may not have arrived, for timeout messages: an unread
    /// request or an unterminated line.
    pub fn silence_hint(&self) -> Option<String> {
        if let Some((accepted, of)) = self.stdin_stalled() {
            return Some(format!(
                "it had read only {} of the {} request from its stdin (it must read stdin while it works)",
                describe_size(accepted),
                describe_size(of)
            ));
        }
        match self.partial_line() {
            0 => None,
            bytes => Some(format!(
                "it wrote {} on stdout without a final newline: end each message with \\n and flush",
                describe_size(bytes as u64)
            )),
        }
    }

    /// The exit status, if the process has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.process.try_status()
    }

    /// Time since the process started.
    pub fn age(&self) -> Duration {
        self.process.age()
    }

    /// After stdout closed: waits briefly for the exit, kills the process if
    /// it lingers, lets stderr drain, and says what happened.
    pub fn ended(&mut self) -> String {
        let status = self.process.wait_until(Instant::now() + EXIT_GRACE);
        let description = match status {
            Some(status) => describe_status(status),
            None => {
                self.process.kill();
                "closed its stdout without exiting, and was killed".to_owned()
            }
        };
        self.stderr.wait_closed(EXIT_GRACE);
        description
    }

    /// Waits until `deadline` for the process to exit on its own.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        self.process.wait_until(deadline)
    }

    /// Kills the process (and its group) and reaps it.
    pub fn kill(&mut self) {
        self.process.kill();
        self.stderr.wait_closed(Duration::from_millis(100));
    }
}
