//! The processes of a persistent run: one per worker (`--jobs N`), started
//! on demand, handed to one case at a time, and replaced after a crash or
//! timeout while the restart budget lasts.
//!
//! The budget (`--max-restarts`) is shared by the whole run: it bounds how
//! long a broken implementation can keep the harness busy. A replacement that
//! fails its own handshake spends budget too. If the very first handshake
//! fails, the implementation cannot run anything: that is a setup error
//! ([`StartError::Handshake`]), not a verdict on every case.

use super::command::CommandLine;
use super::error::StartError;
use super::options::SubprocessOptions;
use super::protocol::HelloReply;
use super::session::{Health, Session, StartFailure, interrupted};
use super::stray::StrayStderr;
use crate::implementation::{CaseRun, LateOutcome, Outcome};
use std::sync::Mutex;

/// Processes of one persistent implementation.
#[derive(Debug)]
pub struct Pool {
    command: CommandLine,
    options: SubprocessOptions,
    state: Mutex<PoolState>,
    late: Mutex<Vec<LateOutcome>>,
    notes: Mutex<Vec<String>>,
    /// Stderr of every process written outside any case.
    stray: Mutex<StrayStderr>,
}

#[derive(Debug, Default)]
struct PoolState {
    idle: Vec<Session>,
    /// The first hello.
    hello: Option<HelloReply>,
    /// Processes that died and were not replaced yet.
    deaths: usize,
    restarts: u32,
    exhausted: bool,
}

impl Pool {
    /// Starts the first process and completes its handshake. A command that
    /// cannot be started, or whose first handshake fails, is an error.
    pub fn start(command: CommandLine, options: SubprocessOptions) -> Result<Pool, StartError> {
        let mut state = PoolState::default();
        match Session::start(&command, &options) {
            Ok(session) => {
                state.hello = Some(session.hello().clone());
                state.idle.push(session);
            }
            Err(StartFailure::Spawn(err)) => return Err(err),
            Err(StartFailure::Handshake { run, ended }) => {
                return Err(StartError::Handshake {
                    command: command.text().to_owned(),
                    ended,
                    problem: run.outcome.message().unwrap_or_default().to_owned(),
                    stderr: run.stderr,
                    interrupted: options.cancelled(),
                });
            }
        }
        Ok(Pool {
            command,
            options,
            state: Mutex::new(state),
            late: Mutex::default(),
            notes: Mutex::default(),
            stray: Mutex::default(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The command.
    pub fn command(&self) -> &CommandLine {
        &self.command
    }

    /// The first hello.
    pub fn hello(&self) -> Option<HelloReply> {
        self.lock().hello.clone()
    }

    /// Applies `check` to the first hello, without copying it.
    pub fn with_hello<T>(&self, check: impl FnOnce(&HelloReply) -> Option<T>) -> Option<T> {
        self.lock().hello.as_ref().and_then(check)
    }

    /// Restarts spent so far.
    pub fn restarts(&self) -> u32 {
        self.lock().restarts
    }

    /// Whether the restart budget is spent: no case can run any more.
    pub fn exhausted(&self) -> bool {
        self.lock().exhausted
    }

    /// A ready process, or the verdict the case gets without one.
    pub fn checkout(&self) -> Result<Session, CaseRun> {
        loop {
            {
                let mut state = self.lock();
                if self.options.cancelled() {
                    return Err(Outcome::Error(interrupted()).into());
                }
                if state.exhausted {
                    return Err(self.not_run());
                }
                if let Some(session) = state.idle.pop() {
                    return Ok(session);
                }
                if state.deaths > 0 {
                    if state.restarts >= self.options.max_restarts {
                        state.exhausted = true;
                        return Err(self.not_run());
                    }
                    state.restarts += 1;
                    state.deaths -= 1;
                }
            }
            match Session::start(&self.command, &self.options) {
                Ok(session) => return Ok(session),
                Err(failure) => {
                    let run = match failure {
                        StartFailure::Spawn(err) => CaseRun::from(Outcome::Crash(err.to_string())),
                        StartFailure::Handshake { run, .. } => run,
                    };
                    self.lock().deaths += 1;
                    self.note(format!(
                        "a restart of the implementation failed: {}",
                        run.outcome.message().unwrap_or("it answered with an output")
                    ));
                }
            }
        }
    }

    /// Returns a process after a case.
    pub fn checkin(&self, mut session: Session, health: Health) {
        if health == Health::Dead {
            let stray = session.take_stray();
            self.stray.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).merge(stray);
        }
        let mut state = self.lock();
        match health {
            Health::Alive => state.idle.push(session),
            Health::Dead => state.deaths += 1,
        }
    }

    fn not_run(&self) -> CaseRun {
        Outcome::Error(format!(
            "not run: restart budget exhausted (the implementation was restarted {} times after crashes and \
             timeouts; raise --max-restarts to go on)",
            self.options.max_restarts
        ))
        .into()
    }

    /// Adds late outcomes found while running a case.
    pub fn add_late(&self, late: Vec<LateOutcome>) {
        if !late.is_empty() {
            self.late.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend(late);
        }
    }

    /// Takes the late outcomes collected so far.
    pub fn take_late(&self) -> Vec<LateOutcome> {
        std::mem::take(&mut *self.late.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn note(&self, note: String) {
        self.notes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(note);
    }

    /// Notes on irregular behavior outside any case (failed restarts, bad
    /// exits after bye, stderr written while no case was in flight).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = self.notes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        notes.extend(self.stray.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).warning());
        notes
    }

    /// Says bye to every idle process and waits for them to exit.
    pub fn shutdown(&self) {
        let sessions = std::mem::take(&mut self.lock().idle);
        let mut late = Vec::new();
        let mut stray = StrayStderr::default();
        for session in sessions {
            for note in session.bye(&mut late, &mut stray) {
                self.note(note);
            }
        }
        self.add_late(late);
        self.stray.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).merge(stray);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Idle sessions kill their processes when dropped; say bye first so
        // well-behaved implementations exit cleanly.
        self.shutdown();
    }
}
