//! The persistent transport: stdin written and stdout read by the thread
//! that runs the case, with non-blocking pipes and `poll(2)`.
//!
//! A round trip then costs two wake-ups (the child's and ours) instead of
//! four through writer and reader threads, which is most of the harness's
//! overhead per case. Writing and reading still happen concurrently: bytes
//! the child has not taken yet wait in a buffer and are written whenever
//! the pipe has room, while stdout is read, so a child that never reads its
//! stdin cannot block the harness. Stdout is read only when a case waits for
//! it, one chunk at a time, so memory stays bounded by the line limit.
//!
//! The end of stdout is not the only sign of death: a grandchild the
//! implementation forked may hold the pipe open after the implementation
//! exited. So whenever stdout has been quiet for a poll slice, the caller's
//! exit probe is asked too; once the process has exited, what is already in
//! the pipe is read and the stream ends there.
//!
//! Elsewhere than on Unix the same interface is served by the pipe threads.

use super::pipes::{LineEvent, Next, SendError};
use std::process::{ChildStdin, ChildStdout};
use std::time::Instant;

#[cfg(unix)]
pub use unix::Duplex;
#[cfg(unix)]
pub(super) use unix::set_nonblocking;

#[cfg(not(unix))]
pub use threaded::Duplex;

/// How far the child got with the last message sent: `(accepted, length)`,
/// when it has not taken all of it.
fn stall(accepted_total: u64, last_start: u64, last_len: u64, queued_total: u64) -> Option<(u64, u64)> {
    (queued_total > accepted_total).then(|| (accepted_total.saturating_sub(last_start).min(last_len), last_len))
}

#[cfg(unix)]
mod unix {
    use super::*;
    use crate::implementation::subprocess::pipes::{LineSplitter, READ_CHUNK};
    use std::collections::VecDeque;
    use std::io::{ErrorKind, Read, Write};
    use std::os::fd::AsRawFd;
    use std::time::Duration;

    /// Longest single `poll` wait, so that cancellation and an exit are
    /// noticed promptly.
    const POLL_SLICE: Duration = Duration::from_millis(50);
    /// Chunks read at most from a process that has exited: what it left in
    /// the pipe (a grandchild still writing cannot keep the harness reading).
    const DRAIN_CHUNKS: usize = 16;

    /// A child's stdin and stdout, driven without threads.
    #[derive(Debug)]
    pub struct Duplex {
        stdin: Option<ChildStdin>,
        pending: Vec<u8>,
        written: usize,
        closing: bool,
        broken: bool,
        queued_total: u64,
        accepted_total: u64,
        last_start: u64,
        last_len: u64,
        stdout: ChildStdout,
        splitter: LineSplitter,
        events: VecDeque<LineEvent>,
        closed: bool,
        chunk: Vec<u8>,
    }

    pub(in crate::implementation::subprocess) fn set_nonblocking(fd: &impl AsRawFd) -> std::io::Result<()> {
        let fd = fd.as_raw_fd();
        // SAFETY: fcntl on a descriptor we own, changing only its status flags.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    impl Duplex {
        /// Takes over the pipes; lines longer than `max_line` bytes are
        /// reported as [`LineEvent::TooLong`].
        pub fn new(stdin: ChildStdin, stdout: ChildStdout, max_line: u64) -> std::io::Result<Self> {
            set_nonblocking(&stdin)?;
            set_nonblocking(&stdout)?;
            Ok(Duplex {
                stdin: Some(stdin),
                pending: Vec::new(),
                written: 0,
                closing: false,
                broken: false,
                queued_total: 0,
                accepted_total: 0,
                last_start: 0,
                last_len: 0,
                stdout,
                splitter: LineSplitter::new(usize::try_from(max_line).unwrap_or(usize::MAX)),
                events: VecDeque::new(),
                closed: false,
                chunk: vec![0u8; READ_CHUNK],
            })
        }

        /// Sends a message: written at once as far as the pipe has room, the
        /// rest while waiting for stdout.
        pub fn send(&mut self, message: Vec<u8>) -> Result<(), SendError> {
            if self.broken || self.stdin.is_none() || self.closing {
                return Err(SendError::Broken);
            }
            self.last_start = self.queued_total;
            self.last_len = message.len() as u64;
            self.queued_total += message.len() as u64;
            if self.pending.is_empty() {
                self.pending = message;
                self.written = 0;
            } else {
                self.pending.extend_from_slice(&message);
            }
            self.flush();
            if self.broken { Err(SendError::Broken) } else { Ok(()) }
        }

        /// Closes stdin once everything queued is written.
        pub fn close_stdin(&mut self) {
            self.closing = true;
            self.flush();
        }

        /// `(accepted, length)` of the last message, if not all taken.
        pub fn stalled(&self) -> Option<(u64, u64)> {
            stall(self.accepted_total, self.last_start, self.last_len, self.queued_total)
        }

        /// Bytes of a stdout line received without its newline (yet).
        pub fn partial_line(&self) -> usize {
            self.splitter.partial()
        }

        fn flush(&mut self) {
            if let Some(stdin) = self.stdin.as_mut() {
                while self.written < self.pending.len() {
                    match stdin.write(&self.pending[self.written..]) {
                        Ok(0) => {
                            self.broken = true;
                            break;
                        }
                        Ok(n) => {
                            self.written += n;
                            self.accepted_total += n as u64;
                        }
                        Err(err) if err.kind() == ErrorKind::Interrupted => {}
                        Err(err) if err.kind() == ErrorKind::WouldBlock => return,
                        Err(_) => {
                            self.broken = true;
                            break;
                        }
                    }
                }
            }
            if self.broken || self.written >= self.pending.len() {
                self.pending = Vec::new();
                self.written = 0;
                if self.broken {
                    self.queued_total = self.accepted_total;
                }
            }
            if self.pending.is_empty() && (self.closing || self.broken) {
                self.stdin = None;
            }
        }

        /// After the process exited: takes what is in the pipe now (without
        /// waiting for writers it may have left behind) and ends the stream.
        fn drain(&mut self) {
            for _ in 0..DRAIN_CHUNKS {
                // Stops at the end of the pipe or when it is empty for now.
                if !self.read_some() {
                    break;
                }
            }
            if !self.closed {
                self.splitter.finish(&mut self.events);
                self.closed = true;
            }
        }

        /// Reads one chunk; false when nothing more can be read now (the
        /// pipe is empty or closed).
        fn read_some(&mut self) -> bool {
            loop {
                match self.stdout.read(&mut self.chunk) {
                    Ok(0) => {
                        self.splitter.finish(&mut self.events);
                        self.closed = true;
                        return false;
                    }
                    Ok(n) => {
                        self.splitter.feed(&self.chunk[..n], &mut self.events);
                        return true;
                    }
                    Err(err) if err.kind() == ErrorKind::Interrupted => {}
                    Err(err) if err.kind() == ErrorKind::WouldBlock => return false,
                    Err(err) => {
                        self.events.push_back(LineEvent::Failed(err.to_string()));
                        self.closed = true;
                        return false;
                    }
                }
            }
        }

        /// Waits for the next stdout event until `deadline`, writing pending
        /// stdin meanwhile and checking `cancelled` every 50 ms; after 50 ms
        /// without output, `exited` says whether the process has exited (the
        /// stream then ends with what is left in the pipe).
        pub fn next(
            &mut self,
            deadline: Instant,
            cancelled: &dyn Fn() -> bool,
            exited: &mut dyn FnMut() -> bool,
        ) -> Next {
            loop {
                if let Some(event) = self.events.pop_front() {
                    return Next::Event(event);
                }
                if self.closed {
                    return Next::Event(LineEvent::Closed);
                }
                if cancelled() {
                    return Next::Cancelled;
                }
                let now = Instant::now();
                if now >= deadline {
                    return Next::TimedOut;
                }
                let wait = (deadline - now).min(POLL_SLICE);
                let writing = !self.pending.is_empty() && self.stdin.is_some();
                let mut fds = [
                    libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 },
                    libc::pollfd {
                        fd: self.stdin.as_ref().map_or(-1, AsRawFd::as_raw_fd),
                        events: if writing { libc::POLLOUT } else { 0 },
                        revents: 0,
                    },
                ];
                let millis = libc::c_int::try_from(wait.as_millis().max(1)).unwrap_or(50);
                // SAFETY: `fds` is a valid array of two pollfd for the call's duration;
                // a negative fd is ignored by poll.
                let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, millis) };
                if ready < 0 {
                    let err = std::io::Error::last_os_error();
                    if err.kind() == ErrorKind::Interrupted {
                        continue;
                    }
                    self.events.push_back(LineEvent::Failed(err.to_string()));
                    self.closed = true;
                    continue;
                }
                if writing && fds[1].revents != 0 {
                    self.flush();
                }
                if fds[0].revents != 0 {
                    self.read_some();
                } else if ready == 0 && exited() {
                    self.drain();
                }
            }
        }
    }
}

#[cfg(not(unix))]
mod threaded {
    use super::*;
    use crate::implementation::subprocess::pipes::{LineReader, StdinWriter};

    /// A child's stdin and stdout, served by the pipe threads.
    #[derive(Debug)]
    pub struct Duplex {
        stdin: StdinWriter,
        stdout: LineReader,
    }

    impl Duplex {
        /// Starts the pipe threads.
        pub fn new(stdin: ChildStdin, stdout: ChildStdout, max_line: u64) -> std::io::Result<Self> {
            Ok(Duplex { stdin: StdinWriter::start(stdin)?, stdout: LineReader::start(stdout, max_line)? })
        }

        /// Queues a message.
        pub fn send(&mut self, message: Vec<u8>) -> Result<(), SendError> {
            self.stdin.send(message)
        }

        /// Closes stdin after the queued messages.
        pub fn close_stdin(&mut self) {
            self.stdin.close();
        }

        /// `(accepted, length)` of a message not fully taken.
        pub fn stalled(&self) -> Option<(u64, u64)> {
            self.stdin.stalled()
        }

        /// Not tracked by the pipe threads.
        pub fn partial_line(&self) -> usize {
            0
        }

        /// The next stdout event; the stream ends when `exited` says the
        /// process has exited and no line is waiting.
        pub fn next(
            &mut self,
            deadline: Instant,
            cancelled: &dyn Fn() -> bool,
            exited: &mut dyn FnMut() -> bool,
        ) -> Next {
            loop {
                let slice = deadline.min(Instant::now() + std::time::Duration::from_millis(50));
                match self.stdout.next(slice, cancelled) {
                    Next::TimedOut if exited() => return Next::Event(LineEvent::Closed),
                    Next::TimedOut if Instant::now() < deadline => {}
                    other => return other,
                }
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    fn spawn(program: &str, args: &[&str]) -> (std::process::Child, Duplex) {
        let mut child = Command::new(program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let duplex = Duplex::new(child.stdin.take().unwrap(), child.stdout.take().unwrap(), 1 << 20).unwrap();
        (child, duplex)
    }

    fn deadline() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    #[test]
    fn a_large_message_is_written_while_the_echo_is_read() {
        // `cat` echoes as it reads: neither side may wait for the other to finish.
        let (mut child, mut duplex) = spawn("cat", &[]);
        let mut message = vec![b'x'; 600_000];
        message.push(b'\n');
        duplex.send(message).unwrap();
        duplex.send(b"second\n".to_vec()).unwrap();
        duplex.close_stdin();
        assert!(
            matches!(duplex.next(deadline(), &|| false, &mut || false), Next::Event(LineEvent::Line(line)) if line.len() == 600_000)
        );
        assert!(
            matches!(duplex.next(deadline(), &|| false, &mut || false), Next::Event(LineEvent::Line(line)) if line == b"second")
        );
        assert!(matches!(duplex.next(deadline(), &|| false, &mut || false), Next::Event(LineEvent::Closed)));
        assert_eq!(duplex.stalled(), None);
        child.wait().unwrap();
    }

    #[test]
    fn a_child_that_never_reads_leaves_the_message_pending() {
        let (mut child, mut duplex) = spawn("sleep", &["30"]);
        duplex.send(vec![b'y'; 300_000]).unwrap();
        let started = Instant::now();
        assert!(matches!(
            duplex.next(Instant::now() + Duration::from_millis(200), &|| false, &mut || false),
            Next::TimedOut
        ));
        assert!(started.elapsed() < Duration::from_secs(5));
        let (accepted, of) = duplex.stalled().expect("not all taken");
        assert!(accepted < of && of == 300_000, "{accepted} of {of}");
        assert!(matches!(duplex.next(deadline(), &|| true, &mut || false), Next::Cancelled));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
