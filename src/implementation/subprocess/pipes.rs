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
use std::io::{Read, Write};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Messages queued for stdin beyond the one being written.
const STDIN_QUEUE: usize = 8;
/// Lines read ahead of the harness (each at most `max_output` bytes).
const LINE_QUEUE: usize = 2;
/// Read buffer of the stdout and stderr readers.
pub const READ_CHUNK: usize = 64 * 1024;
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

fn read_lines(mut stdout: ChildStdout, max_line: usize, sender: &SyncSender<LineEvent>) {
    let mut splitter = LineSplitter::new(max_line);
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut events = VecDeque::new();
    loop {
        let read = match stdout.read(&mut chunk) {
            Ok(n) => n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => {
                let _ = sender.send(LineEvent::Failed(err.to_string()));
                return;
            }
        };
        if read == 0 {
            splitter.finish(&mut events);
        } else {
            splitter.feed(&chunk[..read], &mut events);
        }
        while let Some(event) = events.pop_front() {
            let last = matches!(event, LineEvent::Closed);
            if sender.send(event).is_err() || last {
                // Done, or the harness let go of this process.
                return;
            }
        }
    }
}

/// Splits a byte stream into lines, bounding each: a line that grows past
/// `max` bytes is reported once as [`LineEvent::TooLong`] and the rest of it,
/// up to the next newline, is skipped without being kept.
#[derive(Debug)]
pub struct LineSplitter {
    max: usize,
    line: Vec<u8>,
    skipping: bool,
}

impl LineSplitter {
    /// A splitter for lines of at most `max` bytes.
    pub fn new(max: usize) -> Self {
        LineSplitter { max, line: Vec::new(), skipping: false }
    }

    /// Consumes `bytes`, appending the events they complete to `out`.
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut VecDeque<LineEvent>) {
        while !bytes.is_empty() {
            let (taken, complete) = match bytes.iter().position(|&b| b == b'\n') {
                Some(end) => (end, true),
                None => (bytes.len(), false),
            };
            if !self.skipping {
                if self.line.len().saturating_add(taken) > self.max {
                    self.skipping = true;
                    self.line = Vec::new();
                    out.push_back(LineEvent::TooLong);
                } else {
                    self.line.extend_from_slice(&bytes[..taken]);
                    if complete {
                        out.push_back(LineEvent::Line(std::mem::take(&mut self.line)));
                    }
                }
            }
            if complete {
                self.skipping = false;
            }
            bytes = &bytes[taken + usize::from(complete)..];
        }
    }

    /// Bytes of a line received so far without its newline.
    pub fn partial(&self) -> usize {
        self.line.len()
    }

    /// The end of the stream: a last line without its newline still counts.
    pub fn finish(&mut self, out: &mut VecDeque<LineEvent>) {
        if !self.line.is_empty() && !self.skipping {
            out.push_back(LineEvent::Line(std::mem::take(&mut self.line)));
        }
        out.push_back(LineEvent::Closed);
    }
}

/// The bounded tail of a child's stderr, with a running byte count so that
/// each case can take exactly what was written while it was in flight.
///
/// A collector thread keeps the pipe drained, so a child that floods stderr
/// never blocks. Stdout and stderr are two pipes with no order between them,
/// so when a case's result line arrives, what the child wrote on stderr just
/// before it may still sit in the pipe: [`StderrTail::sync`] lets the thread
/// running the case read the pipe to its current end itself. The collector
/// and `sync` read under the same lock, so bytes are counted in the order
/// they were written and none is between the pipe and the tail when a mark
/// is taken. (Elsewhere than on Unix the collector reads alone and `sync`
/// does nothing.)
#[derive(Debug)]
pub struct StderrTail {
    state: Mutex<TailState>,
    closed: Condvar,
    keep: usize,
}

#[derive(Debug)]
struct TailState {
    tail: VecDeque<u8>,
    total: u64,
    closed: bool,
    /// The pipe, read by the collector and by `sync` (Unix); closed only
    /// when the tail is dropped, so its descriptor stays the pipe's for as
    /// long as the collector polls it.
    #[cfg(unix)]
    pipe: ChildStderr,
    #[cfg(unix)]
    chunk: Vec<u8>,
}

/// Chunks [`StderrTail::sync`] reads at most: what was written before a
/// result line is in the pipe already (a pipe holds 64 KiB by default, 1 MiB
/// at most without privileges), and a child still writing cannot keep the
/// harness reading.
#[cfg(unix)]
const SYNC_CHUNKS: usize = 64;

/// Adds `fresh` bytes to a tail that keeps the last `keep`.
fn append(tail: &mut VecDeque<u8>, total: &mut u64, keep: usize, fresh: &[u8]) {
    *total += fresh.len() as u64;
    tail.extend(&fresh[fresh.len().saturating_sub(keep)..]);
    let excess = tail.len().saturating_sub(keep);
    tail.drain(..excess);
}

/// What a stretch of stderr held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StderrExcerpt {
    /// The kept bytes, as text.
    pub text: String,
    /// Bytes of the stretch before `text` that the tail no longer held.
    pub dropped: u64,
}

impl StderrExcerpt {
    /// The text, after a note on what was dropped, if anything was.
    pub fn shown(self) -> String {
        if self.dropped > 0 {
            format!(
                "[… {} of stderr before this not kept …]\n{}",
                super::options::describe_size(self.dropped),
                self.text
            )
        } else {
            self.text
        }
    }
}

impl StderrTail {
    /// Starts the collector thread, keeping the last `keep` bytes.
    #[cfg(unix)]
    pub fn start(stderr: ChildStderr, keep: usize) -> std::io::Result<Arc<Self>> {
        use std::os::fd::AsRawFd;
        super::duplex::set_nonblocking(&stderr)?;
        let fd = stderr.as_raw_fd();
        let state =
            TailState { tail: VecDeque::new(), total: 0, closed: false, pipe: stderr, chunk: vec![0u8; READ_CHUNK] };
        let tail = Arc::new(StderrTail { state: Mutex::new(state), closed: Condvar::new(), keep: keep.max(1) });
        let shared = Arc::clone(&tail);
        std::thread::Builder::new().name("conform-stderr".to_owned()).spawn(move || shared.collect(fd))?;
        Ok(tail)
    }

    /// Starts the collector thread, keeping the last `keep` bytes.
    #[cfg(not(unix))]
    pub fn start(stderr: ChildStderr, keep: usize) -> std::io::Result<Arc<Self>> {
        let state = TailState { tail: VecDeque::new(), total: 0, closed: false };
        let tail = Arc::new(StderrTail { state: Mutex::new(state), closed: Condvar::new(), keep: keep.max(1) });
        let shared = Arc::clone(&tail);
        std::thread::Builder::new().name("conform-stderr".to_owned()).spawn(move || shared.collect(stderr))?;
        Ok(tail)
    }

    /// Waits for the pipe to be readable, then reads it under the lock,
    /// until the end of file.
    #[cfg(unix)]
    fn collect(&self, fd: std::os::fd::RawFd) {
        loop {
            let mut ready = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
            // SAFETY: one valid pollfd for the call's duration; the
            // descriptor stays open while this thread holds the tail.
            if unsafe { libc::poll(&mut ready, 1, -1) } < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                break;
            }
            let mut state = self.lock();
            self.read_available(&mut state, usize::MAX);
            if state.closed {
                drop(state);
                self.closed.notify_all();
                return;
            }
        }
        self.lock().closed = true;
        self.closed.notify_all();
    }

    #[cfg(not(unix))]
    fn collect(&self, mut stderr: ChildStderr) {
        let mut chunk = vec![0u8; READ_CHUNK];
        loop {
            let read = match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let state = &mut *self.lock();
            append(&mut state.tail, &mut state.total, self.keep, &chunk[..read]);
        }
        self.lock().closed = true;
        self.closed.notify_all();
    }

    /// Reads what the pipe holds now, at most `chunks` chunks; marks the
    /// end of file.
    #[cfg(unix)]
    fn read_available(&self, state: &mut TailState, chunks: usize) {
        for _ in 0..chunks {
            if state.closed {
                return;
            }
            let TailState { pipe, chunk, tail, total, .. } = &mut *state;
            match pipe.read(chunk) {
                Ok(0) => state.closed = true,
                Ok(n) => append(tail, total, self.keep, &chunk[..n]),
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => state.closed = true,
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TailState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads what the child has written so far and is still in the pipe,
    /// so that a mark taken next counts it: everything the child wrote
    /// before the harness saw its last stdout line.
    pub fn sync(&self) {
        #[cfg(unix)]
        {
            let mut state = self.lock();
            let was_closed = state.closed;
            self.read_available(&mut state, SYNC_CHUNKS);
            if state.closed && !was_closed {
                drop(state);
                self.closed.notify_all();
            }
        }
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

    /// What was written from mark `start` to mark `end`, at most what the
    /// tail still holds of it; `None` when nothing was.
    pub fn between(&self, start: u64, end: u64) -> Option<StderrExcerpt> {
        let state = self.lock();
        let end = end.min(state.total);
        let written = end.saturating_sub(start);
        if written == 0 {
            return None;
        }
        // The tail holds bytes `total - tail.len()` to `total`.
        let held_from = state.total - state.tail.len() as u64;
        let from = start.max(held_from);
        let bytes: Vec<u8> = if from >= end {
            Vec::new()
        } else {
            let offset = |mark: u64| usize::try_from(mark - held_from).unwrap_or(usize::MAX);
            state.tail.range(offset(from)..offset(end)).copied().collect()
        };
        let dropped = written - bytes.len() as u64;
        Some(StderrExcerpt { text: String::from_utf8_lossy(&bytes).into_owned(), dropped })
    }

    /// What was written since `mark`, at most the kept tail; `None` when
    /// nothing was. A note says how much was dropped.
    pub fn since(&self, mark: u64) -> Option<String> {
        self.between(mark, u64::MAX).map(StderrExcerpt::shown)
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
    fn the_splitter_joins_chunks_and_skips_over_long_lines() {
        let mut splitter = LineSplitter::new(5);
        let mut out = VecDeque::new();
        for chunk in [&b"ab"[..], b"c\nde", b"f\n123456", b"789\nok\n", b"tail"] {
            splitter.feed(chunk, &mut out);
        }
        splitter.finish(&mut out);
        let events: Vec<String> = out
            .into_iter()
            .map(|event| match event {
                LineEvent::Line(line) => String::from_utf8(line).unwrap(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(events, ["abc", "def", "TooLong", "ok", "tail", "Closed"]);
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
