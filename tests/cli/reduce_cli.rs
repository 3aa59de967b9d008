//! `conform reduce --impl-cmd`: a 200-message fixture run against an
//! external decoder that mishandles one message kind (tests/adapters/
//! drops_tool_errors.py: Claude tool_result `is_error` is ignored) becomes a
//! pending fixture of at most three messages with the same failure; a
//! 40-op pagination script run against a message window that forgets the
//! `failed` status of a send (tests/adapters/forgets_failed_status.py)
//! becomes a fixture of at most two ops.

use crate::common;

use common::session::SessionBuilder;
use common::{conform, path_arg, python, read_document, write_fixture};
use conform::suite_api::NoTrace;
use conform::suites::chat::capture::hapi_messages::chat_input;
use serde_json::json;

fn a_fault_adapter_case_reduces_to_at_most_three_messages() -> Result<(), Box<dyn std::error::Error>> {
    let Some(python) = python() else { return Ok(()) };
    let (messages, state) = SessionBuilder::build();
    let input = chat_input(messages, state, false);
    let expected = conform::suites::chat::reference::run(&input, &mut NoTrace)?;
    let document = json!({"fixtureVersion": 1, "name": "session", "description": "A 200-message session.",
                          "input": input, "expected": expected});
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("chat");
    let fixture = write_fixture(&folder, &document);
    let adapter =
        format!("{python} {} {}", path_arg("tests/adapters/drops_tool_errors.py"), env!("CARGO_BIN_EXE_conform"));
    let reports = dir.path().join("reports");
    let reports = reports.to_string_lossy();

    // The adapter fails the whole session…
    let run = conform(&["run", &fixture.to_string_lossy(), "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);

    // …and the reduction keeps that failure in at most three messages.
    let output = conform(&["reduce", &fixture.to_string_lossy(), "--impl-cmd", &adapter]);
    let stdout = &output.stdout;
    assert!(output.success(), "{}", output.text());
    assert!(stdout.contains("against drops-tool-errors"), "{stdout}");
    assert!(
        stdout.contains("failure: /blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed"),
        "{stdout}"
    );
    let pending = folder.join("session-reduced.json.new");
    let reduced = read_document(&pending);
    let kept = reduced["input"]["messages"].as_array().map(Vec::len).unwrap_or(0);
    assert!((1..=3).contains(&kept), "{kept} messages");
    assert!(stdout.contains(&format!("messages: 200 → {kept} ({} removed)", 200 - kept)), "{stdout}");

    assert!(conform(&["review", &folder.to_string_lossy(), "--accept-all"]).success());
    let reduced_file = folder.join("session-reduced.json");
    let reduced_file = reduced_file.to_string_lossy();
    let reference = conform(&["run", &reduced_file, "--out", &reports]);
    assert_eq!(reference.code, Some(0), "the reference passes the reduced fixture");
    let external = conform(&["run", &reduced_file, "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(external.code, Some(1), "the adapter still fails it");
    let report = &external.stdout;
    assert!(report.contains("/tool/state: expected \"error\", got \"completed\""), "{report}");
    eprintln!("drops-tool-errors via --impl-cmd: {}", stdout.lines().nth(2).unwrap_or_default().trim());
    Ok(())
}

/// A pagination op script of `count` ops: live deliveries of agent rows, with
/// one optimistic send that failed somewhere in the middle.
fn pagination_ops(count: usize) -> Vec<serde_json::Value> {
    (0..count)
        .map(|index| {
            let at = 1_000 * (index as u64 + 1);
            if index == count / 2 {
                json!({"op": "append-optimistic", "message": {"id": "local-1", "seq": null, "localId": "local-1",
                       "content": {"role": "user", "content": {"type": "text", "text": "hi"}},
                       "createdAt": at, "invokedAt": null, "status": "failed"}})
            } else {
                json!({"op": "sse-messages", "messages": [{"id": format!("a-{index}"), "seq": index + 1,
                       "localId": null, "content": {"role": "agent", "content": "ok"},
                       "createdAt": at, "invokedAt": at}]})
            }
        })
        .collect()
}

fn a_pagination_case_reduces_to_the_op_that_shows_the_failure() -> Result<(), Box<dyn std::error::Error>> {
    let Some(python) = python() else { return Ok(()) };
    use conform::suite_api::Suite;
    let suite = conform::suites::pagination::PaginationSuite;
    let input = json!({"ops": pagination_ops(40)});
    let expected = conform::suites::pagination::reference::reference(&input, &mut NoTrace)?;
    let envelope = json!({"fixtureVersion": 1, "name": "script", "description": "A 40-op script."});
    let document = suite.with_expected(&suite.with_input(&envelope, &input)?, &expected)?;
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("pagination");
    let fixture = write_fixture(&folder, &document);
    let adapter =
        format!("{python} {} {}", path_arg("tests/adapters/forgets_failed_status.py"), env!("CARGO_BIN_EXE_conform"));
    let reports = dir.path().join("reports");
    let reports = reports.to_string_lossy();

    let run = conform(&["run", &fixture.to_string_lossy(), "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);

    let output = conform(&["reduce", &fixture.to_string_lossy(), "--impl-cmd", &adapter]);
    let stdout = &output.stdout;
    assert!(output.success(), "{}", output.text());
    assert!(stdout.contains("against forgets-failed-status"), "{stdout}");
    let reduced = read_document(&folder.join("script-reduced.json.new"));
    let ops = reduced["ops"].as_array().cloned().unwrap_or_default();
    assert!((1..=2).contains(&ops.len()), "{} ops: {ops:?}", ops.len());
    assert!(ops.iter().any(|op| op["op"] == "append-optimistic"), "{ops:?}");
    assert!(stdout.contains(&format!("ops: 40 → {} ({} removed)", ops.len(), 40 - ops.len())), "{stdout}");

    assert!(conform(&["review", &folder.to_string_lossy(), "--accept-all"]).success());
    let reduced_file = folder.join("script-reduced.json");
    let reduced_file = reduced_file.to_string_lossy();
    assert_eq!(conform(&["validate", &reduced_file]).code, Some(0), "the reduced document is a valid fixture");
    assert_eq!(conform(&["run", &reduced_file, "--out", &reports]).code, Some(0), "the reference passes it");
    let external = conform(&["run", &reduced_file, "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(external.code, Some(1), "the adapter still fails it");
    assert!(external.stdout.contains("queued"), "{}", external.stdout);
    Ok(())
}

/// A case reduce cannot shrink (tool-policy: two required members, short
/// strings, no item list) gets no pending copy of itself, and the summary
/// counts no items of a list the suite does not have.
fn a_case_with_nothing_to_remove_writes_no_fixture() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("tool-policy");
    // The stored expectation is wrong on purpose: the reference allows Read.
    let document = json!({
        "fixtureVersion": 1, "name": "read-denied", "description": "A wrong expectation.",
        "input": {"tool": "Read", "mode": "planner"},
        "expected": {"allowed": false, "reason": "Denied"}
    });
    let fixture = write_fixture(&folder, &document);
    let output = conform(&["reduce", &fixture.to_string_lossy(), "--impl", "reference"]);
    assert!(output.success(), "{}", output.text());
    assert!(output.stdout.contains("nothing removed: "), "{}", output.stdout);
    assert!(output.stdout.contains("  input bytes: "), "{}", output.stdout);
    assert!(!output.stdout.contains("items:"), "{}", output.stdout);
    let written: Vec<_> =
        std::fs::read_dir(&folder)?.map(|entry| entry.map(|entry| entry.file_name())).collect::<Result<_, _>>()?;
    assert_eq!(written, ["read-denied.json"], "{}", output.stdout);
    Ok(())
}

crate::trials![
    a_fault_adapter_case_reduces_to_at_most_three_messages,
    a_pagination_case_reduces_to_the_op_that_shows_the_failure,
    a_case_with_nothing_to_remove_writes_no_fixture
];
