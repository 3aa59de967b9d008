//! `conform reduce --impl-cmd`: a 200-message fixture run against an
//! external decoder that mishandles one message kind (tests/adapters/
//! drops_tool_errors.py: Claude tool_result `is_error` is ignored) becomes a
//! pending fixture of at most three messages with the same failure.

mod capture_support;

use capture_support::session::SessionBuilder;
use conform::capture::hapi_messages::chat_input;
use conform::reference::NoTrace;
use serde_json::json;
use std::process::{Command, Output, Stdio};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|err| panic!("cannot run conform: {err}"))
}

fn python() -> bool {
    let found = Command::new("python3").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    let available = found.is_ok_and(|status| status.success());
    if !available {
        eprintln!("note: `python3` is not installed: the external fault adapter test is skipped");
    }
    available
}

#[test]
fn a_fault_adapter_case_reduces_to_at_most_three_messages() -> Result<(), Box<dyn std::error::Error>> {
    if !python() {
        return Ok(());
    }
    let (messages, state) = SessionBuilder::build();
    let input = chat_input(messages, state, false);
    let expected = conform::reference::chat::run(&input, &mut NoTrace)?;
    let document = json!({"fixtureVersion": 1, "name": "session", "description": "A 200-message session.",
                          "input": input, "expected": expected});
    let root = tempfile::tempdir()?;
    let folder = root.path().join("chat");
    std::fs::create_dir_all(&folder)?;
    let fixture = folder.join("session.json");
    std::fs::write(&fixture, conform::json::to_canonical_string(&document))?;
    let adapter = format!("python3 tests/adapters/drops_tool_errors.py {}", env!("CARGO_BIN_EXE_conform"));
    let reports = root.path().join("reports");
    let reports = reports.to_string_lossy();

    // The adapter fails the whole session…
    let run = conform(&["run", &fixture.to_string_lossy(), "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stdout));

    // …and the reduction keeps that failure in at most three messages.
    let output = conform(&["reduce", &fixture.to_string_lossy(), "--impl-cmd", &adapter]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("against drops-tool-errors"), "{stdout}");
    assert!(
        stdout.contains("failure: /blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed"),
        "{stdout}"
    );
    let pending = folder.join("session-reduced.json.new");
    let reduced = conform::json::parse_value(&std::fs::read_to_string(&pending)?)?;
    let kept = reduced["input"]["messages"].as_array().map(Vec::len).unwrap_or(0);
    assert!((1..=3).contains(&kept), "{kept} messages");
    assert!(stdout.contains(&format!("messages: 200 → {kept} ({} removed)", 200 - kept)), "{stdout}");

    assert!(conform(&["review", &folder.to_string_lossy(), "--accept-all"]).status.success());
    let reduced_file = folder.join("session-reduced.json");
    let reduced_file = reduced_file.to_string_lossy();
    let reference = conform(&["run", &reduced_file, "--out", &reports]);
    assert_eq!(reference.status.code(), Some(0), "the reference passes the reduced fixture");
    let external = conform(&["run", &reduced_file, "--impl-cmd", &adapter, "--out", &reports]);
    assert_eq!(external.status.code(), Some(1), "the adapter still fails it");
    let report = String::from_utf8_lossy(&external.stdout);
    assert!(report.contains("/tool/state: expected \"error\", got \"completed\""), "{report}");
    eprintln!("drops-tool-errors via --impl-cmd: {}", stdout.lines().nth(2).unwrap_or_default().trim());
    Ok(())
}
