//! The whole stdout of a one-shot run, kept up to `--max-output` and read by
//! the thread that waits for the process, so that the harness knows at any
//! moment exactly what was received.
//!
//! That matters at the exit. The output is judged on what the process wrote
//! before it exited: all of it is then either read or still in the pipe, so
//! [`StdoutCollector::drain`] takes what is in the pipe without waiting for
//! the end of file, which a grandchild that left the process group (and so
//! outlived the kill of the group) may hold back for as long as it lives.
//!
//! Elsewhere than on Unix a reader thread fills the same buffer, and the
//! drain waits briefly for the end of file instead.

use std::process::ChildStdout;
use std::time::Instant;

/// The stdout of a one-shot run.
#[derive(Debug, Default)]
pub struct Collected {
    /// The bytes kept (at most the limit).
    pub bytes: Vec<u8>,
    /// Total bytes written (more than `bytes` when over the limit).
    pub total: u64,
}

impl Collected {
    fn keep(&mut self, chunk: &[u8], max: u64) {
        self.total += chunk.len() as u64;
        let room = usize::try_from(max.saturating_sub(self.bytes.len() as u64)).unwrap_or(usize::MAX);
        self.bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
}

#[cfg(unix)]
pub use unix::StdoutCollector;

#[cfg(not(unix))]
pub use threaded::StdoutCollector;

#[cfg(unix)]
mod unix {
    use super::*;
    use crate::implementation::subprocess::duplex::set_nonblocking;
    use crate::implementation::subprocess::pipes::READ_CHUNK;
    use std::io::{ErrorKind, Read};
    use std::os::fd::AsRawFd;

    /// Chunks read at most by a drain: what the process left in the pipe (a
    /// grandchild still writing cannot keep the harness reading).
    const DRAIN_CHUNKS: usize = 64;

    /// Stdout read without a thread.
    #[derive(Debug)]
    pub struct StdoutCollector {
        stdout: ChildStdout,
        max: u64,
        collected: Collected,
        closed: bool,
        chunk: Vec<u8>,
    }

    impl StdoutCollector {
        /// Takes over the pipe, keeping at most `max` bytes.
        pub fn start(stdout: ChildStdout, max: u64) -> std::io::Result<Self> {
            set_nonblocking(&stdout)?;
            Ok(StdoutCollector {
                stdout,
                max,
                collected: Collected::default(),
                closed: false,
                chunk: vec![0; READ_CHUNK],
            })
        }

        /// Whether the end of file was read.
        pub fn closed(&self) -> bool {
            self.closed
        }

        /// Waits until stdout has something to read (then reads it) or
        /// `until` passes.
        pub fn wait(&mut self, until: Instant) {
            if self.closed {
                return;
            }
            let millis = until.saturating_duration_since(Instant::now()).as_millis().max(1);
            let mut fd = libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 };
            let millis = libc::c_int::try_from(millis).unwrap_or(libc::c_int::MAX);
            // SAFETY: `fd` is one valid pollfd for the call's duration.
            let ready = unsafe { libc::poll(&mut fd, 1, millis) };
            if ready > 0 {
                self.read_some();
            }
        }

        /// Reads one chunk; false when nothing more can be read now.
        fn read_some(&mut self) -> bool {
            loop {
                match self.stdout.read(&mut self.chunk) {
                    Ok(0) => {
                        self.closed = true;
                        return false;
                    }
                    Ok(n) => {
                        self.collected.keep(&self.chunk[..n], self.max);
                        return true;
                    }
                    Err(err) if err.kind() == ErrorKind::Interrupted => {}
                    Err(err) if err.kind() == ErrorKind::WouldBlock => return false,
                    Err(_) => {
                        self.closed = true;
                        return false;
                    }
                }
            }
        }

        /// After the exit: takes what is in the pipe now, and everything
        /// received.
        pub fn drain(mut self) -> Collected {
            for _ in 0..DRAIN_CHUNKS {
                if !self.read_some() {
                    break;
                }
            }
            self.collected
        }
    }
}

#[cfg(not(unix))]
mod threaded {
    use super::*;
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// How long a drain waits for the end of file.
    const DRAIN_GRACE: Duration = Duration::from_millis(100);

    /// Stdout read by a thread of its own.
    #[derive(Debug)]
    pub struct StdoutCollector {
        shared: Arc<Mutex<(Collected, bool)>>,
    }

    impl StdoutCollector {
        /// Starts the reader thread, keeping at most `max` bytes.
        pub fn start(stdout: ChildStdout, max: u64) -> std::io::Result<Self> {
            let shared = Arc::new(Mutex::new((Collected::default(), false)));
            let filled = Arc::clone(&shared);
            std::thread::Builder::new().name("conform-stdout".to_owned()).spawn(move || {
                let mut stdout = stdout;
                let mut chunk = vec![0u8; 64 * 1024];
                loop {
                    match stdout.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => filled.lock().unwrap_or_else(|p| p.into_inner()).0.keep(&chunk[..n], max),
                        Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                filled.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
            })?;
            Ok(StdoutCollector { shared })
        }

        /// Whether the end of file was read.
        pub fn closed(&self) -> bool {
            self.shared.lock().unwrap_or_else(|p| p.into_inner()).1
        }

        /// The thread reads; this only paces the caller's loop.
        pub fn wait(&mut self, until: Instant) {
            std::thread::sleep(until.saturating_duration_since(Instant::now()).min(Duration::from_millis(5)));
        }

        /// After the exit: waits briefly for the end of file, then takes
        /// everything received.
        pub fn drain(self) -> Collected {
            let deadline = Instant::now() + DRAIN_GRACE;
            while !self.closed() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::mem::take(&mut self.shared.lock().unwrap_or_else(|p| p.into_inner()).0)
        }
    }
}
