//! The agent-runtime capture formats plug into `conform capture`: the real
//! Claude stream-json logs and transcripts, Codex app-server and `codex
//! exec` logs in ../shared/captures become redacted pending fixtures of
//! their suites that pass once accepted.

mod common;

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

#[test]
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

#[test]
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
