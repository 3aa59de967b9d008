//! The other end of the subprocess protocol: the reference implementations
//! offered as an external program (`conform adapter`).
//!
//! It lets the protocol be tested end to end against the reference, and lets
//! a team diff its decoder against the reference on any input with the same
//! tooling it uses for its own adapter. Cases run one at a time; run several
//! adapters (`--jobs N`) for parallelism.

use super::subprocess::protocol::{
    self, HelloReply, Identity, PROTOCOL_VERSION, ReplyBody, Request, encode_hello_reply, encode_result,
};
use super::{CaseRequest, Implementation, Outcome, ReferenceImplementation};
use crate::suites;
use serde_json::Value;
use std::io::{self, BufRead, Read, Write};
use thiserror::Error;

/// Why serving stopped abnormally.
#[derive(Debug, Error)]
pub enum ServeError {
    /// Reading or writing a pipe failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A reference panicked: the adapter stops, as a crashing decoder would,
    /// so the harness gives the case the same `crash` verdict it gives the
    /// in-process reference.
    #[error("the reference crashed on {case}: {message}")]
    ReferenceCrashed {
        /// `suite/fixture`.
        case: String,
        /// The panic message.
        message: String,
    },
    /// One-shot mode: stdin is not one JSON value.
    #[error("stdin is not one JSON value: {0}")]
    BadInput(String),
    /// One-shot mode: the reference answered with an error or declined.
    #[error("{0}")]
    NoOutput(String),
}

/// The hello of `conform adapter`: every suite with its fixtureVersions
/// (suites without a reference yet answer each case with an error, exactly
/// as the in-process reference does).
pub fn hello() -> HelloReply {
    HelloReply {
        protocol: PROTOCOL_VERSION,
        implementation: Identity {
            name: "conform-reference".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            language: "rust".to_owned(),
        },
        suites: suites::all()
            .iter()
            .map(|s| (s.name().to_owned(), s.reference_versions().iter().map(|&v| u64::from(v)).collect()))
            .collect(),
    }
}

/// Runs one case through the reference.
pub fn answer(suite: &str, fixture: &str, fixture_version: u64, input: &Value) -> Result<ReplyBody, ServeError> {
    let request =
        CaseRequest { suite, fixture, fixture_version: u32::try_from(fixture_version).unwrap_or(u32::MAX), input };
    match ReferenceImplementation.run_case(&request).outcome {
        Outcome::Output(output) => Ok(ReplyBody::Output(output)),
        Outcome::Error(message) | Outcome::Unsupported(message) | Outcome::ProtocolError(message) => {
            Ok(ReplyBody::Error(message))
        }
        Outcome::Skipped(reason) => Ok(ReplyBody::Skipped(reason)),
        Outcome::Crash(message) | Outcome::Timeout(message) => {
            Err(ServeError::ReferenceCrashed { case: format!("{suite}/{fixture}"), message })
        }
    }
}

/// What to do with one line from the harness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Write this line (with its newline) to stdout.
    Reply(String),
    /// Nothing to write; the reason is worth a line on stderr.
    Ignored(String),
    /// The harness said bye: stop.
    Bye,
}

/// Answers one line from the harness (without its newline): the adapter's
/// whole work per message, with no I/O.
pub fn respond(line: &[u8]) -> Result<Step, ServeError> {
    match protocol::decode_request(line) {
        // Answered whatever version the harness speaks: the hello says which
        // one this adapter speaks, and the harness decides what a mismatch means.
        Ok(Request::Hello { .. }) => Ok(Step::Reply(encode_hello_reply(&hello()))),
        Ok(Request::Run { id, suite, fixture, fixture_version, input }) => {
            let body = answer(&suite, &fixture, fixture_version, &input)?;
            Ok(Step::Reply(encode_result(id, &body)))
        }
        Ok(Request::Bye) => Ok(Step::Bye),
        Err(violation) => Ok(Step::Ignored(violation.to_string())),
    }
}

/// Serves protocol v1 on `input`/`output` until `bye` or end of input.
/// Lines that are not harness messages are reported on `log` and skipped.
pub fn serve(input: &mut dyn BufRead, output: &mut dyn Write, log: &mut dyn Write) -> Result<(), ServeError> {
    let mut line = Vec::new();
    let mut number = 0u64;
    let limit = crate::files::max_file_bytes();
    loop {
        line.clear();
        let read = read_bounded_line(input, &mut line, limit)?;
        if read == BoundedLine::End {
            return Ok(());
        }
        number += 1;
        if read == BoundedLine::TooLong {
            writeln!(
                log,
                "conform adapter: input line {number} skipped: longer than {limit} bytes (--max-fixture-size)"
            )?;
            continue;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        if text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match respond(text)? {
            Step::Reply(reply) => {
                output.write_all(reply.as_bytes())?;
                output.flush()?;
            }
            Step::Ignored(why) => writeln!(log, "conform adapter: input line {number} skipped: {why}")?,
            Step::Bye => {
                output.flush()?;
                return Ok(());
            }
        }
    }
}

/// What [`read_bounded_line`] read.
#[derive(Debug, PartialEq, Eq)]
enum BoundedLine {
    /// A line (with its newline, unless the input ended first).
    Line,
    /// A line longer than the limit, read to its end and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of at most `limit` bytes into `line`; a longer one is
/// consumed without being kept, so that a runaway line costs no memory.
fn read_bounded_line(input: &mut dyn BufRead, line: &mut Vec<u8>, limit: u64) -> io::Result<BoundedLine> {
    let read = (&mut *input).take(limit.saturating_add(1)).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(BoundedLine::End);
    }
    if line.ends_with(b"\n") || (read as u64) <= limit {
        return Ok(BoundedLine::Line);
    }
    line.clear();
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(BoundedLine::TooLong);
        }
        let (consumed, done) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(newline) => (newline + 1, true),
            None => (buffer.len(), false),
        };
        input.consume(consumed);
        if done {
            return Ok(BoundedLine::TooLong);
        }
    }
}

/// One-shot mode: the whole of `input` is one case's input part; returns
/// the output or the error message.
pub fn one_shot(suite: &str, fixture: &str, fixture_version: &str, input: &str) -> Result<Value, ServeError> {
    let input = crate::json::parse_bounded(input).map_err(|err| ServeError::BadInput(err.to_string()))?;
    let version = fixture_version.trim().parse::<u64>().unwrap_or(1);
    match answer(suite, fixture, version, &input)? {
        ReplyBody::Output(output) => Ok(output),
        ReplyBody::Error(message) | ReplyBody::Skipped(message) => Err(ServeError::NoOutput(message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::subprocess::protocol::{Reply, decode_reply, encode_hello_request, encode_run};
    use serde_json::json;

    #[test]
    fn serves_hello_runs_and_bye() {
        let input = json!({"messages": []});
        let request = CaseRequest { suite: "nosuch", fixture: "x", fixture_version: 1, input: &input };
        let script = format!(
            "{}\nnot json\n{}{}{}",
            encode_hello_request("9.9.9").trim_end(),
            encode_run(5, &request),
            protocol::BYE_LINE,
            encode_run(6, &request)
        );
        let mut output = Vec::new();
        let mut log = Vec::new();
        serve(&mut script.as_bytes(), &mut output, &mut log).unwrap();
        let lines: Vec<Reply> =
            output.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| decode_reply(l).unwrap()).collect();
        assert_eq!(lines.len(), 2, "the run after bye is not answered");
        let Reply::Hello(hello) = &lines[0] else { panic!("hello first") };
        assert_eq!(hello.suites.len(), suites::all().len());
        assert!(matches!(&lines[1], Reply::Result { id: 5, body: ReplyBody::Error(m) } if m.contains("nosuch")));
        assert!(String::from_utf8(log).unwrap().contains("input line 2 skipped: the line is not JSON"));
    }

    #[test]
    fn a_line_over_the_limit_is_dropped_without_being_kept() {
        let text = format!("short\n{}\nnext\n{}", "x".repeat(100), "y".repeat(50));
        let mut input = std::io::BufReader::with_capacity(8, text.as_bytes());
        let mut line = Vec::new();
        let mut read = Vec::new();
        loop {
            line.clear();
            match read_bounded_line(&mut input, &mut line, 10).unwrap() {
                BoundedLine::End => break,
                outcome => read.push((outcome, String::from_utf8(line.clone()).unwrap())),
            }
        }
        assert_eq!(
            read,
            [
                (BoundedLine::Line, "short\n".to_owned()),
                (BoundedLine::TooLong, String::new()),
                (BoundedLine::Line, "next\n".to_owned()),
                (BoundedLine::TooLong, String::new()),
            ]
        );
    }
}
