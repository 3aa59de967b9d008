//! Checking a persistent implementation: its hello, each case and its bye,
//! over the protocol-event loop a run uses, with the check's own policy:
//! every message is validated against its schema, and a stray line is
//! explained and waited past instead of ending the case.

use super::hello::describe_hello;
use super::{CheckCase, CheckReport, Level, quote_stderr, with};
use crate::implementation::subprocess::child::describe_status;
use crate::implementation::subprocess::conversation::{Conversation, End, Heard, Line, Message, SendFault, Whose};
use crate::implementation::subprocess::options::{BYE_GRACE, SubprocessOptions, describe_duration, describe_size};
use crate::implementation::subprocess::protocol::{self, HelloReply, PROTOCOL_VERSION, ReplyBody, excerpt};
use crate::implementation::subprocess::schemas::{MessageKind, violations};
use crate::implementation::subprocess::{CommandLine, Health, StartError};
use serde_json::Value;
use std::convert::Infallible;
use std::ops::ControlFlow::{self, Break, Continue};
use std::time::{Duration, Instant};

pub use super::hello::SLOW_START;

/// Restarts the check allows itself after crashes and timeouts.
const CHECK_RESTARTS: u32 = 3;
/// Stderr per case beyond this gets a warning.
const NOISY_STDERR: u64 = 1024 * 1024;
/// How long the check listens for stray lines before saying bye.
const QUIET_PERIOD: Duration = Duration::from_millis(300);

/// Checks a persistent implementation: handshake, each case, bye.
pub fn check_persistent(
    command: &CommandLine,
    cases: &[CheckCase<'_>],
    options: &SubprocessOptions,
) -> Result<CheckReport, StartError> {
    command.check_startable()?;
    let mut report = CheckReport { selected: cases.len(), ..CheckReport::default() };
    let mut checker = Checker { command, options, report: &mut report, restarts: 0, next_id: 1 };
    let Some(mut live) = checker.start(true)? else { return Ok(report) };
    let hello = live.hello.clone();
    let mut undeclared = 0usize;
    for case in cases {
        if checker.options.cancelled() {
            break;
        }
        let version = u64::from(case.fixture_version);
        if !hello.versions(case.suite.name()).is_some_and(|versions| versions.contains(&version)) {
            undeclared += 1;
            continue;
        }
        match checker.run_case(&mut live, case) {
            Health::Alive => {}
            Health::Dead => {
                if checker.restarts >= CHECK_RESTARTS {
                    checker.report.add(
                        Level::Note,
                        format!("stopped after {CHECK_RESTARTS} restarts; the remaining cases were not sent"),
                        Vec::new(),
                    );
                    return Ok(report);
                }
                checker.restarts += 1;
                match checker.start(false)? {
                    Some(next) => live = next,
                    None => return Ok(report),
                }
            }
        }
    }
    checker.finish(live);
    if undeclared > 0 {
        report.add(
            Level::Note,
            format!(
                "{undeclared} of the {} smoke cases were not sent: the hello does not declare their suite or \
                 fixtureVersion",
                cases.len()
            ),
            Vec::new(),
        );
    }
    Ok(report)
}

struct Live {
    conversation: Conversation,
    hello: HelloReply,
}

struct Checker<'a> {
    command: &'a CommandLine,
    options: &'a SubprocessOptions,
    report: &'a mut CheckReport,
    restarts: u32,
    next_id: u64,
}

impl Checker<'_> {
    /// Starts the process and checks its hello. `Ok(None)`: no usable hello.
    fn start(&mut self, first: bool) -> Result<Option<Live>, StartError> {
        let mut conversation = Conversation::open(self.command, self.options)?;
        let options = self.options;
        let deadline = Instant::now() + options.hello_timeout();
        let report = &mut *self.report;
        let heard = conversation.listen(deadline, None, |heard| match heard {
            Heard::TooLong { number } => {
                report.add(
                    Level::Problem,
                    format!("stdout line {number} is longer than --max-output ({})", describe_size(options.max_output)),
                    vec!["the first line must be the implementation's hello".to_owned()],
                );
                Continue(())
            }
            Heard::Line(line) => judge_hello(report, line),
        });
        let connection = conversation.connection();
        match heard {
            Ok(Some(hello)) => {
                let startup = connection.age();
                if first {
                    describe_hello(self.report, &hello, startup, options);
                }
                return Ok(Some(Live { conversation, hello }));
            }
            Ok(None) => connection.kill(),
            Err(End::Closed) => {
                let how = connection.ended();
                self.report.add(
                    Level::Problem,
                    format!("the implementation ended ({how}) before sending its hello"),
                    with(
                        vec!["it must stay running, answer the harness's hello, and exit only after bye".to_owned()],
                        quote_stderr(connection.stderr_since(0).as_deref()),
                    ),
                );
            }
            Err(End::Silent) => {
                let hint = connection.silence_hint();
                connection.kill();
                let mut details = vec![
                    "after reading {\"op\":\"hello\",…} from stdin it must write one line such as".to_owned(),
                    format!(
                        r#"  {{"op":"hello","protocol":1,"implementation":{{"name":"my-decoder","version":"1.0","language":"kotlin"}},"suites":{{"{}":[1]}}}}"#,
                        crate::suites::names().first().copied().unwrap_or("SUITE")
                    ),
                    "and flush stdout (buffered stdout is the usual cause: flush after every line)".to_owned(),
                ];
                details.extend(hint);
                details.push(format!(
                    "if it is only slow to start, raise --hello-timeout (now {})",
                    describe_duration(options.hello_timeout())
                ));
                self.report.add(
                    Level::Problem,
                    format!("no hello within {}", describe_duration(options.hello_timeout())),
                    with(details, quote_stderr(connection.stderr_since(0).as_deref())),
                );
            }
            Err(End::Cancelled) => {}
        }
        Ok(None)
    }

    fn run_case(&mut self, live: &mut Live, case: &CheckCase<'_>) -> Health {
        let label = case.id();
        let id = self.next_id;
        let mark = live.conversation.connection().stderr_mark();
        match live.conversation.send_case(id, &case.request()) {
            Ok(()) => {
                self.next_id += 1;
                self.report.sent += 1;
            }
            Err(SendFault::Exited(status)) => {
                self.report.add(
                    Level::Problem,
                    format!("the implementation ended ({}) before {label} was sent", describe_status(status)),
                    vec!["a persistent implementation must keep running until bye (or use --one-shot)".to_owned()],
                );
                return Health::Dead;
            }
            Err(SendFault::Broken) => {
                self.next_id += 1;
                let connection = live.conversation.connection();
                let how = connection.ended();
                self.report.add(
                    Level::Problem,
                    format!("the implementation ended ({how}) before reading {label}"),
                    with(
                        vec!["a persistent implementation must keep running until bye (or use --one-shot)".to_owned()],
                        quote_stderr(connection.stderr_since(mark).as_deref()),
                    ),
                );
                return Health::Dead;
            }
            Err(SendFault::NotReading) => {
                self.next_id += 1;
                self.report.add(
                    Level::Problem,
                    format!("the implementation stopped reading its stdin before {label}"),
                    vec!["it must keep reading stdin, one message per line".to_owned()],
                );
                return Health::Dead;
            }
        }
        let options = self.options;
        let deadline = Instant::now() + options.timeout;
        let report = &mut *self.report;
        let heard = live.conversation.listen(deadline, Some(id), |heard| match heard {
            Heard::TooLong { number } => {
                report.add(
                    Level::Problem,
                    format!(
                        "{label}: stdout line {number} is longer than --max-output ({})",
                        describe_size(options.max_output)
                    ),
                    vec![
                        "the line was cut off and skipped; a run gives the case `protocol-error`".to_owned(),
                        "if outputs really are this large, raise --max-output".to_owned(),
                    ],
                );
                Continue(())
            }
            Heard::Line(line) => judge_line(report, case, id, line),
        });
        let connection = live.conversation.connection();
        let health = match heard {
            Ok(answered) => {
                if answered {
                    live.conversation.mark_answered(id);
                }
                Health::Alive
            }
            Err(End::Closed) => {
                let how = connection.ended();
                let mut details = Vec::new();
                if how == "exit status 0" {
                    details.push("it exited cleanly, but before bye: a persistent implementation must keep reading stdin until {\"op\":\"bye\"}".to_owned());
                } else {
                    details.push("a run gives this case `crash`, then restarts the implementation".to_owned());
                }
                self.report.add(
                    Level::Problem,
                    format!("the implementation ended ({how}) while {label} was in flight"),
                    with(details, quote_stderr(connection.stderr_since(mark).as_deref())),
                );
                Health::Dead
            }
            Err(End::Silent) => {
                let hint = connection.silence_hint();
                connection.kill();
                let mut details = vec![format!(
                    "a run gives this case `timeout` and restarts the implementation; raise --timeout (now {}) if it is only slow",
                    describe_duration(options.timeout)
                )];
                match hint {
                    Some(hint) => details.push(hint),
                    None => details.push("remember to flush stdout after each result".to_owned()),
                }
                self.report.add(
                    Level::Problem,
                    format!("{label}: no reply within {}", describe_duration(options.timeout)),
                    with(details, quote_stderr(connection.stderr_since(mark).as_deref())),
                );
                Health::Dead
            }
            Err(End::Cancelled) => Health::Dead,
        };
        let written = live.conversation.connection().stderr_total().saturating_sub(mark);
        if written > NOISY_STDERR {
            self.report.add(
                Level::Warning,
                format!("{label}: the implementation wrote {} to stderr during this case", describe_size(written)),
                vec![format!(
                    "stderr is free text, but a run keeps only the last {} per case; heavy logging slows runs",
                    describe_size(options.stderr_tail as u64)
                )],
            );
        }
        health
    }

    fn finish(&mut self, mut live: Live) {
        // Stray lines (a second reply to the last case, say) show up now.
        let quiet = Instant::now() + QUIET_PERIOD;
        let report = &mut *self.report;
        let heard = live.conversation.listen(quiet, None, |heard| {
            match heard {
                Heard::Line(line) => {
                    report.messages += 1;
                    stray(report, &line, "after the last case");
                }
                Heard::TooLong { .. } => {
                    report.add(Level::Problem, "an over-long stdout line after the last case".to_owned(), Vec::new())
                }
            }
            Continue::<Infallible>(())
        });
        let connection = live.conversation.connection();
        if let Err(End::Closed) = heard {
            let how = connection.ended();
            self.report.add(
                Level::Problem,
                format!("the implementation ended ({how}) before bye"),
                vec!["a persistent implementation must keep running until it reads {\"op\":\"bye\"}".to_owned()],
            );
            return;
        }
        live.conversation.say_bye();
        // One deadline for closing stdout and exiting, as in a run.
        let deadline = Instant::now() + BYE_GRACE;
        let report = &mut *self.report;
        let heard = live.conversation.listen(deadline, None, |heard| {
            if let Heard::Line(line) = heard {
                report.messages += 1;
                stray(report, &line, "after bye");
            }
            Continue::<Infallible>(())
        });
        let connection = live.conversation.connection();
        match heard {
            Err(End::Closed) => {}
            Err(End::Silent | End::Cancelled) => {
                connection.kill();
                self.report.add(
                    Level::Problem,
                    format!("the implementation did not exit within {} after bye", describe_duration(BYE_GRACE)),
                    vec!["on {\"op\":\"bye\"} (or end of stdin) it must exit with status 0".to_owned()],
                );
                return;
            }
        }
        match connection.wait_until(deadline) {
            Some(status) if status.success() => {
                self.report.add(Level::Ok, "bye: exited with status 0".to_owned(), Vec::new());
            }
            Some(status) => self.report.add(
                Level::Problem,
                format!("the implementation ended with {} after bye", describe_status(status)),
                with(
                    vec!["on bye it must exit with status 0".to_owned()],
                    quote_stderr(connection.stderr_since(0).as_deref()),
                ),
            ),
            None => {
                connection.kill();
                self.report.add(
                    Level::Problem,
                    "the implementation closed stdout after bye but did not exit".to_owned(),
                    Vec::new(),
                );
            }
        }
    }
}

/// Judges a line before the hello: `Break(Some)` for a valid hello,
/// `Break(None)` for a message that cannot start the conversation, and
/// `Continue` past a line that is not a protocol message.
fn judge_hello(report: &mut CheckReport, line: Line) -> ControlFlow<Option<HelloReply>> {
    report.messages += 1;
    let value = match parse_line(&line.bytes) {
        Ok(value) => value,
        Err(problem) => {
            report.add(
                Level::Problem,
                format!("stdout line {} before the hello is not a protocol message: {problem}", line.number),
                vec![
                    "stdout carries protocol messages only, and the first must be the hello; print logs to stderr"
                        .to_owned(),
                ],
            );
            return Continue(());
        }
    };
    let problems = violations(MessageKind::HelloResponse, &value);
    let headline = match line.message {
        Ok(Message::Hello(hello)) if problems.is_empty() && hello.protocol == PROTOCOL_VERSION => {
            return Break(Some(hello));
        }
        Ok(Message::Result { id, .. }) => format!("the first message is a result (for id {id}), not a hello"),
        Ok(Message::Hello(hello)) if hello.protocol != PROTOCOL_VERSION => {
            format!("the hello says protocol {}; this harness speaks protocol {PROTOCOL_VERSION}", hello.protocol)
        }
        Ok(_) => "the hello does not match its schema".to_owned(),
        Err(violation) => format!("the hello is malformed: {violation}"),
    };
    let mut details: Vec<String> =
        problems.into_iter().map(|p| format!("schema {}: {p}", MessageKind::HelloResponse.file_name())).collect();
    details.push(format!("received: {}", excerpt(&String::from_utf8_lossy(&line.bytes))));
    report.add(Level::Problem, headline, details);
    Break(None)
}

/// Judges a line while case `id` is in flight: `Break(answered)` when the
/// line ends the case (`answered`: with a valid result), `Continue` past a
/// stray line.
fn judge_line(report: &mut CheckReport, case: &CheckCase<'_>, id: u64, line: Line) -> ControlFlow<bool> {
    report.messages += 1;
    let label = case.id();
    let value = match parse_line(&line.bytes) {
        Ok(value) => value,
        Err(problem) => {
            report.add(
                Level::Problem,
                format!("{label}: stdout line {} is not a protocol message: {problem}", line.number),
                vec![
                    "stdout carries protocol messages only (one JSON object per line); print logs to stderr".to_owned(),
                    "a run gives the case in flight `protocol-error`".to_owned(),
                ],
            );
            return Continue(());
        }
    };
    let problems = violations(MessageKind::Result, &value);
    let schema_details = |problems: &[String]| -> Vec<String> {
        problems.iter().map(|p| format!("schema {}: {p}", MessageKind::Result.file_name())).collect()
    };
    match line.message {
        Ok(Message::Result { body, about: Whose::InFlight, .. }) if problems.is_empty() => {
            match body {
                ReplyBody::Output(output) => report.judge_output(case, &output),
                ReplyBody::Error(message) => {
                    report.errors += 1;
                    report.add(Level::Note, format!("{label}: answered `error`: {}", excerpt(&message)), Vec::new());
                }
                ReplyBody::Skipped(_) => report.skipped += 1,
            }
            Break(true)
        }
        Ok(Message::Result { id: got, about: Whose::Answered(first), .. }) => {
            report.add(
                Level::Problem,
                format!("id {got} ({first}) was answered twice; the second reply came while {label} was in flight"),
                vec![
                    "each run request gets exactly one result; a run gives the twice-answered case `protocol-error`"
                        .to_owned(),
                ],
            );
            Continue(())
        }
        Ok(Message::Result { id: got, about: Whose::Judged(earlier), .. }) => {
            report.add(
                Level::Note,
                format!("a late reply to id {got} ({earlier}) came while {label} was in flight; it is ignored"),
                Vec::new(),
            );
            Continue(())
        }
        Ok(Message::Result { id: got, about: Whose::Unknown, .. }) => {
            report.add(
                Level::Problem,
                format!("{label}: the reply carries id {got}, but this case was sent with id {id}"),
                vec!["copy the `id` of each run request into its result unchanged".to_owned()],
            );
            Break(false)
        }
        Ok(Message::Hello(_)) => {
            report.add(
                Level::Problem,
                format!("{label}: a second hello arrived instead of a result"),
                vec!["send the hello once, in answer to the harness's hello".to_owned()],
            );
            Continue(())
        }
        Ok(Message::Result { about: Whose::InFlight, .. }) => {
            report.add(
                Level::Problem,
                format!("{label}: the result does not match its schema"),
                schema_details(&problems),
            );
            Break(false)
        }
        Err(violation) => {
            let mut details = schema_details(&problems);
            details.push(format!("received: {}", excerpt(&String::from_utf8_lossy(&line.bytes))));
            report.add(Level::Problem, format!("{label}: {violation}"), details);
            Break(false)
        }
    }
}

/// Explains a line that came when no case was in flight.
fn stray(report: &mut CheckReport, line: &Line, when: &str) {
    match &line.message {
        Ok(Message::Result { id, about: Whose::Answered(case), .. }) => report.add(
            Level::Problem,
            format!("id {id} ({case}) was answered twice; the second reply came {when}"),
            vec!["each run request gets exactly one result; a run gives that case `protocol-error`".to_owned()],
        ),
        Ok(Message::Result { id, .. }) => {
            report.add(Level::Problem, format!("a result for unknown id {id} came {when}"), Vec::new())
        }
        Ok(Message::Hello(_)) => report.add(Level::Problem, format!("a second hello came {when}"), Vec::new()),
        Err(violation) => report.add(
            Level::Problem,
            format!("stdout line {when} is not a protocol message: {violation}"),
            vec!["stdout carries protocol messages only; print logs to stderr".to_owned()],
        ),
    }
}

fn parse_line(line: &[u8]) -> Result<Value, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text =
        std::str::from_utf8(line).map_err(|err| format!("not UTF-8 (invalid byte at offset {})", err.valid_up_to()))?;
    match crate::json::parse_value(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("a JSON {}, not an object: `{}`", protocol::type_name(&other), excerpt(text))),
        Err(err) => Err(format!("not JSON ({}): `{}`", err.message, excerpt(text))),
    }
}
