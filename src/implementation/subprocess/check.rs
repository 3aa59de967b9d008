//! `conform check-adapter`: a smoke run that watches every message an
//! implementation sends, validates it against the protocol schemas, and
//! explains in plain words what is wrong and how to fix it (in the spirit of
//! Bowtie's validate mode).
//!
//! Unlike a run, the check keeps going after a problem where it can (it
//! waits for the real reply after a stray line, restarts after a crash) so
//! that one session shows as many problems as possible.

use super::child::describe_status;
use super::command::CommandLine;
use super::connection::Connection;
use super::error::StartError;
use super::oneshot::OneShotImplementation;
use super::options::{SubprocessOptions, describe_duration, describe_size};
use super::pipes::{LineEvent, Next, SendError};
use super::protocol::{
    self, BYE_LINE, HelloReply, PROTOCOL_VERSION, Reply, ReplyBody, encode_hello_request, encode_run, excerpt,
};
use super::schemas::{MessageKind, violations};
use crate::compare::compare;
use crate::fixture::Corpus;
use crate::implementation::{CaseRequest, Implementation, Outcome};
use crate::suite::Suite;
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Restarts the check allows itself after crashes and timeouts.
const CHECK_RESTARTS: u32 = 3;
/// A hello slower than this gets a warning.
pub const SLOW_START: Duration = Duration::from_secs(2);
/// Stderr per case beyond this gets a warning.
const NOISY_STDERR: u64 = 1024 * 1024;
/// How long the check listens for stray lines before saying bye.
const QUIET_PERIOD: Duration = Duration::from_millis(300);
/// Stderr lines quoted under a problem.
const QUOTED_STDERR_LINES: usize = 8;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Something that works as it should.
    Ok,
    /// Information.
    Note,
    /// Works, but costs time or hides information.
    Warning,
    /// Breaks the protocol: a run would give a fault verdict.
    Problem,
}

/// One thing the check found, with an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How serious it is.
    pub level: Level,
    /// One line saying what happened.
    pub headline: String,
    /// Further lines: why it matters, how to fix it, evidence.
    pub details: Vec<String>,
}

/// One case to send.
#[derive(Clone, Copy, Debug)]
pub struct CheckCase<'a> {
    /// The suite.
    pub suite: &'static dyn Suite,
    /// Fixture name.
    pub fixture: &'a str,
    /// fixtureVersion.
    pub fixture_version: u32,
    /// The input part.
    pub input: &'a Value,
    /// The expected part.
    pub expected: &'a Value,
}

impl CheckCase<'_> {
    fn id(&self) -> String {
        format!("{}/{}", self.suite.name(), self.fixture)
    }

    fn request(&self) -> CaseRequest<'_> {
        CaseRequest {
            suite: self.suite.name(),
            fixture: self.fixture,
            fixture_version: self.fixture_version,
            input: self.input,
        }
    }
}

/// The smoke cases of a check: the ready fixtures among `selected`, at most
/// `per_suite` of each suite (0 = all), in corpus order.
pub fn smoke_cases<'c>(corpus: &'c Corpus, selected: &[usize], per_suite: usize) -> Vec<CheckCase<'c>> {
    let mut taken: HashMap<&str, usize> = HashMap::new();
    selected
        .iter()
        .filter_map(|&index| corpus.fixtures.get(index))
        .filter_map(|fixture| {
            let parts = fixture.parts()?;
            let count = taken.entry(fixture.suite.name()).or_default();
            if per_suite > 0 && *count >= per_suite {
                return None;
            }
            *count += 1;
            Some(CheckCase {
                suite: fixture.suite,
                fixture: &fixture.name,
                fixture_version: fixture.version.unwrap_or(1),
                input: &parts.input,
                expected: &parts.expected,
            })
        })
        .collect()
}

/// Everything the check found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Findings in the order they happened.
    pub findings: Vec<Finding>,
    /// Cases answered with an output equal to the expectation.
    pub passed: usize,
    /// Cases answered with a different output.
    pub failed: usize,
    /// Cases answered with `error`.
    pub errors: usize,
    /// Cases answered with `skipped`, or not sent because undeclared.
    pub skipped: usize,
    /// Messages received and validated.
    pub messages: usize,
}

impl CheckReport {
    fn add(&mut self, level: Level, headline: impl Into<String>, details: Vec<String>) {
        self.findings.push(Finding { level, headline: headline.into(), details });
    }

    /// Findings of level [`Level::Problem`].
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| f.level == Level::Problem).count()
    }

    /// Findings of level [`Level::Warning`].
    pub fn warnings(&self) -> usize {
        self.findings.iter().filter(|f| f.level == Level::Warning).count()
    }

    /// The closing line.
    pub fn summary(&self) -> String {
        format!(
            "{} protocol problems, {} warnings; {} messages checked; smoke cases: {} passed, {} failed, {} errors, {} skipped",
            self.problems(),
            self.warnings(),
            self.messages,
            self.passed,
            self.failed,
            self.errors,
            self.skipped
        )
    }

    fn judge_output(&mut self, case: &CheckCase<'_>, output: &Value) {
        match compare(case.suite, case.input, case.expected, output) {
            None => self.passed += 1,
            Some(mismatch) => {
                self.failed += 1;
                let first = mismatch.differences.first().map(|d| d.message()).unwrap_or_default();
                self.add(
                    Level::Note,
                    format!("{}: the output differs from the expectation (not a protocol problem)", case.id()),
                    vec![first, "run `conform run … --impl-cmd …` for the full diff".to_owned()],
                );
            }
        }
    }
}

/// Checks a persistent implementation: handshake, each case, bye.
pub fn check_persistent(
    command: &CommandLine,
    cases: &[CheckCase<'_>],
    options: &SubprocessOptions,
) -> Result<CheckReport, StartError> {
    command.check_startable()?;
    let mut report = CheckReport::default();
    let mut checker = Checker { command, options, report: &mut report, restarts: 0, next_id: 1 };
    let Some(mut live) = checker.start(true)? else { return Ok(report) };
    let hello = live.hello.clone();
    for case in cases {
        if checker.options.cancelled() {
            break;
        }
        let version = u64::from(case.fixture_version);
        if !hello.versions(case.suite.name()).is_some_and(|versions| versions.contains(&version)) {
            checker.report.skipped += 1;
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
    Ok(report)
}

/// Checks a one-shot command on each case.
pub fn check_one_shot(
    command: &CommandLine,
    cases: &[CheckCase<'_>],
    options: &SubprocessOptions,
) -> Result<CheckReport, StartError> {
    let implementation = OneShotImplementation::new(command.clone(), options.clone())?;
    let mut report = CheckReport::default();
    let mut total = Duration::ZERO;
    let mut count = 0u32;
    for case in cases {
        if options.cancelled() {
            break;
        }
        let started = Instant::now();
        let run = implementation.run_case(&case.request());
        total += started.elapsed();
        count += 1;
        report.messages += 1;
        let stderr = quote_stderr(run.stderr.as_deref());
        match run.outcome {
            Outcome::Output(output) => report.judge_output(case, &output),
            Outcome::Error(message) => {
                report.errors += 1;
                report.add(
                    Level::Note,
                    format!("{}: exited non-zero, so the case is an `error`", case.id()),
                    vec![first_lines(&message, 3)],
                );
            }
            Outcome::Skipped(_) | Outcome::Unsupported(_) => report.skipped += 1,
            Outcome::ProtocolError(message) => report.add(
                Level::Problem,
                format!("{}: {message}", case.id()),
                with(
                    vec![
                        "in one-shot mode stdout must hold exactly one JSON value, the output; logs go to stderr"
                            .to_owned(),
                    ],
                    stderr,
                ),
            ),
            Outcome::Crash(message) => report.add(Level::Problem, format!("{}: {message}", case.id()), stderr),
            Outcome::Timeout(message) => report.add(
                Level::Problem,
                format!("{}: {message}", case.id()),
                with(
                    vec![format!("each case must finish within --timeout ({})", describe_duration(options.timeout))],
                    stderr,
                ),
            ),
        }
    }
    if count > 0 {
        let average = total / count;
        report.add(
            Level::Note,
            format!("one-shot mode took {} per case on average ({count} cases)", describe_duration(average)),
            vec!["persistent mode (the protocol) starts the process once per worker instead".to_owned()],
        );
    }
    Ok(report)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Health {
    Alive,
    Dead,
}

struct Live {
    connection: Connection,
    hello: HelloReply,
    /// Cases answered with a valid result, by id.
    answered: HashMap<u64, String>,
    /// Cases sent, by id (answered or not).
    sent: HashMap<u64, String>,
    line: u64,
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
        let mut connection = Connection::open(self.command, &[], self.options)?;
        let request = encode_hello_request(env!("CARGO_PKG_VERSION"));
        let _ = connection.send(request.into_bytes());
        let deadline = Instant::now() + self.options.hello_timeout();
        let mut line_number = 0u64;
        loop {
            let line = match connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => line,
                Next::Event(LineEvent::TooLong) => {
                    line_number += 1;
                    self.report.add(
                        Level::Problem,
                        format!(
                            "stdout line {line_number} is longer than --max-output ({})",
                            describe_size(self.options.max_output)
                        ),
                        vec!["the first line must be the implementation's hello".to_owned()],
                    );
                    continue;
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => {
                    let how = connection.ended();
                    self.report.add(
                        Level::Problem,
                        format!("the implementation ended ({how}) before sending its hello"),
                        with(
                            vec![
                                "it must stay running, answer the harness's hello, and exit only after bye".to_owned(),
                            ],
                            quote_stderr(connection.stderr_since(0).as_deref()),
                        ),
                    );
                    return Ok(None);
                }
                Next::TimedOut => {
                    let hint = connection.silence_hint();
                    connection.kill();
                    let mut details = vec![
                        "after reading {\"op\":\"hello\",…} from stdin it must write one line such as".to_owned(),
                        r#"  {"op":"hello","protocol":1,"implementation":{"name":"my-decoder","version":"1.0","language":"kotlin"},"suites":{"chat":[1]}}"#.to_owned(),
                        "and flush stdout (buffered stdout is the usual cause: flush after every line)".to_owned(),
                    ];
                    details.extend(hint);
                    details.push(format!(
                        "if it is only slow to start, raise --hello-timeout (now {})",
                        describe_duration(self.options.hello_timeout())
                    ));
                    self.report.add(
                        Level::Problem,
                        format!("no hello within {}", describe_duration(self.options.hello_timeout())),
                        with(details, quote_stderr(connection.stderr_since(0).as_deref())),
                    );
                    return Ok(None);
                }
                Next::Cancelled => return Ok(None),
            };
            line_number += 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            self.report.messages += 1;
            let value = match parse_line(&line) {
                Ok(value) => value,
                Err(problem) => {
                    self.report.add(
                        Level::Problem,
                        format!("stdout line {line_number} before the hello is not a protocol message: {problem}"),
                        vec!["stdout carries protocol messages only, and the first must be the hello; print logs to stderr".to_owned()],
                    );
                    continue;
                }
            };
            let problems = violations(MessageKind::HelloResponse, &value);
            match protocol::decode_reply(&line) {
                Ok(Reply::Hello(hello)) if problems.is_empty() && hello.protocol == PROTOCOL_VERSION => {
                    let startup = connection.age();
                    if first {
                        self.describe_hello(&hello, startup);
                    }
                    return Ok(Some(Live {
                        connection,
                        hello,
                        answered: HashMap::new(),
                        sent: HashMap::new(),
                        line: line_number,
                    }));
                }
                decoded => {
                    let headline = match decoded {
                        Ok(Reply::Result { id, .. }) => {
                            format!("the first message is a result (for id {id}), not a hello")
                        }
                        Ok(Reply::Hello(hello)) if hello.protocol != PROTOCOL_VERSION => format!(
                            "the hello says protocol {}; this harness speaks protocol {PROTOCOL_VERSION}",
                            hello.protocol
                        ),
                        Ok(_) => "the hello does not match its schema".to_owned(),
                        Err(violation) => format!("the hello is malformed: {violation}"),
                    };
                    let mut details: Vec<String> = problems
                        .into_iter()
                        .map(|p| format!("schema {}: {p}", MessageKind::HelloResponse.file_name()))
                        .collect();
                    details.push(format!("received: {}", excerpt(&String::from_utf8_lossy(&line))));
                    self.report.add(Level::Problem, headline, details);
                    connection.kill();
                    return Ok(None);
                }
            }
        }
    }

    fn describe_hello(&mut self, hello: &HelloReply, startup: Duration) {
        let identity = &hello.implementation;
        self.report.add(
            Level::Ok,
            format!(
                "hello: {} {} ({}) after {}",
                identity.name,
                identity.version,
                identity.language,
                describe_duration(startup)
            ),
            Vec::new(),
        );
        if startup > SLOW_START {
            self.report.add(
                Level::Warning,
                format!("slow start: the hello took {}", describe_duration(startup)),
                vec![
                    "every restart after a crash or timeout costs this much, and each --jobs worker starts one process"
                        .to_owned(),
                    format!(
                        "the harness waits at most --hello-timeout ({}) for a hello",
                        describe_duration(self.options.hello_timeout())
                    ),
                ],
            );
        }
        for (suite, versions) in &hello.suites {
            match crate::suites::find(suite) {
                None => self.report.add(
                    Level::Note,
                    format!("declares a suite `{suite}` this harness does not know; it is ignored"),
                    Vec::new(),
                ),
                Some(known) => {
                    let supported: Vec<u64> = known.supported_versions().iter().map(|&v| u64::from(v)).collect();
                    let overlap: Vec<String> =
                        versions.iter().filter(|v| supported.contains(v)).map(u64::to_string).collect();
                    if overlap.is_empty() {
                        self.report.add(
                            Level::Warning,
                            format!("declares `{suite}` versions {versions:?}, none of which this harness judges ({supported:?})"),
                            vec!["its cases will all be `unsupported`".to_owned()],
                        );
                    } else {
                        self.report.add(
                            Level::Ok,
                            format!("declares `{suite}` fixtureVersions [{}]", overlap.join(", ")),
                            Vec::new(),
                        );
                    }
                }
            }
        }
        let missing: Vec<&str> =
            crate::suites::all().iter().map(|s| s.name()).filter(|name| hello.versions(name).is_none()).collect();
        if !missing.is_empty() {
            self.report.add(
                Level::Note,
                format!(
                    "does not declare {}: those cases will be `unsupported` (they do not fail a run)",
                    missing.join(", ")
                ),
                Vec::new(),
            );
        }
    }

    fn run_case(&mut self, live: &mut Live, case: &CheckCase<'_>) -> Health {
        let label = case.id();
        if let Some(status) = live.connection.exited() {
            self.report.add(
                Level::Problem,
                format!("the implementation ended ({}) before {label} was sent", describe_status(status)),
                vec!["a persistent implementation must keep running until bye (or use --one-shot)".to_owned()],
            );
            return Health::Dead;
        }
        let id = self.next_id;
        self.next_id += 1;
        live.sent.insert(id, label.clone());
        let mark = live.connection.stderr_mark();
        match live.connection.send(encode_run(id, &case.request()).into_bytes()) {
            Ok(()) => {}
            Err(SendError::Broken) => {
                let how = live.connection.ended();
                self.report.add(
                    Level::Problem,
                    format!("the implementation ended ({how}) before reading {label}"),
                    with(
                        vec!["a persistent implementation must keep running until bye (or use --one-shot)".to_owned()],
                        quote_stderr(live.connection.stderr_since(mark).as_deref()),
                    ),
                );
                return Health::Dead;
            }
            Err(SendError::NotReading) => {
                live.connection.kill();
                self.report.add(
                    Level::Problem,
                    format!("the implementation stopped reading its stdin before {label}"),
                    vec!["it must keep reading stdin, one message per line".to_owned()],
                );
                return Health::Dead;
            }
        }
        let deadline = Instant::now() + self.options.timeout;
        let health = loop {
            let line = match live.connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => line,
                Next::Event(LineEvent::TooLong) => {
                    live.line += 1;
                    self.report.add(
                        Level::Problem,
                        format!(
                            "{label}: stdout line {} is longer than --max-output ({})",
                            live.line,
                            describe_size(self.options.max_output)
                        ),
                        vec![
                            "the line was cut off and skipped; a run gives the case `protocol-error`".to_owned(),
                            "if outputs really are this large, raise --max-output".to_owned(),
                        ],
                    );
                    continue;
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => {
                    let how = live.connection.ended();
                    let mut details = Vec::new();
                    if how == "exit status 0" {
                        details.push("it exited cleanly, but before bye: a persistent implementation must keep reading stdin until {\"op\":\"bye\"}".to_owned());
                    } else {
                        details.push("a run gives this case `crash`, then restarts the implementation".to_owned());
                    }
                    self.report.add(
                        Level::Problem,
                        format!("the implementation ended ({how}) while {label} was in flight"),
                        with(details, quote_stderr(live.connection.stderr_since(mark).as_deref())),
                    );
                    break Health::Dead;
                }
                Next::TimedOut => {
                    let hint = live.connection.silence_hint();
                    live.connection.kill();
                    let mut details = vec![format!(
                        "a run gives this case `timeout` and restarts the implementation; raise --timeout (now {}) if it is only slow",
                        describe_duration(self.options.timeout)
                    )];
                    match hint {
                        Some(hint) => details.push(hint),
                        None => details.push("remember to flush stdout after each result".to_owned()),
                    }
                    self.report.add(
                        Level::Problem,
                        format!("{label}: no reply within {}", describe_duration(self.options.timeout)),
                        with(details, quote_stderr(live.connection.stderr_since(mark).as_deref())),
                    );
                    break Health::Dead;
                }
                Next::Cancelled => break Health::Dead,
            };
            live.line += 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            self.report.messages += 1;
            match self.judge_line(live, case, id, &line) {
                LineVerdict::Answer => break Health::Alive,
                LineVerdict::Stray => {}
            }
        };
        let written = live.connection.stderr_total().saturating_sub(mark);
        if written > NOISY_STDERR {
            self.report.add(
                Level::Warning,
                format!("{label}: the implementation wrote {} to stderr during this case", describe_size(written)),
                vec![format!(
                    "stderr is free text, but a run keeps only the last {} per case; heavy logging slows runs",
                    describe_size(self.options.stderr_tail as u64)
                )],
            );
        }
        health
    }

    fn judge_line(&mut self, live: &mut Live, case: &CheckCase<'_>, id: u64, line: &[u8]) -> LineVerdict {
        let label = case.id();
        let value = match parse_line(line) {
            Ok(value) => value,
            Err(problem) => {
                self.report.add(
                    Level::Problem,
                    format!("{label}: stdout line {} is not a protocol message: {problem}", live.line),
                    vec![
                        "stdout carries protocol messages only (one JSON object per line); print logs to stderr"
                            .to_owned(),
                        "a run gives the case in flight `protocol-error`".to_owned(),
                    ],
                );
                return LineVerdict::Stray;
            }
        };
        let problems = violations(MessageKind::Result, &value);
        let decoded = protocol::decode_reply(line);
        let schema_details = |problems: &[String]| -> Vec<String> {
            problems.iter().map(|p| format!("schema {}: {p}", MessageKind::Result.file_name())).collect()
        };
        match decoded {
            Ok(Reply::Result { id: got, body }) if got == id && problems.is_empty() => {
                live.answered.insert(id, label.clone());
                match body {
                    ReplyBody::Output(output) => self.report.judge_output(case, &output),
                    ReplyBody::Error(message) => {
                        self.report.errors += 1;
                        self.report.add(
                            Level::Note,
                            format!("{label}: answered `error`: {}", excerpt(&message)),
                            Vec::new(),
                        );
                    }
                    ReplyBody::Skipped(_) => self.report.skipped += 1,
                }
                LineVerdict::Answer
            }
            Ok(Reply::Result { id: got, .. }) if got != id => {
                if let Some(first) = live.answered.get(&got) {
                    self.report.add(
                        Level::Problem,
                        format!("id {got} ({first}) was answered twice; the second reply came while {label} was in flight"),
                        vec!["each run request gets exactly one result; a run gives the twice-answered case `protocol-error`".to_owned()],
                    );
                    LineVerdict::Stray
                } else if let Some(earlier) = live.sent.get(&got) {
                    self.report.add(
                        Level::Note,
                        format!("a late reply to id {got} ({earlier}) came while {label} was in flight; it is ignored"),
                        Vec::new(),
                    );
                    LineVerdict::Stray
                } else {
                    self.report.add(
                        Level::Problem,
                        format!("{label}: the reply carries id {got}, but this case was sent with id {id}"),
                        vec!["copy the `id` of each run request into its result unchanged".to_owned()],
                    );
                    LineVerdict::Answer
                }
            }
            Ok(Reply::Hello(_)) => {
                self.report.add(
                    Level::Problem,
                    format!("{label}: a second hello arrived instead of a result"),
                    vec!["send the hello once, in answer to the harness's hello".to_owned()],
                );
                LineVerdict::Stray
            }
            Ok(Reply::Result { .. }) => {
                self.report.add(
                    Level::Problem,
                    format!("{label}: the result does not match its schema"),
                    schema_details(&problems),
                );
                LineVerdict::Answer
            }
            Err(violation) => {
                let mut details = schema_details(&problems);
                details.push(format!("received: {}", excerpt(&String::from_utf8_lossy(line))));
                self.report.add(Level::Problem, format!("{label}: {violation}"), details);
                LineVerdict::Answer
            }
        }
    }

    fn finish(&mut self, mut live: Live) {
        // Stray lines (a second reply to the last case, say) show up now.
        let quiet = Instant::now() + QUIET_PERIOD;
        loop {
            match live.connection.next(quiet) {
                Next::Event(LineEvent::Line(line)) => {
                    live.line += 1;
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    self.report.messages += 1;
                    self.stray(&live, &line, "after the last case");
                }
                Next::Event(LineEvent::TooLong) => {
                    self.report.add(
                        Level::Problem,
                        "an over-long stdout line after the last case".to_owned(),
                        Vec::new(),
                    );
                }
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => {
                    let how = live.connection.ended();
                    self.report.add(
                        Level::Problem,
                        format!("the implementation ended ({how}) before bye"),
                        vec![
                            "a persistent implementation must keep running until it reads {\"op\":\"bye\"}".to_owned(),
                        ],
                    );
                    return;
                }
                Next::TimedOut | Next::Cancelled => break,
            }
        }
        let _ = live.connection.send(BYE_LINE.as_bytes().to_vec());
        live.connection.close_stdin();
        let grace = self.options.timeout.min(Duration::from_secs(5));
        let deadline = Instant::now() + grace;
        loop {
            match live.connection.next(deadline) {
                Next::Event(LineEvent::Line(line)) => {
                    if !line.iter().all(u8::is_ascii_whitespace) {
                        self.report.messages += 1;
                        self.stray(&live, &line, "after bye");
                    }
                }
                Next::Event(LineEvent::TooLong) => {}
                Next::Event(LineEvent::Closed | LineEvent::Failed(_)) => break,
                Next::TimedOut | Next::Cancelled => {
                    live.connection.kill();
                    self.report.add(
                        Level::Problem,
                        format!("the implementation did not exit within {} after bye", describe_duration(grace)),
                        vec!["on {\"op\":\"bye\"} (or end of stdin) it must exit with status 0".to_owned()],
                    );
                    return;
                }
            }
        }
        match live.connection.wait_until(Instant::now() + grace) {
            Some(status) if status.success() => {
                self.report.add(Level::Ok, "bye: exited with status 0".to_owned(), Vec::new());
            }
            Some(status) => self.report.add(
                Level::Problem,
                format!("the implementation ended with {} after bye", describe_status(status)),
                with(
                    vec!["on bye it must exit with status 0".to_owned()],
                    quote_stderr(live.connection.stderr_since(0).as_deref()),
                ),
            ),
            None => {
                live.connection.kill();
                self.report.add(
                    Level::Problem,
                    "the implementation closed stdout after bye but did not exit".to_owned(),
                    Vec::new(),
                );
            }
        }
    }

    fn stray(&mut self, live: &Live, line: &[u8], when: &str) {
        match protocol::decode_reply(line) {
            Ok(Reply::Result { id, .. }) => match live.answered.get(&id) {
                Some(case) => self.report.add(
                    Level::Problem,
                    format!("id {id} ({case}) was answered twice; the second reply came {when}"),
                    vec!["each run request gets exactly one result; a run gives that case `protocol-error`".to_owned()],
                ),
                None => {
                    self.report.add(Level::Problem, format!("a result for unknown id {id} came {when}"), Vec::new())
                }
            },
            Ok(Reply::Hello(_)) => self.report.add(Level::Problem, format!("a second hello came {when}"), Vec::new()),
            Err(violation) => self.report.add(
                Level::Problem,
                format!("stdout line {when} is not a protocol message: {violation}"),
                vec!["stdout carries protocol messages only; print logs to stderr".to_owned()],
            ),
        }
    }
}

enum LineVerdict {
    /// The line answered (or ended) the case in flight.
    Answer,
    /// Something else; keep waiting for the answer.
    Stray,
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

fn quote_stderr(stderr: Option<&str>) -> Vec<String> {
    let Some(stderr) = stderr.filter(|s| !s.trim().is_empty()) else { return Vec::new() };
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(QUOTED_STDERR_LINES);
    let mut quoted = vec![format!("stderr (last {} lines):", lines.len() - start)];
    quoted.extend(lines[start..].iter().map(|line| format!("  | {}", excerpt(line))));
    quoted
}

fn first_lines(text: &str, count: usize) -> String {
    text.lines().filter(|l| !l.trim().is_empty()).take(count).collect::<Vec<_>>().join(" / ")
}

fn with(mut details: Vec<String>, more: Vec<String>) -> Vec<String> {
    details.extend(more);
    details
}
