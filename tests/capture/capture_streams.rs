//! The agent-runtime capture formats plug into `conform capture`: the real
//! Claude stream-json logs and transcripts, Codex app-server and `codex
//! exec` logs in ../shared/captures become redacted pending fixtures of
//! their suites that pass once accepted.

use crate::common;

use common::{conform, files_ending, shared};
use std::path::{Path, PathBuf};

/// The `*.jsonl` files of the given capture folders, each sorted.
fn jsonl_files(captures: &Path, folders: &[&str]) -> Vec<String> {
    folders
        .iter()
        .flat_map(|folder| files_ending(&captures.join(folder), ".jsonl"))
        .map(|path| path.to_string_lossy().into_owned())
        .collect()
}

/// Captures `files` as `suite` cases into `<root>/fixtures/<suite>`, returns
/// the pending files.
fn capture(root: &Path, suite: &str, format: &str, files: &[String]) -> Vec<PathBuf> {
    let out = root.join("fixtures").join(suite);
    let mut args: Vec<String> = vec!["capture".into(), suite.into(), "--from".into(), format.into()];
    args.extend(["--out".into(), out.to_string_lossy().into_owned()]);
    args.extend(files.iter().cloned());
    let output = conform(&args);
    assert!(output.success(), "{suite}: {}", output.text());
    assert!(output.text().contains("lint: clean"));
    files_ending(&out, ".json.new")
}

fn real_agent_runtime_captures_become_passing_fixtures() -> Result<(), Box<dyn std::error::Error>> {
    let Some(captures) = shared("captures") else { return Ok(()) };
    let root = tempfile::tempdir()?;
    let claude = jsonl_files(&captures, &["claude-stream-json/local-mock", "claude-stream-json/public"]);
    let transcripts = jsonl_files(&captures, &["claude-session-jsonl/public"]);
    let app_server = jsonl_files(&captures, &["codex-app-server/local-mock"]);
    let exec = jsonl_files(&captures, &["codex-exec-json/local-mock", "codex-exec-json/public"]);

    let events = capture(root.path(), "claude-events", "claude-stream-json", &claude);
    let mut display_files = claude.clone();
    display_files.extend(transcripts.iter().cloned());
    let display = capture(root.path(), "claude-display", "claude-stream-json", &display_files);
    let codex = capture(root.path(), "codex-app-server-events", "codex-app-server-jsonl", &app_server);
    let codex_exec = capture(root.path(), "codex-exec-events", "codex-exec-jsonl", &exec);

    // Companions are read with their capture, never as captures of their own.
    let stdin_companions = claude.iter().filter(|f| f.ends_with(".stdin.jsonl")).count();
    assert!(stdin_companions > 0);
    assert!(events.len() >= claude.len() - stdin_companions, "{} events cases", events.len());
    assert_eq!(codex.len(), app_server.iter().filter(|f| !f.ends_with(".client.jsonl")).count());
    assert_eq!(codex_exec.len(), exec.len());
    let permission = std::fs::read_to_string(root.path().join("fixtures/claude-events/permission-allow.json.new"))?;
    assert!(permission.contains("permission-allow.stdin.jsonl"), "the companion is in the provenance");
    assert!(permission.contains("\"control_response\""), "the client's answer is in the input");

    let tree = root.path().join("fixtures").to_string_lossy().into_owned();
    let accepted = conform(&["review".into(), tree.clone(), "--accept-all".into()]);
    assert!(accepted.success(), "{}", accepted.text());
    let total = events.len() + display.len() + codex.len() + codex_exec.len();
    let reports = root.path().join("reports").to_string_lossy().into_owned();
    let run = conform(&["run".into(), tree, "--out".into(), reports, "--no-diff".into()]);
    assert!(run.success(), "{}", run.text());
    assert!(run.text().contains(&format!("{total} passed, 0 failed")), "{}", run.text());
    eprintln!(
        "captured and passing: {} claude-events, {} claude-display, {} codex-app-server-events, {} codex-exec-events",
        events.len(),
        display.len(),
        codex.len(),
        codex_exec.len()
    );
    Ok(())
}

fn a_format_names_the_suites_it_serves() {
    let output = conform(&["capture", "chat", "--from", "claude-stream-json", "nothing.jsonl"]);
    assert_eq!(output.code, Some(2));
    assert!(
        output
            .text()
            .contains("--from claude-stream-json captures claude-display or claude-events cases, not chat cases"),
        "{}",
        output.text()
    );
}

/// Runs `conform capture` into a fresh folder; returns the output and the
/// pending files.
fn capture_into(
    out: &Path,
    suite: &str,
    format: &str,
    extra: &[&str],
    file: &Path,
) -> (common::Finished, Vec<PathBuf>) {
    let mut args: Vec<String> = vec!["capture".into(), suite.into(), "--from".into(), format.into()];
    args.extend(["--out".into(), out.to_string_lossy().into_owned()]);
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    args.push(file.to_string_lossy().into_owned());
    let output = conform(&args);
    (output, files_ending(out, ".json.new"))
}

fn a_file_of_another_format_is_refused_unless_forced_and_transcripts_read_as_transcripts()
-> Result<(), Box<dyn std::error::Error>> {
    let Some(third_party) = shared("captures/third-party") else { return Ok(()) };
    let stream = third_party.join("claude-stream-json/link-assistant-hive-mind__background-disabled.jsonl");
    let transcript = third_party.join("claude-session-jsonl/slopus-happy-cli__task_non_sdk.jsonl");
    let root = tempfile::tempdir()?;

    // Stream-json given as a codex exec log: refused, naming what reads it.
    let (output, pending) = capture_into(&root.path().join("a"), "codex-exec-events", "codex-exec-jsonl", &[], &stream);
    assert_eq!(output.code, Some(2), "{}", output.text());
    assert!(pending.is_empty());
    let text = output.text();
    assert!(
        text.contains("not a codex-exec-jsonl capture for codex-exec-events: line 1 `{\"type\":\"system\""),
        "{text}"
    );
    assert!(text.contains("it reads as `conform capture claude-display --from claude-stream-json`"), "{text}");
    assert!(text.contains("--force-format imports it as codex-exec-jsonl anyway"), "{text}");
    assert_eq!(text.trim().lines().count(), 1, "one clear line: {text}");

    // A session transcript given to claude-events: read as a transcript without --force-format (it was
    // refused before), one case that starts its session from the first entry and ends cut off.
    let (output, pending) =
        capture_into(&root.path().join("b"), "claude-events", "claude-stream-json", &[], &transcript);
    assert!(output.success() && pending.len() == 1, "{}", output.text());
    let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&pending[0])?)?;
    assert_eq!(case["input"]["source"], "transcript");
    assert_eq!(case["input"]["end"], "cut-off");
    assert_eq!(case["expected"]["unfinished"], true);
    let events = case["expected"]["events"].as_array().cloned().unwrap_or_default();
    assert_eq!(events.first().map(|event| &event["type"]), Some(&serde_json::json!("session_ready")));
    assert!(events.iter().any(|event| event["type"] == "user_message"), "{events:?}");
    assert!(events.iter().all(|event| event["type"] != "done"), "{events:?}");
    let (output, pending) =
        capture_into(&root.path().join("c"), "claude-display", "claude-stream-json", &[], &transcript);
    assert!(output.success() && pending.len() == 1, "{}", output.text());
    Ok(())
}

fn a_last_line_cut_mid_write_imports_what_is_complete() -> Result<(), Box<dyn std::error::Error>> {
    let Some(third_party) = shared("captures/third-party") else { return Ok(()) };
    let root = tempfile::tempdir()?;
    for (suite, format, file) in [
        (
            "claude-display",
            "claude-stream-json",
            "claude-stream-json/link-assistant-hive-mind__background-disabled.jsonl",
        ),
        (
            "claude-events",
            "claude-stream-json",
            "claude-stream-json/link-assistant-hive-mind__background-disabled.jsonl",
        ),
        ("claude-display", "claude-stream-json", "claude-session-jsonl/slopus-happy-cli__task_non_sdk.jsonl"),
        ("codex-exec-events", "codex-exec-jsonl", "codex-exec-json/kzahel-yepanywhere__codex-file-edit.jsonl"),
    ] {
        let whole = std::fs::read_to_string(third_party.join(file))?;
        // Stop the recording in the middle of its eighth line.
        let eighth: usize = whole.split_inclusive('\n').take(7).map(str::len).sum();
        let cut = &whole[..eighth + 40];
        let path = root.path().join(format!("{suite}-cut.jsonl"));
        std::fs::write(&path, cut)?;
        let (output, pending) = capture_into(&root.path().join(suite), suite, format, &[], &path);
        assert!(output.success(), "{suite} {file}: {}", output.text());
        assert!(output.text().contains("line 8 was cut mid-write ("), "{suite} {file}: {}", output.text());
        let document: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&pending[0])?)?;
        let items = ["messages", "lines"].iter().find_map(|list| document["input"][list].as_array()).map(Vec::len);
        assert_eq!(items, Some(7), "{suite} {file}: the seven complete lines are imported");
        assert_eq!(document["input"]["end"], "cut-off", "{suite} {file}");
        assert_eq!(document["expected"]["unfinished"], true, "{suite} {file}");
    }
    Ok(())
}

/// A `codex exec` recording of one turn, with `extra` agent messages.
fn exec_recording(extra: usize) -> String {
    let mut lines = vec![
        r#"{"type":"thread.started","thread_id":"th_1"}"#.to_owned(),
        r#"{"type":"turn.started"}"#.to_owned(),
        r#"{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"Hi"}}"#.to_owned(),
    ];
    for index in 0..extra {
        lines.push(format!(
            r#"{{"type":"item.completed","item":{{"id":"x{index}","type":"agent_message","text":"more {index}"}}}}"#
        ));
    }
    lines.push(r#"{"type":"turn.completed","usage":{}}"#.to_owned());
    lines.join("\n") + "\n"
}

/// Capturing a recording again over the fixture a reviewer curated keeps
/// the curated description, says `unchanged` when nothing else moved and
/// `changed` when the recording did; `review --list` shows a new file's
/// content.
fn a_capture_over_a_curated_fixture_keeps_its_description_and_says_changed() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let recording = root.path().join("session.jsonl");
    std::fs::write(&recording, exec_recording(0))?;
    let out = root.path().join("fixtures/codex-exec-events");
    let out_arg = out.to_string_lossy().into_owned();
    let (output, pending) = capture_into(&out, "codex-exec-events", "codex-exec-jsonl", &[], &recording);
    assert!(output.success(), "{}", output.text());
    assert!(output.stdout.contains("new       "), "{}", output.stdout);
    assert!(output.stdout.contains("1 fixtures captured: 1 new, 0 changed, 0 unchanged"), "{}", output.stdout);

    // The list shows what a new fixture holds, not only its name.
    let listed = conform(&["review", &out_arg, "--list"]);
    assert!(listed.success(), "{}", listed.text());
    assert!(listed.stdout.contains(r#"    +     "expected": {"#), "{}", listed.stdout);
    assert!(listed.stdout.contains(r#"    +                 "kind": "thread.started""#), "{}", listed.stdout);
    assert!(listed.stdout.contains("more lines in"), "{}", listed.stdout);

    assert!(conform(&["review", &out_arg, "--accept-all"]).success());
    let fixture = pending[0].with_extension("");
    let curated = "A thread with one agent message (curated by hand).";
    let mut document = conform::json::parse_value(&std::fs::read_to_string(&fixture)?)?;
    document["description"] = curated.into();
    std::fs::write(&fixture, conform::json::to_canonical_string(&document))?;

    // The same recording again: nothing to propose.
    let (output, pending) = capture_into(&out, "codex-exec-events", "codex-exec-jsonl", &[], &recording);
    assert!(output.success(), "{}", output.text());
    assert!(pending.is_empty(), "the curated fixture is what the capture would write:\n{}", output.stdout);
    assert!(output.stdout.contains("0 new, 0 changed, 1 unchanged"), "{}", output.stdout);

    // The recording grew: the proposal changes the fixture and keeps its description.
    std::fs::write(&recording, exec_recording(1))?;
    let (output, pending) = capture_into(&out, "codex-exec-events", "codex-exec-jsonl", &[], &recording);
    assert!(output.success(), "{}", output.text());
    assert!(output.stdout.contains("changed   "), "{}", output.stdout);
    assert!(output.stdout.contains("; kept its curated description"), "{}", output.stdout);
    assert!(output.stdout.contains("0 new, 1 changed, 0 unchanged"), "{}", output.stdout);
    assert!(output.stdout.contains("(1 of them change a fixture already there"), "{}", output.stdout);
    let proposed = conform::json::parse_value(&std::fs::read_to_string(&pending[0])?)?;
    assert_eq!(proposed["description"], curated);
    assert_eq!(proposed["input"]["lines"].as_array().map(Vec::len), Some(5));
    Ok(())
}

crate::trials![
    a_capture_over_a_curated_fixture_keeps_its_description_and_says_changed,
    real_agent_runtime_captures_become_passing_fixtures,
    a_format_names_the_suites_it_serves,
    a_file_of_another_format_is_refused_unless_forced_and_transcripts_read_as_transcripts,
    a_last_line_cut_mid_write_imports_what_is_complete
];
