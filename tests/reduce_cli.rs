//! `conform reduce --impl-cmd`: a 200-message fixture run against an
//! external decoder that mishandles one message kind (tests/adapters/
//! drops_tool_errors.py: Claude tool_result `is_error` is ignored) becomes a
//! pending fixture of at most three messages with the same failure.

mod common;

use common::session::SessionBuilder;
use common::{conform, path_arg, python, read_document, write_fixture};
use conform::suite::NoTrace;
use conform::suites::chat::capture::hapi_messages::chat_input;
use serde_json::json;

#[test]
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
