//! Runs every fixture in `fixtures/claude-display` through the reference and
//! compares canonical text; checks each document against the suite schema,
//! its file name and its canonical form.
//!
//! `cargo test --test claude_display_fixtures -- --ignored regenerate`
//! rebuilds the imported fixtures from `../shared/captures` and recomputes
//! every expected part (review the diff before committing).

use conform::json::{parse_document, to_canonical_string};
use conform::reference::NoTrace;
use conform::reference::claude_display::import::import_with_client;
use conform::suite::{Suite, claude_display::ClaudeDisplay};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

const FOLDER: &str = "fixtures/claude-display";

fn fixture_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(FOLDER)
        .expect("the fixture folder exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
}

fn expected_for(input: &Value) -> Value {
    ClaudeDisplay.reference().expect("the suite has a reference")(input, &mut NoTrace).expect("the input is an object")
}

#[test]
fn every_fixture_passes_the_reference() {
    let schema: Value = serde_json::from_str(ClaudeDisplay.schema()).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let paths = fixture_paths();
    assert!(paths.len() >= 40, "only {} fixtures", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable fixture");
        let document = parse_document(&text).expect("fixture is JSON").value;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if document.get("name").and_then(Value::as_str) != Some(stem) {
            failures.push(format!("{}: name differs from the file name", path.display()));
        }
        for error in validator.iter_errors(&document) {
            failures.push(format!("{}: schema: {} at {}", path.display(), error, error.instance_path()));
        }
        if to_canonical_string(&document) != text {
            failures.push(format!("{}: not in canonical form", path.display()));
        }
        let parts = ClaudeDisplay.split(&document).expect("the document splits");
        let actual = to_canonical_string(&expected_for(&parts.input));
        let expected = to_canonical_string(&parts.expected);
        if actual != expected {
            let diff = similar::TextDiff::from_lines(&expected, &actual);
            let shown = diff.unified_diff().context_radius(3).header("expected", "actual").to_string();
            failures.push(format!("{}: differs\n{}", path.display(), shown));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

/// Captures turned into fixtures, with the rules each one pins.
const CAPTURES: &[(&str, &str, &str)] = &[
    (
        "claude-stream-json/public/gleam-golden-basic_query-cc2.1.7.jsonl",
        "real CLI 2.1.7",
        "an assistant text turn, the session snapshot from system/init and the result notice",
    ),
    (
        "claude-stream-json/public/gleam-fixtures-ls-cc2.1.4.jsonl",
        "real CLI 2.1.4",
        "a Bash call settled by its tool return (row 2) with the tool_use_result sidecar",
    ),
    (
        "claude-stream-json/local-mock/api-error-400.jsonl",
        "CLI 2.1.332, local mock",
        "an API error assistant turn (metadata.error) and a success result with isError",
    ),
    (
        "claude-stream-json/local-mock/api-retry-overloaded.jsonl",
        "CLI 2.1.332, local mock",
        "api-retry notices before an error turn",
    ),
    (
        "claude-stream-json/local-mock/bash-partial-hooks.jsonl",
        "CLI 2.1.332, local mock",
        "stream_event partials and thinking_tokens ignored, hook notices, status notices, per-block assistant frames merged by message.id",
    ),
    (
        "claude-stream-json/local-mock/error-max-budget-usd.jsonl",
        "CLI 2.1.332, local mock",
        "result/error_max_budget_usd with the unanswered tool call left pending",
    ),
    (
        "claude-stream-json/local-mock/error-max-turns.jsonl",
        "CLI 2.1.332, local mock",
        "result/error_max_turns after a settled call",
    ),
    (
        "claude-stream-json/local-mock/interrupt.jsonl",
        "CLI 2.1.332, local mock",
        "the typed prompt as user input, control frames and command_lifecycle ignored, the interrupt marker text rule (row 4), result/error_during_execution",
    ),
    (
        "claude-stream-json/local-mock/max-output-tokens-recovery.jsonl",
        "CLI 2.1.332, local mock",
        "flagged synthetic recovery prompts (row 3, reason other)",
    ),
    (
        "claude-stream-json/local-mock/permission-allow.jsonl",
        "CLI 2.1.332, local mock",
        "control_request can_use_tool puts the call in approval-pending, the client's allow answer lets it run, the result settles it as success",
    ),
    (
        "claude-stream-json/local-mock/permission-deny.jsonl",
        "CLI 2.1.332, local mock",
        "the client's deny answer to can_use_tool denies the call (approval-denied) and its error result keeps it denied",
    ),
    (
        "claude-stream-json/local-mock/prompt-suggestion.jsonl",
        "CLI 2.1.332, local mock",
        "the typed prompt as user input, prompt_suggestion ignored as an input suggestion",
    ),
    (
        "claude-stream-json/local-mock/refusal.jsonl",
        "CLI 2.1.332, local mock",
        "system/informational as an info notice, a flagged refusal-retry prompt, model_refusal_no_fallback ignored",
    ),
    (
        "claude-stream-json/local-mock/replay-and-compact.jsonl",
        "CLI 2.1.332, local mock",
        "typed prompts as user input and their --replay-user-messages echoes rendered once (replay-duplicate), a replayed local-command record as a replay turn (row 1), status and compact notices, the flagged continuation summary named by the continuation rule",
    ),
    (
        "claude-stream-json/local-mock/session-state-tool-summary-local-commands.jsonl",
        "CLI 2.1.332, local mock",
        "typed prompts and slash commands as user input, session-state notices, tool_use_summary ignored, task frames for a Bash call ignored (not a sub-agent)",
    ),
    (
        "claude-stream-json/local-mock/subagent-background-task.jsonl",
        "CLI 2.1.332, local mock",
        "an Agent call's sub-agent record (task_started/progress/notification) with its nested transcript, frames of one message merged across interleaved main-thread frames",
    ),
    (
        "claude-stream-json/local-mock/text-partial-messages.jsonl",
        "CLI 2.1.332, local mock",
        "stream_event ignored; thinking and text frames of one message merged into one turn",
    ),
    (
        "claude-stream-json/local-mock/two-tool-calls.jsonl",
        "CLI 2.1.332, local mock",
        "two sequential Bash calls each settled by their tool return",
    ),
    (
        "claude-session-jsonl/public/agentcmd-askuserquestion-session.jsonl",
        "real CLI 2.0.29 session transcript",
        "the caveat (isMeta), a /clear command record and empty local-command-stdout hidden by text rules; a Task sub-agent call",
    ),
    (
        "claude-session-jsonl/public/spotter-short-cc2.1.38.jsonl",
        "real CLI 2.1.38 session transcript",
        "a rejected tool result and the tool-use interrupt marker; system/local_command entries skipped by the importer",
    ),
    (
        "claude-session-jsonl/public/spotter-subagent-acompact-cc2.1.39.jsonl",
        "real CLI 2.1.39 sidechain transcript",
        "isMeta system reminders (reason system-reminder) before a compaction prompt",
    ),
    (
        "claude-session-jsonl/public/spotter-tool_heavy-cc2.1.38.jsonl",
        "real CLI 2.1.38 session transcript",
        "the <local-command-caveat> and /mcp records, interrupt markers, WebSearch/WebFetch/Glob/Read calls",
    ),
];

/// Replaces the user name in home directories: `/home/<name>/`,
/// `/Users/<name>/`, and the dashed forms the CLI uses in project folder
/// names (`-home-<name>-`).
fn scrub_home(text: &str) -> String {
    const PREFIXES: [&str; 4] = ["/home/", "/Users/", "-home-", "-Users-"];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, prefix)) = PREFIXES.iter().filter_map(|p| rest.find(p).map(|i| (i, *p))).min() {
        out.push_str(&rest[..at + prefix.len()]);
        rest = &rest[at + prefix.len()..];
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_')).unwrap_or(rest.len());
        let closes = rest[end..].starts_with(prefix.chars().last().unwrap_or('/'));
        if end > 0 && closes {
            out.push_str("user");
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

fn scrub(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(scrub_home(text)),
        Value::Array(items) => Value::Array(items.iter().map(scrub).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), scrub(v))).collect()),
        other => other.clone(),
    }
}

fn write(path: &Path, document: &Value) {
    std::fs::write(path, to_canonical_string(document)).expect("writable fixture");
}

#[test]
#[ignore = "rewrites fixtures; run explicitly and review the diff"]
fn regenerate() {
    let shared = Path::new("../shared/captures");
    if shared.is_dir() {
        for (relative, provenance, pins) in CAPTURES {
            let text = std::fs::read_to_string(shared.join(relative)).expect("readable capture");
            let companion = shared.join(relative.replace(".jsonl", ".stdin.jsonl"));
            let client = std::fs::read_to_string(&companion).ok();
            let imported = import_with_client(&text, client.as_deref()).expect("the capture imports");
            let stem = Path::new(relative).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let format = if relative.starts_with("claude-stream-json") { "stream" } else { "transcript" };
            let name = format!("capture-{format}-{}", stem.replace(['.', '_'], "-"));
            for input in imported.inputs {
                let input = scrub(&input);
                let count = input["messages"].as_array().map_or(0, Vec::len);
                let skipped = if imported.skipped.is_empty() {
                    String::new()
                } else {
                    format!(", {} transcript lines without an SDK counterpart skipped", imported.skipped.len())
                };
                let with_client = if client.is_some() { " with its .stdin.jsonl client lines" } else { "" };
                let description = format!(
                    "Imported from ../shared/captures/{relative}{with_client} ({provenance}; {count} frames{skipped}; home directories scrubbed). Pins: {pins}."
                );
                let mut document = Map::new();
                document.insert("fixtureVersion".to_owned(), Value::from(1));
                document.insert("name".to_owned(), Value::from(name.as_str()));
                document.insert("description".to_owned(), Value::from(description));
                document.insert("expected".to_owned(), expected_for(&input));
                document.insert("input".to_owned(), input);
                write(&Path::new(FOLDER).join(format!("{name}.json")), &Value::Object(document));
            }
        }
    } else {
        eprintln!("../shared/captures is absent: imported fixtures were not rebuilt");
    }
    for path in fixture_paths() {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let document = parse_document(&text).expect("fixture is JSON").value;
        let parts = ClaudeDisplay.split(&document).expect("the document splits");
        let updated = ClaudeDisplay.with_expected(&document, &expected_for(&parts.input)).expect("replaceable");
        write(&path, &updated);
    }
}
