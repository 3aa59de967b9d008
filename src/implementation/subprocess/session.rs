//! A persistent implementation process speaking protocol v1: the handshake,
//! one case at a time, and the goodbye.
//!
//! Each fault becomes the verdict of the case it happened during: a line
//! that is not a protocol message or carries an unknown id is a
//! `protocol-error` and the process is kept (the stream is still in step,
//! line by line); the end of stdout is a `crash` and silence past the time
//! limit a `timeout`, and those processes are gone. A second reply to a case
//! that was already judged is reported as a late outcome for that case.

use super::child::describe_status;
use super::command::CommandLine;
use super::connection::Connection;
use super::error::StartError;
use super::options::{SubprocessOptions, describe_duration, describe_size};
use super::pipes::{LineEvent, Next, SendError, last_line};
use super::protocol::{
    self, BYE_LINE, HelloReply, PROTOCOL_VERSION, Reply, ReplyBody, encode_hello_request, encode_run,
};
use crate::implementation::{CaseRequest, CaseRun, LateOutcome, Outcome};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Longest wait for an exit after `bye`.
const BYE_GRACE: Duration = Duration::from_secs(5);

/// Whether the process can take another case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    /// Still running and in step.
    Alive,
    /// Exited or killed.
    Dead,
}

/// Why a process could not be made ready.
#[derive(Debug)]
pub enum StartFailure {
    /// It could not be started at all.
    Spawn(StartError),
    /// It started but the handshake failed; the outcome (with its stderr)
    /// explains how.
    Handshake(CaseRun),
}

#[derive(Debug)]
struct Sent {
    suite: String,
    fixture: String,
    state: SentState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SentState {
    InFlight,
    /// Answered with a result.
    Answered,
    /// Judged by a fault (no reply expected any more).
    Judged,
}

/// A handshaken implementation process.
#[derive(Debug)]
pub struct Session {
    connection: Connection,
    hello: HelloReply,
    sent: HashMap<u64, Sent>,
    lines: u64,
    /// Stderr mark at the start of the case in flight.
    case_mark: u64,
}

impl Session {
    /// Starts `command` and completes the handshake.
    pub fn start(command: &CommandLine, options: &SubprocessOptions) -> Result<Session, StartFailure> {
        let mut connection = Connection::open(command, &[], options).map_err(StartFailure::Spawn)?;
        let _ = connection.send(encode_hello_request(env!("CARGO_PKG_VERSION")).into_bytes());
        let deadline = Instant::now() + options.hello_timeout();
        let failed = |connection: &Connection, outcome: Outcome| {
            StartFailure::Handshake(CaseRun { outcome, stderr: connection.stderr_since(0) })
        };
        loop {
            let line = match connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => line,
                Next::Event(LineEvent::TooLong) => {
                    return Err(failed(
                        &connection,
                        Outcome::ProtocolError(format!(
                            "the implementation's first stdout line is longer than --max-output ({}); \
                             it must be its hello",
                            describe_size(options.max_output)
                        )),
                    ));
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => {
                    let how = connection.ended();
                    let stderr = connection.stderr_since(0);
                    let last =
                        last_line(stderr.as_deref()).map(|l| format!(" (last stderr line: {l})")).unwrap_or_default();
                    return Err(StartFailure::Handshake(CaseRun {
                        outcome: Outcome::Crash(format!(
                            "the implementation ended ({how}) before sending its hello{last}"
                        )),
                        stderr,
                    }));
                }
                Next::TimedOut => {
                    let read_hello = connection.stdin_stalled().is_none();
                    connection.kill();
                    let detail = if read_hello {
                        "it must answer the harness's hello with its own as its first stdout line"
                    } else {
                        "it did not even read the harness's hello from its stdin"
                    };
                    return Err(failed(
                        &connection,
                        Outcome::ProtocolError(format!(
                            "no hello from the implementation within {}: {detail} (if it is only slow to start, \
                             raise --hello-timeout)",
                            describe_duration(options.hello_timeout())
                        )),
                    ));
                }
                Next::Cancelled => {
                    connection.kill();
                    return Err(failed(&connection, Outcome::Error(interrupted())));
                }
            };
            if is_blank(&line) {
                continue;
            }
            let problem = match protocol::decode_reply(&line) {
                Ok(Reply::Hello(hello)) if hello.protocol == PROTOCOL_VERSION => {
                    return Ok(Session { connection, hello, sent: HashMap::new(), lines: 1, case_mark: 0 });
                }
                Ok(Reply::Hello(hello)) => format!(
                    "the implementation speaks protocol {}, but this harness speaks protocol {PROTOCOL_VERSION}",
                    hello.protocol
                ),
                Ok(Reply::Result { id, .. }) => {
                    format!("the implementation's first message must be its hello, but it was a result (for id {id})")
                }
                Err(violation) => format!("the implementation's first stdout line must be its hello: {violation}"),
            };
            connection.kill();
            return Err(failed(&connection, Outcome::ProtocolError(problem)));
        }
    }

    /// What the implementation declared.
    pub fn hello(&self) -> &HelloReply {
        &self.hello
    }

    /// Runs one case. Second replies to earlier cases that show up
    /// meanwhile are added to `late`.
    pub fn run(&mut self, id: u64, request: &CaseRequest<'_>, late: &mut Vec<LateOutcome>) -> (CaseRun, Health) {
        if let Some(status) = self.connection.exited() {
            let outcome = Outcome::Crash(format!(
                "the implementation had already ended ({}) before this case was sent: a persistent implementation \
                 must keep running until it receives bye (use --one-shot for a command that handles one case per run)",
                describe_status(status)
            ));
            return (CaseRun { outcome, stderr: None }, Health::Dead);
        }
        let mark = self.connection.stderr_mark();
        self.case_mark = mark;
        self.sent.insert(
            id,
            Sent { suite: request.suite.to_owned(), fixture: request.fixture.to_owned(), state: SentState::InFlight },
        );
        let (outcome, health) = self.exchange(id, request, late);
        if let Some(sent) = self.sent.get_mut(&id) {
            sent.state = match outcome {
                Outcome::Output(_) | Outcome::Error(_) | Outcome::Skipped(_) if health == Health::Alive => {
                    SentState::Answered
                }
                _ => SentState::Judged,
            };
        }
        (CaseRun { outcome, stderr: self.connection.stderr_since(mark) }, health)
    }

    fn exchange(&mut self, id: u64, request: &CaseRequest<'_>, late: &mut Vec<LateOutcome>) -> (Outcome, Health) {
        let options = self.connection.options().clone();
        match self.connection.send(encode_run(id, request).into_bytes()) {
            Ok(()) => {}
            Err(SendError::Broken) => return (self.crash("before it read this case"), Health::Dead),
            Err(SendError::NotReading) => {
                self.connection.kill();
                return (
                    Outcome::Timeout(
                        "the implementation stopped reading its stdin (earlier messages are still unread); \
                         the process was killed"
                            .to_owned(),
                    ),
                    Health::Dead,
                );
            }
        }
        let deadline = Instant::now() + options.timeout;
        loop {
            let line = match self.connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => line,
                Next::Event(LineEvent::TooLong) => {
                    self.lines += 1;
                    let message = format!(
                        "stdout line {} grew past --max-output ({}) and was cut off; the rest of it was skipped \
                         (raise --max-output if outputs really are this large)",
                        self.lines,
                        describe_size(options.max_output)
                    );
                    return (Outcome::ProtocolError(message), Health::Alive);
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => {
                    return (self.crash("while the case was in flight"), Health::Dead);
                }
                Next::TimedOut => {
                    let stalled = self.connection.stdin_stalled();
                    self.connection.kill();
                    let detail = match stalled {
                        Some((accepted, of)) => format!(
                            "; it had read only {} of the {} run request from its stdin (it must read stdin \
                             while it works)",
                            describe_size(accepted),
                            describe_size(of)
                        ),
                        None => String::new(),
                    };
                    let message = format!(
                        "no reply within {}; the process was killed{detail}",
                        describe_duration(options.timeout)
                    );
                    return (Outcome::Timeout(message), Health::Dead);
                }
                Next::Cancelled => {
                    self.connection.kill();
                    return (Outcome::Error(interrupted()), Health::Dead);
                }
            };
            self.lines += 1;
            if is_blank(&line) {
                continue;
            }
            let reply = match protocol::decode_reply(&line) {
                Ok(reply) => reply,
                Err(violation) => {
                    let message = format!(
                        "stdout line {}: {violation} (stdout carries protocol messages only; write logs to stderr)",
                        self.lines
                    );
                    return (Outcome::ProtocolError(message), Health::Alive);
                }
            };
            match reply {
                Reply::Result { id: got, body } if got == id => {
                    let outcome = match body {
                        ReplyBody::Output(output) => Outcome::Output(output),
                        ReplyBody::Error(message) => Outcome::Error(message),
                        ReplyBody::Skipped(reason) => Outcome::Skipped(reason),
                    };
                    return (outcome, Health::Alive);
                }
                Reply::Result { id: got, .. } => match self.sent.get(&got) {
                    Some(Sent { state: SentState::Answered, suite, fixture }) => {
                        late.push(LateOutcome {
                            suite: suite.clone(),
                            fixture: fixture.clone(),
                            outcome: Outcome::ProtocolError(format!(
                                "the implementation replied twice to id {got}: a second result arrived while \
                                 {}/{} was in flight (each case must be answered exactly once)",
                                request.suite, request.fixture
                            )),
                        });
                    }
                    // A late first reply to a case a fault already judged.
                    Some(_) => {}
                    None => {
                        let message = format!(
                            "the reply carries id {got}, but the case in flight has id {id} (a result must echo \
                             the id of its run request)"
                        );
                        return (Outcome::ProtocolError(message), Health::Alive);
                    }
                },
                Reply::Hello(_) => {
                    let message = "the implementation sent a second hello while a case was in flight".to_owned();
                    return (Outcome::ProtocolError(message), Health::Alive);
                }
            }
        }
    }

    fn crash(&mut self, when: &str) -> Outcome {
        let how = self.connection.ended();
        let stderr = self.connection.stderr_since(self.case_mark);
        let last = last_line(stderr.as_deref()).map(|l| format!(" (last stderr line: {l})")).unwrap_or_default();
        let rule = if how == "exit status 0" { "; it must keep running until it receives bye" } else { "" };
        Outcome::Crash(format!("the implementation ended ({how}) {when}{rule}{last}"))
    }

    /// Says bye and waits for a clean exit. Returns notes on anything
    /// irregular; late replies to answered cases go to `late`.
    pub fn bye(mut self, late: &mut Vec<LateOutcome>) -> Vec<String> {
        let mut notes = Vec::new();
        let _ = self.connection.send(BYE_LINE.as_bytes().to_vec());
        self.connection.close_stdin();
        let grace = self.connection.options().timeout.min(BYE_GRACE);
        let deadline = Instant::now() + grace;
        loop {
            match self.connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => {
                    if is_blank(&line) {
                        continue;
                    }
                    match protocol::decode_reply(&line) {
                        Ok(Reply::Result { id, .. }) => match self.sent.get(&id) {
                            Some(Sent { state: SentState::Answered, suite, fixture }) => late.push(LateOutcome {
                                suite: suite.clone(),
                                fixture: fixture.clone(),
                                outcome: Outcome::ProtocolError(format!(
                                    "the implementation replied twice to id {id} (the second reply came after bye)"
                                )),
                            }),
                            Some(_) => {}
                            None => {
                                notes.push(format!("after bye the implementation sent a result for unknown id {id}"))
                            }
                        },
                        Ok(Reply::Hello(_)) => notes.push("after bye the implementation sent another hello".to_owned()),
                        Err(violation) => notes.push(format!("after bye the implementation wrote: {violation}")),
                    }
                }
                Next::Event(LineEvent::TooLong) => {
                    notes.push("after bye the implementation wrote an over-long line".to_owned())
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => break,
                Next::TimedOut => {
                    self.connection.kill();
                    notes.push(format!(
                        "the implementation did not exit within {} after bye; it was killed",
                        describe_duration(grace)
                    ));
                    return notes;
                }
                Next::Cancelled => {
                    self.connection.kill();
                    return notes;
                }
            }
        }
        match self.connection.wait_until(Instant::now() + grace) {
            Some(status) if status.success() => {}
            Some(status) => notes.push(format!(
                "the implementation ended with {} after bye (expected exit status 0)",
                describe_status(status)
            )),
            None => {
                self.connection.kill();
                notes.push("the implementation closed its stdout after bye but did not exit; it was killed".to_owned());
            }
        }
        notes
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The message of a case abandoned by Ctrl-C.
pub fn interrupted() -> String {
    "interrupted: the run was stopped before the implementation answered".to_owned()
}
