//! The agent-runtime fixture corpus: every fixture under
//! `fixtures/{claude-events,codex-app-server-events,codex-exec-events,event-fold,tool-policy}`
//! is schema-valid, canonical, named after its file, and reproduced
//! byte-for-byte by the suite's reference.
//!
//! `cargo test --test agent_events_corpus -- --ignored regenerate` rebuilds
//! the imported fixtures from `../shared/captures` with the capture
//! importers and recomputes every expectation with the references; review
//! the diff before committing.

use conform::json::{parse_document, to_canonical_string};
use conform::reference::NoTrace;
use conform::reference::{claude_events, codex_app_server_events, codex_exec_events, event_fold};
use conform::suite::{Suite, find};
use serde_json::{Map, Value, json};
use std::fs;
use std::path::{Path, PathBuf};

const SUITES: [&str; 5] =
    ["claude-events", "codex-app-server-events", "codex-exec-events", "event-fold", "tool-policy"];

fn fixtures_dir(suite: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(suite)
}

fn captures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/captures")
}

fn suite(name: &str) -> &'static dyn Suite {
    find(name).unwrap_or_else(|| panic!("suite {name} is not registered"))
}

fn fixture_files(suite: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(fixtures_dir(suite))
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|path| path.extension().is_some_and(|ext| ext == "json"));
    files.sort();
    files
}

/// Computes a document's expected part with the suite's reference.
fn with_expected(suite_name: &str, document: &Value) -> Result<Value, String> {
    let suite = suite(suite_name);
    let parts = suite.split(document)?;
    let reference = suite.reference().ok_or("no reference")?;
    let expected = reference(&parts.input, &mut NoTrace)?;
    suite.with_expected(document, &expected)
}

#[test]
fn every_fixture_is_valid_canonical_and_reproduced_by_the_reference() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for suite_name in SUITES {
        let schema: Value = serde_json::from_str(suite(suite_name).schema()).expect("embedded schema parses");
        let validator = jsonschema::validator_for(&schema).expect("embedded schema compiles");
        for path in fixture_files(suite_name) {
            checked += 1;
            let text = fs::read_to_string(&path).expect("fixture readable");
            let id = format!("{suite_name}/{}", path.file_stem().unwrap_or_default().to_string_lossy());
            let document = match parse_document(&text) {
                Ok(parsed) => parsed.value,
                Err(err) => {
                    failures.push(format!("{id}: {err}"));
                    continue;
                }
            };
            for error in validator.iter_errors(&document) {
                failures.push(format!("{id}: schema: {} at {}", error, error.instance_path()));
            }
            if to_canonical_string(&document) != text {
                failures.push(format!("{id}: not in canonical form"));
            }
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            if document.get("name").and_then(Value::as_str) != stem.as_deref() {
                failures.push(format!("{id}: `name` differs from the file name"));
            }
            match with_expected(suite_name, &document) {
                Ok(recomputed) if recomputed == document => {}
                Ok(recomputed) => {
                    let want = to_canonical_string(&document["expected"]);
                    let got = to_canonical_string(&recomputed["expected"]);
                    let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0);
                    failures
                        .push(format!("{id}: the reference differs from the fixture at expected line {}", line + 1));
                }
                Err(err) => failures.push(format!("{id}: the reference failed: {err}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} fixtures failed:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 60, "expected at least 60 agent-runtime fixtures, found {checked}");
}

#[test]
fn event_fold_fixtures_agree_when_replay_rows_are_reshuffled() {
    // The reference fails a case whose live and replay paths disagree, so a
    // passing fixture already agrees for its own `replayOrder`; this checks
    // every other row order the database could return too (reversed and
    // rotated), as long as rows carry distinct (ts, seq) keys.
    for path in fixture_files("event-fold") {
        let document = parse_document(&fs::read_to_string(&path).expect("readable")).expect("parses").value;
        let input = &document["input"];
        let events = input["events"].as_array().cloned().unwrap_or_default();
        let keyed = events.iter().all(|event| event.get("seq").is_some_and(Value::is_number));
        if !keyed {
            continue;
        }
        let n = events.len();
        let mut orders: Vec<Vec<usize>> = vec![(0..n).rev().collect()];
        for shift in [1, n / 2, n.saturating_sub(1)] {
            orders.push((0..n).map(|i| (i + shift) % n.max(1)).collect());
        }
        for order in orders {
            let mut shuffled = input.clone();
            shuffled["replayOrder"] = json!(order);
            let result = event_fold::run(&shuffled, &mut NoTrace);
            assert_eq!(
                result.as_ref().ok(),
                Some(&document["expected"]),
                "{} with replayOrder {order:?}",
                path.display()
            );
        }
    }
}

/// One fixture built from a capture.
struct Imported {
    suite: &'static str,
    capture: &'static str,
    client: Option<&'static str>,
    /// Which input of the capture (turns of a multi-run Claude capture).
    part: usize,
    name: &'static str,
    pins: &'static str,
}

const fn imported(suite: &'static str, capture: &'static str, name: &'static str, pins: &'static str) -> Imported {
    Imported { suite, capture, client: None, part: 0, name, pins }
}

const CLAUDE: &str = "claude-events";
const APP: &str = "codex-app-server-events";
const EXEC: &str = "codex-exec-events";

fn imports() -> Vec<Imported> {
    let with_client = |mut i: Imported, client: &'static str| {
        i.client = Some(client);
        i
    };
    let part = |mut i: Imported, part: usize| {
        i.part = part;
        i
    };
    vec![
        imported(
            CLAUDE,
            "claude-stream-json/public/gleam-golden-basic_query-cc2.1.7.jsonl",
            "public-basic-query",
            "system/init → session_ready; assistant text → delta; the result frame emits nothing itself and its text becomes the final result, then done",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/public/gleam-fixtures-ls-cc2.1.4.jsonl",
            "public-bash-ls",
            "tool_use → tool_start with input.command lifted to `command`; user tool_result → tool_result with is_error",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/text-partial-messages.jsonl",
            "partial-messages-ignored",
            "every stream_event kind (--include-partial-messages) is ignored because the complete assistant frames follow; thinking block → thinking; status and thinking_tokens ignored",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/bash-partial-hooks.jsonl",
            "bash-with-partials-and-hooks",
            "a Bash call with input_json_delta partials and Pre/PostToolUse hook frames (ignored); one frame per content block sharing message.id",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/two-tool-calls.jsonl",
            "two-tool-calls",
            "two sequential Bash calls pair tool_start and tool_result by tool_use_id",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/subagent-background-task.jsonl",
            "subagent-background-task",
            "sub-agent rule: the Agent tool_use is a spawn (subagent_spawn, subagent_name from input.description); frames with parent_tool_use_id carry subagent_id; task_* frames ignored; of two result frames only the last text is emitted",
        ),
        with_client(
            imported(
                CLAUDE,
                "claude-stream-json/local-mock/permission-allow.jsonl",
                "permission-allow",
                "control_request can_use_tool → permission_request; the client's control_response (merged from permission-allow.stdin.jsonl) → permission_resolved allowed: true; the CLI's response to initialize and command_lifecycle frames are ignored",
            ),
            "claude-stream-json/local-mock/permission-allow.stdin.jsonl",
        ),
        with_client(
            imported(
                CLAUDE,
                "claude-stream-json/local-mock/permission-deny.jsonl",
                "permission-deny",
                "the client's deny answer → permission_resolved allowed: false; the denial reaches the model as an error tool_result",
            ),
            "claude-stream-json/local-mock/permission-deny.stdin.jsonl",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/interrupt.jsonl",
            "interrupt-error-during-execution",
            "an interrupt (control request) ends with result/error_during_execution, which emits nothing; the synthetic \"[Request interrupted by user]\" user text is ignored; the generator still completes, so done follows",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/replay-and-compact.jsonl",
            "replay-and-compact-turn-1",
            "user frames with isReplay echo the client's own message and are ignored",
        ),
        part(
            imported(
                CLAUDE,
                "claude-stream-json/local-mock/replay-and-compact.jsonl",
                "replay-and-compact-turn-2",
                "a /compact run: status, compact_boundary and the synthetic continuation user text are ignored; an empty result text emits no result event",
            ),
            1,
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/session-state-tool-summary-local-commands.jsonl",
            "session-state-and-tool-summary",
            "session_state_changed, task_started/task_notification of a slow Bash and tool_use_summary are ignored; the tool pair is mapped",
        ),
        part(
            imported(
                CLAUDE,
                "claude-stream-json/local-mock/session-state-tool-summary-local-commands.jsonl",
                "local-command-cost",
                "a /cost slash command: its output arrives as assistant text (delta) and as the result text",
            ),
            1,
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/prompt-suggestion.jsonl",
            "prompt-suggestion",
            "prompt_suggestion after the result is ignored",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/api-retry-overloaded.jsonl",
            "api-retry-overloaded",
            "system/api_retry is ignored; an API error ends as result/success with is_error: true, which is not a final answer (its text already arrived as the assistant frame carrying `error`)",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/api-error-400.jsonl",
            "api-error-400",
            "a 400 API error: the synthetic assistant text is a delta, the is_error result emits nothing",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/refusal.jsonl",
            "refusal",
            "system/informational and system/model_refusal_no_fallback are ignored; synthetic user text is ignored",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/error-max-turns.jsonl",
            "error-max-turns",
            "result/error_max_turns emits nothing; with no successful result there is no result event, only done",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/error-max-budget-usd.jsonl",
            "error-max-budget-usd",
            "result/error_max_budget_usd emits nothing; a tool_use without a tool_result stays a lone tool_start",
        ),
        imported(
            CLAUDE,
            "claude-stream-json/local-mock/max-output-tokens-recovery.jsonl",
            "max-output-tokens-recovery",
            "max_output_tokens recovery: synthetic resume prompts (user text) are ignored, every assistant text is a delta",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/text.jsonl",
                "text",
                "responses ignored; thread/started → session_ready; turn/started → empty thinking (done: false); reasoning item/started → empty thinking; summaryTextDelta and textDelta → thinking; reasoning item/completed → thinking done: true with no text (it streamed); agentMessage deltas → delta; agentMessage item/completed skipped; turn/completed → done",
            ),
            "codex-app-server/local-mock/text.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/two-commands.jsonl",
                "two-commands",
                "commandExecution item/started → tool_start (tool bash: `/bin/bash -lc 'echo …'` is no file read), item/completed → tool_result with aggregatedOutput and exit_code; outputDelta ignored",
            ),
            "codex-app-server/local-mock/two-commands.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/approve-accept.jsonl",
                "approve-accept",
                "item/commandExecution/requestApproval → permission_request; the client's {decision: accept} (merged from approve-accept.client.jsonl) → permission_resolved allowed: true; serverRequest/resolved then only acknowledges",
            ),
            "codex-app-server/local-mock/approve-accept.client.jsonl",
        ),
        imported(
            APP,
            "codex-app-server/local-mock/approve-accept.jsonl",
            "approve-accept-server-only",
            "without the client's lines, serverRequest/resolved resolves the approval with the decision unknown (permission_resolved without `allowed`)",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/approve-decline.jsonl",
                "approve-decline",
                "a declined command approval → permission_resolved allowed: false; the declined commandExecution → tool_result is_error: true",
            ),
            "codex-app-server/local-mock/approve-decline.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/file-change-approve-accept.jsonl",
                "file-change-approve-accept",
                "item/fileChange/requestApproval → permission_request (apply_patch); fileChange items → tool_start/tool_result (not in the seed's table: mapped like the other tool items); turn/diff/updated ignored",
            ),
            "codex-app-server/local-mock/file-change-approve-accept.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/two-turns-failed-command.jsonl",
                "two-turns-failed-command",
                "two turns on one thread, each turn/started → thinking and turn/completed → done; `ls` after the shell wrapper is a file read (tool ls, is_file_read, file_path); a failed command → is_error with exit code 2",
            ),
            "codex-app-server/local-mock/two-turns-failed-command.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/context-window-turn-failed.jsonl",
                "context-window-turn-failed",
                "error (willRetry: false) → error with code contextWindowExceeded; the failed turn/completed reports the same error, so only done follows",
            ),
            "codex-app-server/local-mock/context-window-turn-failed.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/interrupt.jsonl",
                "interrupt",
                "turn/completed with status interrupted → done stopped: true; the running command never completes; a late outputDelta after turn/completed is ignored",
            ),
            "codex-app-server/local-mock/interrupt.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/web-search.jsonl",
                "web-search",
                "webSearch items → tool_start/tool_result (tool web_search; not in the seed's table)",
            ),
            "codex-app-server/local-mock/web-search.client.jsonl",
        ),
        with_client(
            imported(
                APP,
                "codex-app-server/local-mock/mcp-tool-call.jsonl",
                "mcp-tool-call",
                "mcpToolCall items → tool_start/tool_result with the text content of the result; mcpServer/startupStatus/updated ignored",
            ),
            "codex-app-server/local-mock/mcp-tool-call.client.jsonl",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/simple.jsonl",
            "simple",
            "thread.started → session_ready; turn.started → empty thinking; item.completed reasoning → thinking; agent_message → delta; turn.completed → done",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/shell.jsonl",
            "shell",
            "item.started command_execution → tool_start (exit_code null while running), item.completed → tool_result",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/two-commands.jsonl",
            "two-commands",
            "two command pairs interleaved with reasoning and text",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/shell-nonzero-exit.jsonl",
            "shell-nonzero-exit",
            "a failed `ls` (file-read classifier after the shell wrapper) → tool_result is_error with exit_code 2",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/file-change.jsonl",
            "file-change",
            "file_change started with status in_progress (0.171, not in the sdk 0.163 types) → tool_start apply_patch; completed → tool_result",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/web-search-duplicate-id.jsonl",
            "web-search-decoded",
            "web_search items → tool_start/tool_result; the duplicate `id` key was decoded with JSON.parse semantics (last value ws_… at the first position)",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/mcp-tool-call.jsonl",
            "mcp-tool-call",
            "mcp_tool_call → tool_start with the tool name and arguments, tool_result with the text content",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/stream-error-retries-turn-failed.jsonl",
            "stream-error-retries",
            "`error` events starting \"Reconnecting...\" are retry notices and ignored; the final error → error; turn.failed with the same message → done only",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/context-window-turn-failed.jsonl",
            "context-window-turn-failed",
            "error → error; turn.failed repeating it → done only",
        ),
        imported(
            EXEC,
            "codex-exec-json/local-mock/config-warning-error-items.jsonl",
            "config-warning-error-items",
            "error items before turn.started are 0.171's non-fatal config warnings and are ignored",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-1.jsonl",
            "public-simple-answer",
            "a real codex 0.46-era run: reasoning → thinking, agent_message → delta, turn.completed → done",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-2.jsonl",
            "public-bash-ls",
            "`bash -lc ls` is classified as the file read `ls` on start and on completion",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-3.jsonl",
            "public-file-change-without-start",
            "a file_change that only completes gets a tool_start before its tool_result",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-4.jsonl",
            "public-cat-file",
            "`bash -lc 'cat test.js'` → tool cat with file_path test.js and is_file_read",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-5.jsonl",
            "public-zsh-ls",
            "`zsh -lc ls` is unwrapped like bash",
        ),
        imported(
            EXEC,
            "codex-exec-json/public/agentcmd-stream-output-multi-1.jsonl",
            "public-truncated-run",
            "a truncated run (thread.started, turn.started only) produces no done",
        ),
    ]
}

fn provenance(capture: &str) -> &'static str {
    if capture.contains("/public/") {
        "public capture (see captures/PROVENANCE.md)"
    } else if capture.starts_with("claude") {
        "local-mock capture, Claude Code 2.1.332"
    } else {
        "local-mock capture, codex-cli 0.171.0"
    }
}

fn import(item: &Imported) -> Value {
    let read = |path: &str| fs::read_to_string(captures_dir().join(path)).expect("capture readable");
    let text = read(item.capture);
    let client = item.client.map(read);
    let inputs = match item.suite {
        CLAUDE => claude_events::import::import_with_client(&text, client.as_deref()),
        APP => codex_app_server_events::import::import_with_client(&text, client.as_deref()),
        _ => codex_exec_events::import::import(&text),
    }
    .unwrap_or_else(|err| panic!("{}: {err}", item.capture));
    let count = inputs.len();
    let input = inputs.into_iter().nth(item.part).expect("the capture has that part");
    let part = if count > 1 { format!(", run {} of {count}", item.part + 1) } else { String::new() };
    let client = item.client.map(|c| format!(" with {c}")).unwrap_or_default();
    let description =
        format!("{}. Imported from captures/{}{client}{part} ({}).", item.pins, item.capture, provenance(item.capture));
    let mut document = Map::new();
    document.insert("fixtureVersion".to_owned(), json!(1));
    document.insert("name".to_owned(), json!(item.name));
    document.insert("description".to_owned(), json!(description));
    document.insert("input".to_owned(), input);
    document.insert("expected".to_owned(), Value::Null);
    Value::Object(document)
}

/// An `event-fold` fixture whose events are a normalizer fixture's output.
struct Folded {
    name: &'static str,
    source: &'static str,
    pins: &'static str,
}

fn folded() -> Vec<Folded> {
    let folded = |name, source, pins| Folded { name, source, pins };
    vec![
        folded(
            "from-claude-subagent-background-task",
            "claude-events/subagent-background-task",
            "sub-agent block from a real Agent spawn: the spawn's immediate \"launched\" tool_result marks it completed (seed rule 3) before its frames arrive, which still route into it by subagent_id; session_ready emits no block, so the two parent texts after the sub-agent run together in one text block",
        ),
        folded(
            "from-claude-permission-deny",
            "claude-events/permission-deny",
            "a denied permission block (resolved, allowed: false) between the Write tool block and its error result; text after them gets the paragraph separator",
        ),
        folded(
            "from-claude-two-tool-calls",
            "claude-events/two-tool-calls",
            "thinking, text, two Bash tools with short output passed through as summaries, text after the tools separated by \\n\\n, result keeps the streamed content and closes the bubble",
        ),
        folded(
            "from-app-server-approve-accept",
            "codex-app-server-events/approve-accept",
            "Codex thinking accumulation (turn/started and reasoning signals, summary and text deltas concatenated, done: true), streamed deltas joined into one text block, the approved command (output \"created\\n\" is not single-line, so Done) and its resolved permission",
        ),
        folded(
            "from-app-server-interrupt",
            "codex-app-server-events/interrupt",
            "an interrupted turn: the command block stays running (summary Running...), done closes the bubble",
        ),
        folded(
            "from-app-server-two-turns",
            "codex-app-server-events/two-turns-failed-command",
            "two turns: done closes the first bubble so the second turn opens a new one; the failed `ls` (a classified read) shows its file path",
        ),
        folded(
            "from-exec-public-cat-file",
            "codex-exec-events/public-cat-file",
            "a classified `cat` shows its file path as the summary (category file)",
        ),
        folded(
            "from-exec-two-commands",
            "codex-exec-events/two-commands",
            "exec reasoning → thinking (the two reasoning texts concatenate), two bash commands (category terminal) whose output ends with a newline, so their summary is Done: the passthrough needs single-line output before trimming",
        ),
    ]
}

/// Stamps a normalizer fixture's events as stored rows (three per
/// millisecond, increasing seq) and shuffles the order the rows come back in.
fn fold_fixture(item: &Folded) -> Value {
    let (suite_name, name) = item.source.split_once('/').expect("suite/name");
    let path = fixtures_dir(suite_name).join(format!("{name}.json"));
    let source = parse_document(&fs::read_to_string(path).expect("source fixture")).expect("parses").value;
    let events: Vec<Value> = source["expected"]["events"]
        .as_array()
        .expect("normalized events")
        .iter()
        .enumerate()
        .map(|(index, event)| {
            let mut row = event.clone();
            row["ts"] = json!(format!("2026-11-29T17:23:45.{:03}Z", index / 3));
            row["seq"] = json!(index + 1);
            row
        })
        .collect();
    // A fixed Fisher-Yates shuffle (LCG), so regeneration is reproducible.
    let mut order: Vec<usize> = (0..events.len()).collect();
    let mut state: u64 = 0x9e3b_ee46_f783_5f0a;
    for i in (1..order.len()).rev() {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let j = usize::try_from((state >> 33) % (i as u64 + 1)).unwrap_or(0);
        order.swap(i, j);
    }
    let description = format!(
        "{}. Events are the expected output of {} (its capture provenance applies), stored three per millisecond with increasing seq and returned shuffled.",
        item.pins, item.source
    );
    json!({
        "fixtureVersion": 1,
        "name": item.name,
        "description": description,
        "input": {"events": events, "replayOrder": order},
        "expected": null,
    })
}

#[test]
#[ignore = "rewrites fixtures; run explicitly and review the diff"]
fn regenerate() {
    if !captures_dir().exists() {
        eprintln!("note: ../shared/captures is absent; only recomputing expectations");
    } else {
        for item in imports() {
            let dir = fixtures_dir(item.suite);
            fs::create_dir_all(&dir).expect("fixture folder");
            let document = import(&item);
            fs::write(dir.join(format!("{}.json", item.name)), to_canonical_string(&document)).expect("write");
        }
    }
    for suite_name in SUITES {
        if suite_name == "event-fold" {
            for item in folded() {
                let path = fixtures_dir(suite_name).join(format!("{}.json", item.name));
                fs::write(path, to_canonical_string(&fold_fixture(&item))).expect("write");
            }
        }
        for path in fixture_files(suite_name) {
            let document = parse_document(&fs::read_to_string(&path).expect("readable")).expect("parses").value;
            let document =
                with_expected(suite_name, &document).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            fs::write(&path, to_canonical_string(&document)).expect("write");
        }
    }
}
