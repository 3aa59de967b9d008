//! `conform capture` end to end: a 200-message HAPI session dump (overlapping
//! pages in any order, a duplicated page, an NDJSON stream, the session
//! object, planted secrets) becomes pending fixtures that contain no planted
//! secret, never split a tool call from its result or a sidechain from its
//! Task with `--window 20`, and pass once accepted.

use crate::common;

use common::planted::{CUSTOM_RULE, planted_members, planted_strings};
use common::session::{SessionBuilder, ToolLinks, write_dump};
use common::{Conform, conform, files_ending, fixture_files, hapi_suite, read_document};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn json_escaped(secret: &str) -> String {
    let quoted = serde_json::to_string(secret).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

fn all_secrets() -> Vec<String> {
    planted_strings()
        .iter()
        .flat_map(|p| p.secrets())
        .chain(planted_members().iter().flat_map(|(_, p)| p.secrets()))
        .filter(|s| s.len() >= 4)
        .collect()
}

/// Every tool-call block (children included) of a projected block list.
fn tool_blocks<'a>(blocks: &'a Value, out: &mut Vec<&'a Value>) {
    for block in blocks.as_array().into_iter().flatten() {
        if block["kind"] == "tool-call" {
            out.push(block);
        }
        if block["kind"] == "tool-group" {
            tool_blocks(&block["tools"], out);
        }
        tool_blocks(&block["children"], out);
    }
}

/// What a capture with windows produced, checked.
struct Checked {
    windows: usize,
    pairs: usize,
    sidechains: usize,
}

/// Checks the pending windows of a capture against the whole session.
fn check_windows(pending: &[PathBuf], session: &[Value]) -> Checked {
    let full = ToolLinks::of(session);
    let mut seen_ids = BTreeSet::new();
    let (mut pairs, mut sidechains) = (0, 0);
    let secrets = all_secrets();
    for file in pending {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()) && !text.contains(&json_escaped(secret)),
                "{}: a planted secret survived: {}…",
                file.display(),
                &secret[..4]
            );
        }
        let document = conform::json::parse_value(&text).unwrap_or(Value::Null);
        let messages = document["input"]["messages"].as_array().cloned().unwrap_or_default();
        assert!(!messages.is_empty(), "{}: no messages", file.display());
        seen_ids.extend(messages.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)));
        let links = ToolLinks::of(&messages);
        for id in links.opened.keys() {
            if full.completed.contains_key(id) {
                assert!(links.completed.contains_key(id), "{}: {id} opened without its result", file.display());
                pairs += 1;
            }
        }
        for id in links.completed.keys() {
            if full.opened.contains_key(id) {
                assert!(links.opened.contains_key(id), "{}: result of {id} without its call", file.display());
            }
        }
        for (parent, members) in &links.sidechain {
            if full.opened.contains_key(parent) {
                assert!(
                    links.opened.contains_key(parent),
                    "{}: sidechain of {parent} without its Task",
                    file.display()
                );
                assert_eq!(
                    Some(members.len()),
                    full.sidechain.get(parent).map(BTreeSet::len),
                    "{parent}: sidechain split"
                );
                sidechains += 1;
            }
        }
        // The decoded side agrees: every call completed in the session is
        // completed (with its result) in the window.
        let mut tools = Vec::new();
        tool_blocks(&document["expected"]["blocks"], &mut tools);
        for block in tools {
            let id = block["tool"]["id"].as_str().unwrap_or_default();
            if full.completed.contains_key(id) && full.opened.contains_key(id) {
                let state = block["tool"]["state"].as_str().unwrap_or_default();
                assert!(state == "completed" || state == "error", "{}: tool {id} is {state}", file.display());
            }
        }
    }
    let all_ids: BTreeSet<String> = session.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect();
    assert_eq!(seen_ids, all_ids, "every message is in some window");
    Checked { windows: pending.len(), pairs, sidechains }
}

/// Captures `files` with `--window 20` into `<root>/fixtures/chat`, checks
/// the windows, accepts them and runs them.
fn capture_check_accept_run(root: &Path, files: &[PathBuf], session: &[Value]) -> Checked {
    let out = root.join("fixtures").join("chat");
    let out_arg = out.to_string_lossy().into_owned();
    let mut args: Vec<String> =
        ["capture", "chat", "--from", "hapi-messages", "--out", &out_arg, "--window", "20"].map(str::to_owned).to_vec();
    args.extend(["--name-prefix".into(), "cap-".into(), "--redact-rule".into(), CUSTOM_RULE.into()]);
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let output = conform(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(output.success(), "{}", output.text());
    assert!(output.text().contains("lint: clean"), "{}", output.text());

    assert!(files_ending(&out, ".json").is_empty(), "nothing is written in place without --accept");
    let pending = files_ending(&out, ".json.new");
    let checked = check_windows(&pending, session);
    assert!(checked.windows >= 10, "{} windows", checked.windows);

    let listed = conform(&["review", &out_arg, "--list"]);
    assert!(listed.success());
    assert!(listed.text().contains(&format!("{} pending", pending.len())), "{}", listed.text());
    let accepted = conform(&["review", &out_arg, "--accept-all"]);
    assert!(accepted.success(), "{}", accepted.text());
    assert!(files_ending(&out, ".json.new").is_empty());
    assert_eq!(files_ending(&out, ".json").len(), pending.len());

    let reports = root.join("reports").to_string_lossy().into_owned();
    let run = conform(&["run", &out_arg, "--format", "pretty", "--out", &reports, "--no-diff"]);
    assert!(run.success(), "{}", run.text());
    assert!(run.text().contains(&format!("{} passed, 0 failed", pending.len())), "{}", run.text());
    checked
}

fn a_200_message_dump_becomes_pending_windows_that_pass() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let dump = root.path().join("dump");
    std::fs::create_dir_all(&dump)?;
    let (messages, agent_state) = SessionBuilder::build();
    let files = write_dump(&dump, &messages, &agent_state);
    let checked = capture_check_accept_run(root.path(), &files, &messages);
    assert!(
        checked.pairs >= 40 && checked.sidechains >= 8,
        "{} pairs, {} sidechains",
        checked.pairs,
        checked.sidechains
    );
    eprintln!(
        "hand-written session: 200 messages → {} windows; {} tool pairs and {} sidechain groups checked whole; \
         0 planted secrets survived",
        checked.windows, checked.pairs, checked.sidechains
    );
    Ok(())
}

fn without_windows_one_case_per_session_and_accept_refused_in_ci() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let (messages, agent_state) = SessionBuilder::build();
    let files = write_dump(root.path(), &messages, &agent_state);
    let out = root.path().join("chat");
    let out_arg = out.to_string_lossy().into_owned();
    let file_args: Vec<String> = files.iter().map(|f| f.to_string_lossy().into_owned()).collect();

    let mut args = vec!["capture", "chat", "--from", "hapi-messages", "--out", &out_arg, "--accept"];
    args.extend(file_args.iter().map(String::as_str));
    let refused = Conform::new(&args).env("CI", "true").run();
    assert_eq!(refused.code, Some(2));
    assert!(refused.text().contains("CI environment variable"), "{}", refused.text());
    assert!(!out.exists(), "nothing written");

    args.retain(|a| *a != "--accept");
    let output = conform(&args);
    assert!(output.success(), "{}", output.text());
    let pending = files_ending(&out, ".json.new");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].file_name().and_then(|n| n.to_str()), Some("sess-7f3a.json.new"));
    let document = read_document(&pending[0]);
    assert_eq!(document["input"]["messages"].as_array().map(Vec::len), Some(200));
    let description = document["description"].as_str().unwrap_or_default();
    assert!(description.starts_with("Captured from page-2.json, session.json, page-latest.json"), "{description}");
    assert!(description.contains("200 messages; seq 1–200; 6 pages or streams;"), "{description}");
    assert!(description.contains("captured 2025-08-12"), "{description}");
    // The queued copy and the consumed copy of one row: the consumed one wins.
    assert!(output.text().contains("it carries invokedAt"), "{}", output.text());
    assert_eq!(document["input"]["agentState"]["requests"].as_object().map(|r| r.len()), Some(1));

    // A second capture of the same dump changes nothing.
    let again = conform(&args);
    assert!(again.success());
    assert_eq!(std::fs::read_to_string(&pending[0])?, conform::json::to_canonical_string(&document));
    Ok(())
}

/// The HAPI corpus inputs, concatenated into one session of 200 messages:
/// all 115 corpus messages, then a second pass with every id renamed.
fn corpus_session(folder: &Path) -> (Vec<Value>, Value) {
    let mut messages = Vec::new();
    let mut state = json!({"requests": {}, "completedRequests": {}});
    for path in fixture_files(folder) {
        let document = read_document(&path);
        messages.extend(document["input"]["messages"].as_array().cloned().unwrap_or_default());
        for key in ["requests", "completedRequests"] {
            if let Some(entries) = document["input"]["agentState"][key].as_object() {
                for (id, entry) in entries {
                    state[key][id] = entry.clone();
                }
            }
        }
    }
    let ids: BTreeSet<String> = messages.iter().flat_map(identifiers).collect();
    let renamed: Vec<Value> = messages.iter().map(|m| rename(m, &ids)).collect();
    messages.extend(renamed);
    messages.truncate(200);
    for (index, message) in messages.iter_mut().enumerate() {
        message["seq"] = json!(index + 1);
    }
    (messages, state)
}

fn identifiers(message: &Value) -> Vec<String> {
    let mut found = vec![message["id"].as_str().unwrap_or_default().to_owned()];
    fn walk(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                for key in ["id", "callId", "tool_use_id", "uuid", "parentUuid", "parentToolUseId", "toolUseId"] {
                    if let Some(id) = object.get(key).and_then(Value::as_str) {
                        found.push(id.to_owned());
                    }
                }
                object.values().for_each(|v| walk(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, found)),
            _ => {}
        }
    }
    walk(message, &mut found);
    found
}

fn rename(value: &Value, ids: &BTreeSet<String>) -> Value {
    match value {
        Value::String(s) if ids.contains(s) => Value::String(format!("{s}-r2")),
        Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, ids)).collect()),
        Value::Object(object) => Value::Object(object.iter().map(|(k, v)| (k.clone(), rename(v, ids))).collect()),
        other => other.clone(),
    }
}

fn a_session_built_from_the_hapi_corpus_inputs() -> Result<(), Box<dyn std::error::Error>> {
    let Some(corpus) = hapi_suite("chat") else { return Ok(()) };
    let (mut messages, state) = corpus_session(&corpus);
    // Plant secrets in the user messages of the second pass.
    let planted = planted_strings();
    let mut next = 0;
    for message in messages.iter_mut().skip(115) {
        if message["content"]["role"] == "user" && message["content"]["content"]["type"] == "text" {
            message["content"]["content"]["text"] = json!(planted[next % planted.len()].original());
            next += 1;
        }
    }
    assert!(next >= 10, "only {next} secrets planted");
    let root = tempfile::tempdir()?;
    let dump = root.path().join("dump");
    std::fs::create_dir_all(&dump)?;
    let files = write_dump(&dump, &messages, &state);
    let checked = capture_check_accept_run(root.path(), &files, &messages);
    eprintln!(
        "corpus-built session: 200 messages → {} windows; {} tool pairs and {} sidechain groups checked whole",
        checked.windows, checked.pairs, checked.sidechains
    );
    Ok(())
}

/// Every document of `files` captured with `--window`, through the library.
fn windows_of(files: &[PathBuf], out: &Path, window: usize) -> Vec<Value> {
    let (suite, format) = conform::capture::find_format("chat", "hapi-messages").unwrap_or_else(|err| panic!("{err}"));
    let options = conform::capture::CaptureOptions {
        suite,
        format,
        files: files.to_vec(),
        out: out.to_path_buf(),
        name_prefix: String::new(),
        window: Some(window),
        redact_rules: vec![CUSTOM_RULE.to_owned()],
        keep_personal_data: false,
        fixture_version: None,
        captured_on: None,
        force_format: false,
    };
    let prepared = conform::capture::prepare(&options).unwrap_or_else(|err| panic!("{err}"));
    prepared.fixtures.into_iter().map(|fixture| fixture.document).collect()
}

/// A session read through its index (windows built from their own
/// messages) gives the documents of the same session cut whole: the session
/// id holds an e-mail address that nothing else holds, so its placeholder
/// is numbered after every message and the case is read whole and cut.
fn windows_read_through_the_index_are_the_windows_of_the_whole_session() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let (messages, agent_state) = SessionBuilder::build();
    let streamed_dump = root.path().join("streamed");
    let whole_dump = root.path().join("whole");
    std::fs::create_dir_all(&streamed_dump)?;
    std::fs::create_dir_all(&whole_dump)?;
    let streamed_files = write_dump(&streamed_dump, &messages, &agent_state);
    let whole_files = write_dump(&whole_dump, &messages, &agent_state);
    let session = whole_dump.join("session.json");
    let text = std::fs::read_to_string(&session)?.replace("\"sess-7f3a\"", "\"sess-7f3a-ops@corp-mail.net\"");
    std::fs::write(&session, text)?;
    for window in [7, 20, 64] {
        let streamed = windows_of(&streamed_files, &root.path().join("a"), window);
        let whole = windows_of(&whole_files, &root.path().join("b"), window);
        assert_eq!(streamed.len(), whole.len(), "--window {window}");
        assert!(streamed.len() > 2, "--window {window}: {} windows", streamed.len());
        for (index, (a, b)) in streamed.iter().zip(&whole).enumerate() {
            assert_eq!(a["input"], b["input"], "--window {window}, window {}: inputs differ", index + 1);
            assert_eq!(a["expected"], b["expected"], "--window {window}, window {}: expectations differ", index + 1);
        }
    }
    Ok(())
}

/// A secret the lint finds in a late window (a `--redact-rule` that only
/// matches the written text: a backslash escape) fails the capture after
/// earlier windows were written: they are removed again.
fn a_late_window_that_fails_the_lint_leaves_no_pending_file() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let dump = root.path().join("dump");
    std::fs::create_dir_all(&dump)?;
    let (mut messages, agent_state) = SessionBuilder::build();
    let late = messages.len() - 10;
    messages[late]["content"]["content"] = json!({"type": "text", "text": "LEAK\nTAIL"});
    let files = write_dump(&dump, &messages, &agent_state);
    let out = root.path().join("fixtures").join("chat");
    let out_arg = out.to_string_lossy().into_owned();
    let mut args: Vec<String> =
        ["capture", "chat", "--from", "hapi-messages", "--out", &out_arg, "--window", "20"].map(str::to_owned).to_vec();
    args.extend(["--redact-rule".into(), r"LEAK\\nTAIL".into()]);
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let output = conform(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(output.code, Some(2), "{}", output.text());
    assert!(output.stderr.contains("refusing to write: secret-looking content remains"), "{}", output.stderr);
    assert!(output.stderr.contains("removed the") && output.stderr.contains("pending fixtures"), "{}", output.stderr);
    assert!(files_ending(&out, ".json.new").is_empty(), "{:?}", files_ending(&out, ".json.new"));
    assert!(files_ending(&out, ".tmp").is_empty());
    Ok(())
}

crate::trials![
    a_200_message_dump_becomes_pending_windows_that_pass,
    without_windows_one_case_per_session_and_accept_refused_in_ci,
    a_session_built_from_the_hapi_corpus_inputs,
    windows_read_through_the_index_are_the_windows_of_the_whole_session,
    a_late_window_that_fails_the_lint_leaves_no_pending_file
];
