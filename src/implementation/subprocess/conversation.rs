//! The protocol-event loop every persistent conversation runs on: the
//! session driver of a run and `conform check-adapter` alike.
//!
//! A [`Conversation`] owns one implementation process and turns what it
//! writes into protocol events: stdout lines are counted, blank ones
//! skipped, the others decoded and, when they are results, told apart by
//! whose id they carry (the case in flight, one already answered, one a
//! fault judged, or none sent). What to make of each event is the caller's
//! policy: a run turns the first stray line into the verdict of the case in
//! flight, the check notes it and waits for the real reply. The ends of a
//! conversation (stdout closed, silence past the deadline, Ctrl-C) are
//! returned, never handed to the policy, so no policy can wait past them.

use super::command::CommandLine;
use super::connection::Connection;
use super::error::StartError;
use super::options::SubprocessOptions;
use super::pipes::{LineEvent, Next, SendError};
use super::protocol::{self, BYE_LINE, HelloReply, ReplyBody, Violation, encode_hello_request, encode_run};
use crate::implementation::CaseRequest;
use std::collections::HashMap;
use std::fmt;
use std::ops::ControlFlow;
use std::process::ExitStatus;
use std::time::Instant;

/// A case that was sent, named for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CaseName {
    /// Its suite.
    pub suite: String,
    /// Its fixture name.
    pub fixture: String,
}

impl fmt::Display for CaseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.suite, self.fixture)
    }
}

#[derive(Debug)]
struct Sent {
    name: CaseName,
    /// Answered with a valid result (a second result is a double reply).
    answered: bool,
}

/// Whose id a result carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Whose {
    /// The case in flight.
    InFlight,
    /// A case answered before.
    Answered(CaseName),
    /// A case sent before and judged without an answer (a fault, or a reply
    /// that broke the protocol).
    Judged(CaseName),
    /// No case was sent with this id.
    Unknown,
}

/// A protocol message, decoded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Message {
    /// A hello.
    Hello(HelloReply),
    /// A result.
    Result {
        /// The id it carries.
        id: u64,
        /// What it says.
        body: ReplyBody,
        /// Whose id that is.
        about: Whose,
    },
}

/// One stdout line that is not blank.
#[derive(Debug)]
pub(crate) struct Line {
    /// Its number on stdout (from 1, blank lines counted).
    pub number: u64,
    /// Its bytes, without the newline.
    pub bytes: Vec<u8>,
    /// The message it carries, or how it breaks the protocol.
    pub message: Result<Message, Violation>,
}

/// What the implementation wrote.
#[derive(Debug)]
pub(crate) enum Heard {
    /// A line.
    Line(Line),
    /// A line longer than `--max-output`: cut off, the rest of it skipped.
    TooLong {
        /// Its number on stdout.
        number: u64,
    },
}

/// How listening ended without the policy stopping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Stdout closed (or could not be read): the process is ending. See
    /// [`Connection::ended`].
    Closed,
    /// The deadline passed. The process is left as it is.
    Silent,
    /// The run was cancelled. The process is left as it is.
    Cancelled,
}

/// Why a case could not be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SendFault {
    /// The process had exited before the case was sent (not registered).
    Exited(ExitStatus),
    /// Stdin is closed: the process is ending.
    Broken,
    /// The process stopped reading its stdin; it was killed.
    NotReading,
}

/// One implementation process spoken to over protocol v1.
#[derive(Debug)]
pub(crate) struct Conversation {
    connection: Connection,
    /// Stdout lines read so far.
    lines: u64,
    sent: HashMap<u64, Sent>,
}

impl Conversation {
    /// Starts `command` and says the harness's hello.
    pub fn open(command: &CommandLine, options: &SubprocessOptions) -> Result<Self, StartError> {
        let mut connection = Connection::open(command, &[], options)?;
        // A process that exits at once is found by the first listen.
        let _ = connection.send(encode_hello_request(env!("CARGO_PKG_VERSION")).into_bytes());
        Ok(Conversation { connection, lines: 0, sent: HashMap::new() })
    }

    /// The process and its pipes.
    pub fn connection(&mut self) -> &mut Connection {
        &mut self.connection
    }

    /// The options it runs under.
    pub fn options(&self) -> &SubprocessOptions {
        self.connection.options()
    }

    /// Sends case `id` and registers it as in flight.
    pub fn send_case(&mut self, id: u64, request: &CaseRequest<'_>) -> Result<(), SendFault> {
        if let Some(status) = self.connection.exited() {
            return Err(SendFault::Exited(status));
        }
        let name = CaseName { suite: request.suite.to_owned(), fixture: request.fixture.to_owned() };
        self.sent.insert(id, Sent { name, answered: false });
        match self.connection.send(encode_run(id, request).into_bytes()) {
            Ok(()) => Ok(()),
            Err(SendError::Broken) => Err(SendFault::Broken),
            Err(SendError::NotReading) => {
                self.connection.kill();
                Err(SendFault::NotReading)
            }
        }
    }

    /// Records that case `id` was answered with a valid result.
    pub fn mark_answered(&mut self, id: u64) {
        if let Some(sent) = self.sent.get_mut(&id) {
            sent.answered = true;
        }
    }

    /// Says bye and closes stdin.
    pub fn say_bye(&mut self) {
        let _ = self.connection.send(BYE_LINE.as_bytes().to_vec());
        self.connection.close_stdin();
    }

    /// Hands each line written before `deadline` to `policy` until the
    /// policy breaks (`Ok`) or the conversation ends (`Err`). `in_flight` is
    /// the id of the case being waited for, if any.
    pub fn listen<T>(
        &mut self,
        deadline: Instant,
        in_flight: Option<u64>,
        mut policy: impl FnMut(Heard) -> ControlFlow<T>,
    ) -> Result<T, End> {
        loop {
            let heard = match self.connection.next(deadline) {
                Next::Event(LineEvent::Line(bytes)) => {
                    self.lines += 1;
                    if bytes.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    let message = protocol::decode_reply(&bytes).map(|reply| self.classify(reply, in_flight));
                    Heard::Line(Line { number: self.lines, bytes, message })
                }
                Next::Event(LineEvent::TooLong) => {
                    self.lines += 1;
                    Heard::TooLong { number: self.lines }
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => return Err(End::Closed),
                Next::TimedOut => return Err(End::Silent),
                Next::Cancelled => return Err(End::Cancelled),
            };
            if let ControlFlow::Break(verdict) = policy(heard) {
                return Ok(verdict);
            }
        }
    }

    fn classify(&self, reply: protocol::Reply, in_flight: Option<u64>) -> Message {
        match reply {
            protocol::Reply::Hello(hello) => Message::Hello(hello),
            protocol::Reply::Result { id, body } => {
                let about = match self.sent.get(&id) {
                    _ if in_flight == Some(id) => Whose::InFlight,
                    Some(Sent { name, answered: true }) => Whose::Answered(name.clone()),
                    Some(Sent { name, answered: false }) => Whose::Judged(name.clone()),
                    None => Whose::Unknown,
                };
                Message::Result { id, body, about }
            }
        }
    }
}
