//! Checking a one-shot command (`--one-shot`): each case runs as a run
//! would run it, and each fault verdict is explained.

use super::{CheckCase, CheckReport, Level, quote_stderr, with};
use crate::implementation::subprocess::options::{SubprocessOptions, describe_duration};
use crate::implementation::subprocess::{CommandLine, OneShotImplementation, StartError};
use crate::implementation::{Implementation, Outcome};
use std::time::{Duration, Instant};

/// Checks a one-shot command on each case.
pub fn check_one_shot(
    command: &CommandLine,
    cases: &[CheckCase<'_>],
    options: &SubprocessOptions,
) -> Result<CheckReport, StartError> {
    let implementation = OneShotImplementation::new(command.clone(), options.clone())?;
    let mut report = CheckReport { selected: cases.len(), ..CheckReport::default() };
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
        report.sent += 1;
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

fn first_lines(text: &str, count: usize) -> String {
    text.lines().filter(|l| !l.trim().is_empty()).take(count).collect::<Vec<_>>().join(" / ")
}
