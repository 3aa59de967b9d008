//! The three pipes of a child, each served by its own thread so that no
//! behavior of the child can block the harness: a stdin writer (a child that
//! never reads only blocks that thread), a stdout line reader (lines longer
//! than the limit are cut off and the rest of them skipped, never buffered),
//! and a stderr collector that keeps only a bounded tail.
//!
//! Every buffer is bounded: the writer queue holds a few messages, the line
//! queue a few lines of at most `max_output` bytes, the stderr tail a fixed
//! number of bytes. Threads end when their pipe closes or when the harness
//! side is dropped; they are never joined, so a pipe held open by a stray
//! process cannot hang the harness either.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Messages queued for stdin beyond the one being written.
const STDIN_QUEUE: usize = 8;
/// Lines read ahead of the harness (each at most `max_output` bytes).
const LINE_QUEUE: usize = 2;
/// Read buffer of the stdout and stderr threads.
const READ_CHUNK: usize = 64 * 1024;
/// Stdin is written in pieces this large so that a child that stops
/// reading can be told how far it got.
const WRITE_CHUNK: usize = 16 * 1024;

/// How far the writer got with the message it is writing.
#[derive(Debug, Default)]
pub struct WriteProgress {
    /// Length of the message being written (0 when idle).
    pub current: AtomicU64,
    /// Bytes of it the child has accepted.
    pub accepted: AtomicU64,
    /// The pipe broke (the child closed its stdin or exited).
    pub broken: AtomicBool,
}

/// Writes messages to a child's stdin on a thread of its own.
#[derive(Debug)]
pub struct StdinWriter {
    queue: Option<SyncSender<Vec<u8>>>,
    progress: Arc<WriteProgress>,
}

impl StdinWriter {
    /// Starts the writer thread.
    pub fn start(stdin: ChildStdin) -> std::io::Result<Self> {
        let (queue, messages) = sync_channel::<Vec<u8>>(STDIN_QUEUE);
        let progress = Arc::new(WriteProgress::default());
        let shared = Arc::clone(&progress);
        std::thread::Builder::new()
            .name("conform-stdin".to_owned())
            .spawn(move || write_loop(stdin, &messages, &shared))?;
        Ok(StdinWriter { queue: Some(queue), progress })
    }

    /// Queues a message. Fails when the pipe broke, stdin was closed, or the
    /// child stopped reading long enough for the queue to fill.
    pub fn send(&self, message: Vec<u8>) -> Result<(), SendError> {
        if self.progress.broken.load(Ordering::SeqCst) {
            return Err(SendError::Broken);
        }
        match self.queue.as_ref().map(|queue| queue.try_send(message)) {
            Some(Ok(())) => Ok(()),
            Some(Err(TrySendError::Full(_))) => Err(SendError::NotReading),
            Some(Err(TrySendError::Disconnected(_))) | None => Err(SendError::Broken),
        }
    }

    /// Closes stdin once the queued messages are written (the child sees
    /// end of file).
    pub fn close(&mut self) {
        self.queue = None;
    }

    /// `(accepted, length)` of the message being written, when the child has
    /// not taken all of it.
    pub fn stalled(&self) -> Option<(u64, u64)> {
        let current = self.progress.current.load(Ordering::SeqCst);
        let accepted = self.progress.accepted.load(Ordering::SeqCst);
        (current > 0 && accepted < current).then_some((accepted, current))
    }
}

/// Why a message could not be queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendError {
    /// Stdin is closed.
    Broken,
    /// The child is not reading its stdin.
    NotReading,
}

fn write_loop(mut stdin: ChildStdin, messages: &Receiver<Vec<u8>>, progress: &WriteProgress) {
    for message in messages {
        progress.accepted.store(0, Ordering::SeqCst);
        progress.current.store(message.len() as u64, Ordering::SeqCst);
        for chunk in message.chunks(WRITE_CHUNK) {
            if stdin.write_all(chunk).is_err() {
                progress.broken.store(true, Ordering::SeqCst);
                return;
            }
            progress.accepted.fetch_add(chunk.len() as u64, Ordering::SeqCst);
        }
        if stdin.flush().is_err() {
            progress.broken.store(true, Ordering::SeqCst);
            return;
        }
        progress.current.store(0, Ordering::SeqCst);
    }
}

/// What the stdout reader saw.
#[derive(Debug)]
pub enum LineEvent {
    /// A complete line, without its newline.
    Line(Vec<u8>),
    /// A line grew past the limit; it was dropped, and its remaining bytes
    /// up to the next newline are skipped.
    TooLong,
    /// Stdout closed (the child exited or closed it).
    Closed,
    /// Reading failed.
    Failed(String),
}

/// Splits a child's stdout into lines on a thread of its own.
#[derive(Debug)]
pub struct LineReader {
    lines: Receiver<LineEvent>,
    closed: bool,
}

/// What waiting for the next line gave.
#[derive(Debug)]
pub enum Next {
    /// An event from the reader.
    Event(LineEvent),
    /// The deadline passed.
    TimedOut,
    /// The run was cancelled.
    Cancelled,
}

impl LineReader {
    /// Starts the reader thread; lines longer than `max_line` bytes are
    /// reported as [`LineEvent::TooLong`] and skipped.
    pub fn start(stdout: ChildStdout, max_line: u64) -> std::io::Result<Self> {
        let (sender, lines) = sync_channel(LINE_QUEUE);
        let max_line = usize::try_from(max_line).unwrap_or(usize::MAX);
        std::thread::Builder::new()
            .name("conform-stdout".to_owned())
            .spawn(move || read_lines(stdout, max_line, &sender))?;
        Ok(LineReader { lines, closed: false })
    }

    /// Waits for the next event until `deadline`, checking `cancelled`
    /// every 50 ms.
    pub fn next(&mut self, deadline: Instant, cancelled: &dyn Fn() -> bool) -> Next {
        if self.closed {
            return Next::Event(LineEvent::Closed);
        }
        loop {
            if cancelled() {
                return Next::Cancelled;
            }
            let now = Instant::now();
            if now >= deadline {
                return Next::TimedOut;
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(event) => {
                    if matches!(event, LineEvent::Closed | LineEvent::Failed(_)) {
                        self.closed = true;
                    }
                    return Next::Event(event);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Next::Event(LineEvent::Closed);
                }
            }
        }
    }
}

fn read_lines(stdout: ChildStdout, max_line: usize, sender: &SyncSender<LineEvent>) {
    let mut reader = BufReader::with_capacity(READ_CHUNK, stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => {
                let _ = sender.send(LineEvent::Failed(err.to_string()));
                return;
            }
        };
        if buffer.is_empty() {
            if !line.is_empty() && !skipping {
                // A last line without its newline still counts.
                let _ = sender.send(LineEvent::Line(std::mem::take(&mut line)));
            }
            let _ = sender.send(LineEvent::Closed);
            return;
        }
        let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end, true),
            None => (buffer.len(), false),
        };
        let mut event = None;
        if !skipping {
            if line.len().saturating_add(taken) > max_line {
                skipping = true;
                line = Vec::new();
                event = Some(LineEvent::TooLong);
            } else {
                line.extend_from_slice(&buffer[..taken]);
                if complete {
                    event = Some(LineEvent::Line(std::mem::take(&mut line)));
                }
            }
        }
        reader.consume(taken + usize::from(complete));
        if complete {
            skipping = false;
        }
        if let Some(event) = event
            && sender.send(event).is_err()
        {
            // The harness let go of this process.
            return;
        }
    }
}

/// The bounded tail of a child's stderr, with a running byte count so that
/// each case can take what was written while it ran.
#[derive(Debug)]
pub struct StderrTail {
    state: Mutex<TailState>,
    closed: Condvar,
    keep: usize,
}

#[derive(Debug, Default)]
struct TailState {
    tail: VecDeque<u8>,
    total: u64,
    closed: bool,
}

impl StderrTail {
    /// Starts the collector thread, keeping the last `keep` bytes.
    pub fn start(stderr: ChildStderr, keep: usize) -> std::io::Result<Arc<Self>> {
        let tail = Arc::new(StderrTail { state: Mutex::default(), closed: Condvar::new(), keep: keep.max(1) });
        let shared = Arc::clone(&tail);
        std::thread::Builder::new().name("conform-stderr".to_owned()).spawn(move || shared.collect(stderr))?;
        Ok(tail)
    }

    fn collect(&self, mut stderr: ChildStderr) {
        let mut chunk = vec![0u8; READ_CHUNK];
        loop {
            let read = match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let mut state = self.lock();
            state.total += read as u64;
            let fresh = &chunk[..read];
            let fresh = &fresh[fresh.len().saturating_sub(self.keep)..];
            state.tail.extend(fresh);
            let excess = state.tail.len().saturating_sub(self.keep);
            state.tail.drain(..excess);
        }
        self.lock().closed = true;
        self.closed.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TailState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Bytes written so far (a mark for [`StderrTail::since`]).
    pub fn total(&self) -> u64 {
        self.lock().total
    }

    /// Waits up to `limit` for stderr to close (so that a dying process's
    /// last words are in the tail).
    pub fn wait_closed(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut state = self.lock();
        while !state.closed {
            let now = Instant::now();
            if now >= deadline {
                return;
            }
            state = match self.closed.wait_timeout(state, deadline - now) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    /// What was written since `mark`, at most the kept tail; `None` when
    /// nothing was. A note says how much was dropped.
    pub fn since(&self, mark: u64) -> Option<String> {
        let state = self.lock();
        let written = state.total.saturating_sub(mark);
        if written == 0 {
            return None;
        }
        let available = state.tail.len().min(usize::try_from(written).unwrap_or(usize::MAX));
        let start = state.tail.len() - available;
        let bytes: Vec<u8> = state.tail.range(start..).copied().collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let dropped = written - available as u64;
        if dropped > 0 {
            Some(format!("[… {} of stderr before this not kept …]\n{text}", super::options::describe_size(dropped)))
        } else {
            Some(text)
        }
    }
}

/// The last non-empty line of a stderr excerpt (for one-line messages).
pub fn last_line(stderr: Option<&str>) -> Option<String> {
    let line = stderr?.lines().rev().map(str::trim).find(|line| !line.is_empty())?;
    Some(super::protocol::excerpt(line))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    fn spawn(script: &str) -> std::process::Child {
        Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn deadline() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    fn next_line(reader: &mut LineReader) -> LineEvent {
        match reader.next(deadline(), &|| false) {
            Next::Event(event) => event,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn long_lines_are_cut_off_and_the_stream_stays_in_step() {
        let mut child = spawn("printf 'short\\n'; head -c 300000 /dev/zero | tr '\\0' x; printf '\\nafter\\nlast'");
        let mut reader = LineReader::start(child.stdout.take().unwrap(), 1000).unwrap();
        assert!(matches!(next_line(&mut reader), LineEvent::Line(line) if line == b"short"));
        assert!(matches!(next_line(&mut reader), LineEvent::TooLong));
        assert!(matches!(next_line(&mut reader), LineEvent::Line(line) if line == b"after"));
        assert!(matches!(next_line(&mut reader), LineEvent::Line(line) if line == b"last"));
        assert!(matches!(next_line(&mut reader), LineEvent::Closed));
        assert!(matches!(next_line(&mut reader), LineEvent::Closed));
        child.wait().unwrap();
    }

    #[test]
    fn a_child_that_never_reads_blocks_only_the_writer() {
        let mut child = Command::new("sleep").arg("30").stdin(Stdio::piped()).spawn().unwrap();
        let writer = StdinWriter::start(child.stdin.take().unwrap()).unwrap();
        writer.send(vec![b'x'; 1 << 20]).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let (accepted, of) = writer.stalled().expect("the pipe fills up");
        assert!(accepted < of && of == 1 << 20);
        child.kill().unwrap();
        child.wait().unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(writer.send(b"more".to_vec()), Err(SendError::Broken));
    }

    #[test]
    fn stderr_keeps_a_bounded_tail_per_mark() {
        let mut child = spawn(
            "printf 'first\\n' >&2; sleep 0.2; head -c 100000 /dev/zero | tr '\\0' e >&2; printf '\\nlast words\\n' >&2",
        );
        let tail = StderrTail::start(child.stderr.take().unwrap(), 1000).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let mark = tail.total();
        assert_eq!(tail.since(0).as_deref(), Some("first\n"));
        child.wait().unwrap();
        tail.wait_closed(Duration::from_secs(10));
        let since = tail.since(mark).unwrap();
        assert!(since.starts_with("[… 96.7 KiB of stderr before this not kept …]\n"), "{}", &since[..60]);
        assert!(since.ends_with("eee\nlast words\n"));
        assert_eq!(last_line(Some(&since)).as_deref(), Some("last words"));
        assert_eq!(tail.since(tail.total()), None);
    }
}
