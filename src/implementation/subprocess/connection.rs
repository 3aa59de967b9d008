//! One running implementation process with its three pipe threads: the
//! transport both modes and `check-adapter` build on. It knows bytes, lines
//! and exits, not protocol messages.

use super::child::{ChildPipes, ChildProcess, describe_status};
use super::command::CommandLine;
use super::error::StartError;
use super::options::SubprocessOptions;
use super::pipes::{LineReader, Next, SendError, StderrTail, StdinWriter};
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
    stdin: StdinWriter,
    stdout: LineReader,
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
        let stdin = StdinWriter::start(stdin).map_err(threads_failed)?;
        let stdout = LineReader::start(stdout, options.max_output).map_err(threads_failed)?;
        let stderr = StderrTail::start(stderr, options.stderr_tail).map_err(threads_failed)?;
        Ok(Connection { process, stdin, stdout, stderr, options: options.clone() })
    }

    /// The options it runs under.
    pub fn options(&self) -> &SubprocessOptions {
        &self.options
    }

    /// Queues a message for stdin.
    pub fn send(&self, message: Vec<u8>) -> Result<(), SendError> {
        self.stdin.send(message)
    }

    /// Closes stdin after the queued messages.
    pub fn close_stdin(&mut self) {
        self.stdin.close();
    }

    /// The next stdout event before `deadline` (or cancellation).
    pub fn next(&mut self, deadline: Instant) -> Next {
        let options = &self.options;
        self.stdout.next(deadline, &|| options.cancelled())
    }

    /// A mark in the stderr stream.
    pub fn stderr_mark(&self) -> u64 {
        self.stderr.total()
    }

    /// Stderr written since `mark` (bounded).
    pub fn stderr_since(&self, mark: u64) -> Option<String> {
        self.stderr.since(mark)
    }

    /// Bytes of stderr written so far.
    pub fn stderr_total(&self) -> u64 {
        self.stderr.total()
    }

    /// `(accepted, length)` of a message the child has not finished reading.
    pub fn stdin_stalled(&self) -> Option<(u64, u64)> {
        self.stdin.stalled()
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
