//! Adapter stderr lands on the case that wrote it (docs/external-implementations.md,
//! "Stderr"): what an implementation writes before a case's result line is
//! that case's, every time, and what it writes while no case is in flight
//! is attached to no case and named in one warning.
//!
//! The implementation is tests/adapters/stderr_per_case.sh (POSIX sh, so the
//! test runs wherever `sh` does): each case writes lines naming itself, then
//! replies. The harness reads stdout and stderr from two pipes, which keep no
//! order between them: before the fix, a case was closed as soon as its
//! result line came, and the stderr the case had written was often still in
//! the pipe, so it was lost from that case and shown on the next one.

use crate::common;

use conform::implementation::subprocess::{CommandLine, PersistentImplementation, SubprocessOptions};
use conform::implementation::{CaseRequest, Implementation};
use serde_json::json;
use std::time::Duration;

/// Runs of the whole attribution check; each one starts a fresh process.
const RUNS: usize = 100;

fn adapter() -> Option<String> {
    if cfg!(not(unix)) {
        common::skip("sh (a Unix shell) is needed for the stderr attribution adapter");
        return None;
    }
    let script = common::root().join("tests/adapters/stderr_per_case.sh");
    Some(format!("sh {}", shlex::try_quote(script.to_str().unwrap()).unwrap()))
}

fn start(command: &str, jobs_stderr_tail: usize) -> PersistentImplementation {
    let options = SubprocessOptions {
        timeout: Duration::from_secs(20),
        stderr_tail: jobs_stderr_tail,
        ..SubprocessOptions::default()
    };
    PersistentImplementation::start(CommandLine::parse(command).unwrap(), options).unwrap()
}

/// The lines `case-N-L` writes.
fn expected_lines(fixture: &str) -> Option<String> {
    let count: usize = fixture.rsplit('-').next().unwrap().parse().unwrap();
    (count > 0).then(|| (1..=count).map(|i| format!("{fixture} line {i} of {count}\n")).collect())
}

fn run(implementation: &PersistentImplementation, fixture: &str) -> Option<String> {
    let input = json!({"messages": [], "agentState": null});
    let request = CaseRequest { suite: "chat", fixture, fixture_version: 1, input: &input };
    let run = implementation.run_case(&request);
    assert_eq!(run.outcome.message(), Some(fixture), "{fixture}: {:?}", run.outcome);
    run.stderr
}

fn every_case_gets_its_own_stderr_in_100_runs() {
    let Some(command) = adapter() else { return };
    // Cases with 0 to 3 lines, in an order where a silent case follows a
    // talkative one (where a late line used to show up), and a burst larger
    // than a pipe holds.
    let fixtures =
        ["case-1-1", "case-2-0", "case-3-3", "case-4-0", "case-5-2", "burst-6", "case-7-0", "case-8-1", "case-9-0"];
    let mut misplaced = Vec::new();
    for round in 0..RUNS {
        let implementation = start(&command, 1 << 20);
        for fixture in fixtures {
            let stderr = run(&implementation, fixture);
            let expected = if fixture.starts_with("burst-") {
                let pad = "0".repeat(1000);
                Some((1..=200).map(|i| format!("{fixture} {i} {pad}\n")).collect())
            } else {
                expected_lines(fixture)
            };
            if stderr != expected {
                misplaced.push(format!(
                    "run {round}, {fixture}: expected {:?}, got {:?}",
                    expected.as_deref().map(|text| text.chars().take(80).collect::<String>()),
                    stderr.as_deref().map(|text| text.chars().take(80).collect::<String>())
                ));
            }
        }
        implementation.finish();
        // Only the line written after bye is outside every case.
        let notes = implementation.notes();
        if notes.len() != 1
            || !notes[0].contains("shutting down after bye")
            || notes[0].contains("case-")
            || notes[0].contains("burst-")
        {
            misplaced.push(format!("run {round}: notes {notes:?}"));
        }
    }
    assert!(misplaced.is_empty(), "{} of {RUNS} runs went wrong:\n{}", misplaced.len(), misplaced.join("\n"));
}

fn stderr_written_while_no_case_is_in_flight_is_attached_to_none_and_named_once() {
    let Some(command) = adapter() else { return };
    let implementation = start(&command, 32 * 1024);
    assert_eq!(run(&implementation, "late-1"), None, "written half a second after its result");
    // The late line is written while the harness waits here, before the next case is sent.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(run(&implementation, "case-2-1").as_deref(), Some("case-2-1 line 1 of 1\n"));
    implementation.finish();
    let notes = implementation.notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = &notes[0];
    assert!(note.starts_with("the implementation wrote 2 lines to stderr while no case was in flight"), "{note}");
    assert!(note.contains("attached to no case"), "{note}");
    assert!(note.contains("| late-1 wrote this after its result\n"), "{note}");
    assert!(note.ends_with("| shutting down after bye"), "{note}");
}

crate::trials!(
    every_case_gets_its_own_stderr_in_100_runs,
    stderr_written_while_no_case_is_in_flight_is_attached_to_none_and_named_once,
);
