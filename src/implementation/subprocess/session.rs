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
use super::conversation::{Conversation, End, Heard, Message, SendFault, Whose};
use super::error::StartError;
use super::options::{BYE_GRACE, SubprocessOptions, describe_duration, describe_size};
use super::pipes::{StderrExcerpt, last_line};
use super::protocol::{HelloReply, PROTOCOL_VERSION, ReplyBody};
use super::stray::StrayStderr;
use crate::implementation::{CaseRequest, CaseRun, LateOutcome, Outcome};
use std::ops::ControlFlow::{Break, Continue};
use std::time::Instant;

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
    /// It started but the handshake failed.
    Handshake {
        /// The outcome (with its stderr) says how.
        run: CaseRun,
        /// How the process ended.
        ended: String,
    },
}

/// How a process the harness had to kill during the handshake ended.
const KILLED: &str = "it was still running; conform killed it";

/// A handshaken implementation process.
///
/// Its stderr is cut at the case boundaries: a case gets what was written
/// from the moment its run request is sent to the moment its result line is
/// read (the pipe read to its end then, so nothing written before the result
/// is left behind), and what comes between a result and the next request, or
/// after bye, goes to [`StrayStderr`].
#[derive(Debug)]
pub struct Session {
    conversation: Conversation,
    hello: HelloReply,
    /// Stderr mark at the start of the case in flight.
    case_mark: u64,
    /// Stderr mark up to which every byte is accounted for: a case's, or
    /// start-up's, or stray.
    accounted: u64,
    stray: StrayStderr,
}

impl Session {
    /// Starts `command` and completes the handshake.
    pub fn start(command: &CommandLine, options: &SubprocessOptions) -> Result<Session, StartFailure> {
        let mut conversation = Conversation::open(command, options).map_err(StartFailure::Spawn)?;
        let deadline = Instant::now() + options.hello_timeout();
        let heard = conversation.listen(deadline, None, |heard| {
            Break(match heard {
                Heard::TooLong { .. } => Err(format!(
                    "the implementation's first stdout line is longer than --max-output ({}); it must be its hello",
                    describe_size(options.max_output)
                )),
                Heard::Line(line) => match line.message {
                    Ok(Message::Hello(hello)) if hello.protocol == PROTOCOL_VERSION => Ok(hello),
                    Ok(Message::Hello(hello)) => Err(format!(
                        "the implementation speaks protocol {}, but this harness speaks protocol {PROTOCOL_VERSION}",
                        hello.protocol
                    )),
                    Ok(Message::Result { id, .. }) => Err(format!(
                        "the implementation's first message must be its hello, but it was a result (for id {id})"
                    )),
                    Err(violation) => {
                        Err(format!("the implementation's first stdout line must be its hello: {violation}"))
                    }
                },
            })
        });
        let mut ended = KILLED.to_owned();
        let outcome = match heard {
            Ok(Ok(hello)) => {
                // What start-up wrote is neither a case's nor stray.
                let accounted = conversation.connection().stderr_mark();
                return Ok(Session {
                    conversation,
                    hello,
                    case_mark: accounted,
                    accounted,
                    stray: StrayStderr::default(),
                });
            }
            Ok(Err(problem)) => {
                conversation.connection().kill();
                Outcome::ProtocolError(problem)
            }
            Err(End::Closed) => {
                let connection = conversation.connection();
                let how = connection.ended();
                let stderr = connection.stderr_since(0);
                let last =
                    last_line(stderr.as_deref()).map(|l| format!(" (last stderr line: {l})")).unwrap_or_default();
                let outcome =
                    Outcome::Crash(format!("the implementation ended ({how}) before sending its hello{last}"));
                return Err(StartFailure::Handshake { run: CaseRun { outcome, stderr }, ended: how });
            }
            Err(End::Silent) => {
                let connection = conversation.connection();
                let detail = connection.silence_hint().unwrap_or_else(|| {
                    "it must answer the harness's hello with its own as its first stdout line".to_owned()
                });
                connection.kill();
                Outcome::ProtocolError(format!(
                    "no hello from the implementation within {}: {detail} (if it is only slow to start, raise \
                     --hello-timeout)",
                    describe_duration(options.hello_timeout())
                ))
            }
            Err(End::Cancelled) => {
                conversation.connection().kill();
                ended = "it was still starting when the run was interrupted; conform killed it".to_owned();
                Outcome::Error(interrupted())
            }
        };
        let run = CaseRun { outcome, stderr: conversation.connection().stderr_since(0) };
        Err(StartFailure::Handshake { run, ended })
    }

    /// What the implementation declared.
    pub fn hello(&self) -> &HelloReply {
        &self.hello
    }

    /// Runs one case. Second replies to earlier cases that show up
    /// meanwhile are added to `late`.
    pub fn run(&mut self, id: u64, request: &CaseRequest<'_>, late: &mut Vec<LateOutcome>) -> (CaseRun, Health) {
        let mark = self.conversation.connection().stderr_mark();
        self.account_stray(mark);
        self.case_mark = mark;
        let (outcome, health) = match self.conversation.send_case(id, request) {
            Ok(()) => self.exchange(id, request, late),
            Err(SendFault::Exited(status)) => {
                let outcome = Outcome::Crash(format!(
                    "the implementation had already ended ({}) before this case was sent: a persistent \
                     implementation must keep running until it receives bye (use --one-shot for a command that \
                     handles one case per run)",
                    describe_status(status)
                ));
                let end = self.conversation.connection().stderr_mark();
                self.account_stray(end);
                return (CaseRun { outcome, stderr: None }, Health::Dead);
            }
            Err(SendFault::Broken) => (self.crash("before it read this case"), Health::Dead),
            Err(SendFault::NotReading) => (
                Outcome::Timeout(
                    "the implementation stopped reading its stdin (earlier messages are still unread); the process \
                     was killed"
                        .to_owned(),
                ),
                Health::Dead,
            ),
        };
        if health == Health::Alive && matches!(outcome, Outcome::Output(_) | Outcome::Error(_) | Outcome::Skipped(_)) {
            self.conversation.mark_answered(id);
        }
        let end = self.conversation.connection().stderr_mark();
        self.accounted = end;
        let stderr = self.conversation.connection().stderr_between(mark, end).map(StderrExcerpt::shown);
        (CaseRun { outcome, stderr }, health)
    }

    /// Counts stderr written since the last accounted mark, up to `mark`,
    /// as stray.
    fn account_stray(&mut self, mark: u64) {
        if let Some(excerpt) = self.conversation.connection().stderr_between(self.accounted, mark) {
            self.stray.add(excerpt);
        }
        self.accounted = self.accounted.max(mark);
    }

    /// The stray stderr of this process so far, everything it wrote outside
    /// a case included (call it when the process is done with).
    pub fn take_stray(&mut self) -> StrayStderr {
        let end = self.conversation.connection().stderr_mark();
        self.account_stray(end);
        std::mem::take(&mut self.stray)
    }

    fn exchange(&mut self, id: u64, request: &CaseRequest<'_>, late: &mut Vec<LateOutcome>) -> (Outcome, Health) {
        let options = self.conversation.options().clone();
        let deadline = Instant::now() + options.timeout;
        let heard = self.conversation.listen(deadline, Some(id), |heard| {
            let line = match heard {
                Heard::Line(line) => line,
                Heard::TooLong { number } => {
                    return Break(Outcome::ProtocolError(format!(
                        "stdout line {number} grew past --max-output ({}) and was cut off; the rest of it was \
                         skipped (raise --max-output if outputs really are this large)",
                        describe_size(options.max_output)
                    )));
                }
            };
            let message = match line.message {
                Ok(message) => message,
                Err(violation) => {
                    return Break(Outcome::ProtocolError(format!(
                        "stdout line {}: {violation} (stdout carries protocol messages only; write logs to stderr)",
                        line.number
                    )));
                }
            };
            match message {
                Message::Result { body, about: Whose::InFlight, .. } => Break(match body {
                    ReplyBody::Output(output) => Outcome::Output(output),
                    ReplyBody::Error(message) => Outcome::Error(message),
                    ReplyBody::Skipped(reason) => Outcome::Skipped(reason),
                }),
                Message::Result { id: got, about: Whose::Answered(case), .. } => {
                    late.push(LateOutcome {
                        suite: case.suite,
                        fixture: case.fixture,
                        outcome: Outcome::ProtocolError(format!(
                            "the implementation replied twice to id {got}: a second result arrived while {}/{} was \
                             in flight (each case must be answered exactly once)",
                            request.suite, request.fixture
                        )),
                    });
                    Continue(())
                }
                // A late first reply to a case a fault already judged.
                Message::Result { about: Whose::Judged(_), .. } => Continue(()),
                Message::Result { id: got, about: Whose::Unknown, .. } => Break(Outcome::ProtocolError(format!(
                    "the reply carries id {got}, but the case in flight has id {id} (a result must echo the id of \
                     its run request)"
                ))),
                Message::Hello(_) => Break(Outcome::ProtocolError(
                    "the implementation sent a second hello while a case was in flight".to_owned(),
                )),
            }
        });
        match heard {
            Ok(outcome) => (outcome, Health::Alive),
            Err(End::Closed) => (self.crash("while the case was in flight"), Health::Dead),
            Err(End::Silent) => {
                let connection = self.conversation.connection();
                let detail = connection.silence_hint().map(|hint| format!("; {hint}")).unwrap_or_default();
                connection.kill();
                let message =
                    format!("no reply within {}; the process was killed{detail}", describe_duration(options.timeout));
                (Outcome::Timeout(message), Health::Dead)
            }
            Err(End::Cancelled) => {
                self.conversation.connection().kill();
                (Outcome::Error(interrupted()), Health::Dead)
            }
        }
    }

    fn crash(&mut self, when: &str) -> Outcome {
        let connection = self.conversation.connection();
        let how = connection.ended();
        let stderr = connection.stderr_since(self.case_mark);
        let last = last_line(stderr.as_deref()).map(|l| format!(" (last stderr line: {l})")).unwrap_or_default();
        let rule = if how == "exit status 0" { "; it must keep running until it receives bye" } else { "" };
        Outcome::Crash(format!("the implementation ended ({how}) {when}{rule}{last}"))
    }

    /// Says bye and waits for a clean exit. Returns notes on anything
    /// irregular; late replies to answered cases go to `late`.
    /// What the process wrote on stderr outside any case, after bye
    /// included, is added to `stray`.
    pub fn bye(mut self, late: &mut Vec<LateOutcome>, stray: &mut StrayStderr) -> Vec<String> {
        let notes = self.say_bye(late);
        stray.merge(self.take_stray());
        notes
    }

    fn say_bye(&mut self, late: &mut Vec<LateOutcome>) -> Vec<String> {
        let mut notes = Vec::new();
        self.conversation.say_bye();
        // One deadline for closing stdout and exiting.
        let deadline = Instant::now() + BYE_GRACE;
        let heard = self.conversation.listen(deadline, None, |heard| {
            let note = match heard {
                Heard::TooLong { .. } => "after bye the implementation wrote an over-long line".to_owned(),
                Heard::Line(line) => match line.message {
                    Ok(Message::Result { id, about: Whose::Answered(case), .. }) => {
                        late.push(LateOutcome {
                            suite: case.suite,
                            fixture: case.fixture,
                            outcome: Outcome::ProtocolError(format!(
                                "the implementation replied twice to id {id} (the second reply came after bye)"
                            )),
                        });
                        return Continue(());
                    }
                    Ok(Message::Result { about: Whose::InFlight | Whose::Judged(_), .. }) => return Continue(()),
                    Ok(Message::Result { id, about: Whose::Unknown, .. }) => {
                        format!("after bye the implementation sent a result for unknown id {id}")
                    }
                    Ok(Message::Hello(_)) => "after bye the implementation sent another hello".to_owned(),
                    Err(violation) => format!("after bye the implementation wrote: {violation}"),
                },
            };
            notes.push(note);
            Continue::<std::convert::Infallible>(())
        });
        let connection = self.conversation.connection();
        match heard {
            Err(End::Closed) => {}
            Err(End::Silent) => {
                connection.kill();
                notes.push(format!(
                    "the implementation did not exit within {} after bye; it was killed",
                    describe_duration(BYE_GRACE)
                ));
                return notes;
            }
            Err(End::Cancelled) => {
                connection.kill();
                return notes;
            }
        }
        match connection.wait_until(deadline) {
            Some(status) if status.success() => {}
            Some(status) => notes.push(format!(
                "the implementation ended with {} after bye (expected exit status 0)",
                describe_status(status)
            )),
            None => {
                connection.kill();
                notes.push("the implementation closed its stdout after bye but did not exit; it was killed".to_owned());
            }
        }
        notes
    }
}

/// The message of a case abandoned by Ctrl-C.
pub fn interrupted() -> String {
    "interrupted: the run was stopped before the implementation answered".to_owned()
}
