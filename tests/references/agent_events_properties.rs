//! Properties of the agent-runtime references:
//!
//! - arbitrary frames (random JSON, and real fixture frames with random
//!   parts replaced) never make a normalizer, the fold or the policy panic,
//!   and a normalizer always returns a schema-valid expected part with one
//!   disposition per input item, each event claimed by at most one item;
//! - feeding a stream in pieces, split at any frame boundary, gives the same
//!   events and dispositions as feeding it whole;
//! - the fold's live and replay paths agree for any row order when rows
//!   carry increasing sequence numbers, and its messages are schema-valid;
//! - a deny pattern anywhere in a command denies it in both policy modes.

use crate::common;

use common::{own_fixtures, read_document};
use conform::suite_api::NoTrace;
use conform::suites::agent_events::StreamOutput;
use conform::suites::claude_events::reference::{self as claude_events, ClaudeNormalizer, End};
use conform::suites::codex_app_server_events::reference::{self as codex_app_server_events, AppServerNormalizer};
use conform::suites::codex_exec_events::reference::{self as codex_exec_events, ExecNormalizer};
use conform::suites::{event_fold::reference as event_fold, tool_policy::reference as tool_policy};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

const KEYS: &[&str] = &[
    "type",
    "subtype",
    "message",
    "content",
    "text",
    "thinking",
    "id",
    "name",
    "input",
    "tool_use_id",
    "is_error",
    "parent_tool_use_id",
    "session_id",
    "result",
    "request",
    "request_id",
    "response",
    "behavior",
    "event",
    "delta",
    "method",
    "params",
    "item",
    "itemId",
    "threadId",
    "thread",
    "parentThreadId",
    "turn",
    "status",
    "error",
    "willRetry",
    "command",
    "aggregatedOutput",
    "exitCode",
    "decision",
    "client",
    "requestId",
    "data",
    "subagent_id",
    "subagent_spawn",
    "tool",
    "output",
    "file_path",
    "pattern",
    "done",
    "ts",
    "seq",
    "allowed",
    "tool_name",
    "isReplay",
    "thread_id",
    "summary",
    "changes",
    "arguments",
    "callId",
    "agent_id",
];

const WORDS: &[&str] = &[
    "system",
    "init",
    "assistant",
    "user",
    "result",
    "success",
    "error_max_turns",
    "tool_use",
    "tool_result",
    "text",
    "thinking",
    "control_request",
    "can_use_tool",
    "control_response",
    "allow",
    "deny",
    "Task",
    "Agent",
    "Bash",
    "Read",
    "Glob",
    "Grep",
    "thread/started",
    "turn/started",
    "turn/completed",
    "item/started",
    "item/completed",
    "item/agentMessage/delta",
    "commandExecution",
    "agentMessage",
    "reasoning",
    "error",
    "serverRequest/resolved",
    "item/commandExecution/requestApproval",
    "accept",
    "decline",
    "failed",
    "interrupted",
    "inProgress",
    "completed",
    "thread.started",
    "turn.started",
    "turn.failed",
    "item.started",
    "item.completed",
    "command_execution",
    "agent_message",
    "delta",
    "tool_start",
    "user_message",
    "bash -lc 'cat x'",
    "ls",
    "",
    "t1",
    "thr_main",
    "2026-11-29T17:23:45.000Z",
    "{\"type\":\"system\"",
    "stream_event",
    "content_block_delta",
    "Reconnecting... 1/5",
];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..200).prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        prop::sample::select(WORDS).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

/// Every input item of every fixture of a suite, as real frames to mutate.
fn corpus_items(suite: &str, key: &str) -> Vec<Vec<Value>> {
    own_fixtures(suite).iter().filter_map(|path| read_document(path)["input"][key].as_array().cloned()).collect()
}

static CLAUDE: LazyLock<Vec<Vec<Value>>> = LazyLock::new(|| corpus_items("claude-events", "messages"));
/// How each `claude-events` fixture stream ended and whether it is a session
/// transcript (in `CLAUDE`'s order), so that cut-off streams are replayed as
/// cut off and transcripts as transcripts.
static CLAUDE_ENDS: LazyLock<Vec<(End, bool)>> = LazyLock::new(|| {
    own_fixtures("claude-events")
        .iter()
        .map(|path| read_document(path))
        .filter(|document| document["input"]["messages"].is_array())
        .map(|document| {
            let end = End::parse(&document["input"]["end"]).expect("a fixture's end parses");
            (end, document["input"]["source"] == "transcript")
        })
        .collect()
});
static APP: LazyLock<Vec<Vec<Value>>> = LazyLock::new(|| corpus_items("codex-app-server-events", "frames"));
static EXEC: LazyLock<Vec<Vec<Value>>> = LazyLock::new(|| corpus_items("codex-exec-events", "lines"));

fn flat(streams: &[Vec<Value>]) -> Vec<Value> {
    streams.iter().flatten().cloned().collect()
}

static CLAUDE_FRAMES: LazyLock<Vec<Value>> = LazyLock::new(|| flat(&CLAUDE));
static APP_FRAMES: LazyLock<Vec<Value>> = LazyLock::new(|| flat(&APP));
static EXEC_FRAMES: LazyLock<Vec<Value>> = LazyLock::new(|| flat(&EXEC));

/// Replaces the part of `value` that `path` leads to (each step picks a
/// child by index modulo the child count) with `replacement`.
fn mutate(value: &mut Value, path: &[usize], replacement: Value) {
    let is_container = match value {
        Value::Object(object) => !object.is_empty(),
        Value::Array(array) => !array.is_empty(),
        _ => false,
    };
    let Some((&step, rest)) = path.split_first().filter(|_| is_container) else {
        *value = replacement;
        return;
    };
    let child = match value {
        Value::Object(object) => {
            let len = object.len();
            object.values_mut().nth(step % len)
        }
        Value::Array(array) => {
            let len = array.len();
            array.get_mut(step % len)
        }
        _ => None,
    };
    if let Some(child) = child {
        mutate(child, rest, replacement);
    }
}

fn mutated_stream(frames: &'static [Value]) -> impl Strategy<Value = Vec<Value>> {
    let count = frames.len().max(1);
    prop::collection::vec((0..count, prop::collection::vec(0usize..8, 0..6), arb_json()), 1..8).prop_map(move |picks| {
        picks
            .into_iter()
            .filter_map(|(index, path, replacement)| {
                let mut frame = frames.get(index)?.clone();
                mutate(&mut frame, &path, replacement);
                Some(frame)
            })
            .collect()
    })
}

/// One disposition per item; every event index is in range and claimed by
/// at most one item (the Claude final `result` belongs to an earlier result
/// frame, so indexes need not increase across items).
fn check_output(output: &StreamOutput, items: usize) -> Result<(), TestCaseError> {
    prop_assert_eq!(output.dispositions.len(), items);
    check_schema(output)?;
    let mut claimed = vec![false; output.events.len()];
    for disposition in &output.dispositions {
        if let conform::suites::agent_events::ItemFate::Events(indexes) = &disposition.outcome {
            prop_assert!(!indexes.is_empty());
            for &index in indexes {
                let slot = claimed.get_mut(index);
                prop_assert!(
                    slot.as_ref().is_some_and(|taken| !**taken),
                    "event {} out of range or claimed twice",
                    index
                );
                if let Some(slot) = slot {
                    *slot = true;
                }
            }
        }
    }
    Ok(())
}

/// A validator for the expected part (`$defs/normalized`) of a suite schema.
fn normalized_validator(suite: &str) -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(conform::suites::find(suite).expect("registered").schema()).expect("schema");
    let part = json!({"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/normalized"});
    jsonschema::validator_for(&part).expect("schema compiles")
}

static NORMALIZED: LazyLock<jsonschema::Validator> = LazyLock::new(|| normalized_validator("claude-events"));

/// A validator for the `event-fold` expected part (`properties/expected`).
static MESSAGES: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value =
        serde_json::from_str(conform::suites::find("event-fold").expect("registered").schema()).expect("schema");
    let mut part = schema["properties"]["expected"].clone();
    part["$schema"] = schema["$schema"].clone();
    part["$defs"] = schema["$defs"].clone();
    jsonschema::validator_for(&part).expect("schema compiles")
});

/// The output is a schema-valid expected part.
fn check_schema(output: &StreamOutput) -> Result<(), TestCaseError> {
    let value = output.to_value();
    let errors: Vec<String> = NORMALIZED.iter_errors(&value).map(|e| format!("{e} at {}", e.instance_path())).collect();
    prop_assert!(errors.is_empty(), "{:?}", errors);
    Ok(())
}

fn claude(items: &[Value], split: &[usize]) -> StreamOutput {
    claude_ending(items, split, &End::Completed)
}

fn claude_ending(items: &[Value], split: &[usize], end: &End) -> StreamOutput {
    claude_source(items, split, end, false)
}

fn claude_source(items: &[Value], split: &[usize], end: &End, transcript: bool) -> StreamOutput {
    let mut normalizer =
        if transcript { ClaudeNormalizer::for_transcript("session-1") } else { ClaudeNormalizer::new("session-1") };
    for piece in pieces(items, split) {
        normalizer.feed(piece, &mut NoTrace);
    }
    normalizer.finish(end, &mut NoTrace)
}

fn app(items: &[Value], split: &[usize]) -> StreamOutput {
    let mut normalizer = AppServerNormalizer::new(None);
    for piece in pieces(items, split) {
        normalizer.feed(piece, &mut NoTrace);
    }
    normalizer.finish()
}

fn exec(items: &[Value], split: &[usize]) -> StreamOutput {
    let mut normalizer = ExecNormalizer::new(None);
    for piece in pieces(items, split) {
        normalizer.feed(piece, &mut NoTrace);
    }
    normalizer.finish()
}

/// `items` cut at the given boundaries (sorted, clamped, duplicates give
/// empty pieces, which must be harmless too).
fn pieces<'a>(items: &'a [Value], split: &[usize]) -> Vec<&'a [Value]> {
    let mut cuts: Vec<usize> = split.iter().map(|&cut| cut.min(items.len())).collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    for cut in cuts {
        out.push(items.get(start..cut).unwrap_or(&[]));
        start = cut;
    }
    out.push(items.get(start..).unwrap_or(&[]));
    out
}

fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, ..Config::default() }
}

proptest! {
    #![proptest_config(config(192))]

    fn arbitrary_frames_never_panic(items in prop::collection::vec(arb_json(), 0..8), end in arb_json(), policy in arb_json()) {
        check_output(&claude(&items, &[]), items.len())?;
        check_output(&app(&items, &[]), items.len())?;
        check_output(&exec(&items, &[]), items.len())?;
        for input in [
            json!({"sessionId": "s", "messages": items.clone(), "end": end.clone()}),
            json!({"frames": items.clone(), "sessionId": end.clone()}),
        ] {
            let _ = claude_events::run(&input, &mut NoTrace);
            let _ = codex_app_server_events::run(&input, &mut NoTrace);
        }
        let _ = codex_exec_events::run(&json!({"lines": items.clone()}), &mut NoTrace);
        let _ = event_fold::run(&json!({"events": items.clone()}), &mut NoTrace);
        let _ = tool_policy::run(&policy, &mut NoTrace);
    }

    fn mutated_claude_frames_never_panic(items in mutated_stream(&CLAUDE_FRAMES)) {
        check_output(&claude(&items, &[]), items.len())?;
    }

    fn mutated_app_server_frames_never_panic(items in mutated_stream(&APP_FRAMES)) {
        check_output(&app(&items, &[]), items.len())?;
    }

    fn mutated_exec_lines_never_panic(items in mutated_stream(&EXEC_FRAMES)) {
        check_output(&exec(&items, &[]), items.len())?;
    }

    fn feeding_in_random_pieces_changes_nothing(
        stream in 0usize..64,
        cuts in prop::collection::vec(0usize..200, 0..6),
    ) {
        if let Some(items) = CLAUDE.get(stream % CLAUDE.len().max(1)) {
            prop_assert_eq!(claude(items, &cuts), claude(items, &[]));
        }
        if let Some(items) = APP.get(stream % APP.len().max(1)) {
            prop_assert_eq!(app(items, &cuts), app(items, &[]));
        }
        if let Some(items) = EXEC.get(stream % EXEC.len().max(1)) {
            prop_assert_eq!(exec(items, &cuts), exec(items, &[]));
        }
    }
}

fn arb_fold_event() -> impl Strategy<Value = Value> {
    let types = prop::sample::select(
        &[
            "user_message",
            "delta",
            "thinking",
            "tool_start",
            "tool_result",
            "permission_request",
            "permission_resolved",
            "error",
            "result",
            "done",
            "session_ready",
        ][..],
    );
    let ids = prop::sample::select(&["t1", "t2", "t3"][..]);
    let subagents = prop::option::of(prop::sample::select(&["t1", "t2", "thr_child"][..]));
    (types, ids, subagents, any::<bool>(), prop::sample::select(&["a", "b\n", "", "Bash", "Read"][..])).prop_map(
        |(event_type, id, subagent, flag, text)| {
            let mut data = Map::new();
            data.insert("text".to_owned(), json!(text));
            data.insert("tool_use_id".to_owned(), json!(id));
            data.insert("tool".to_owned(), json!(text));
            data.insert("tool_name".to_owned(), json!(text));
            data.insert("output".to_owned(), json!(text));
            data.insert("is_error".to_owned(), json!(flag));
            data.insert("allowed".to_owned(), json!(flag));
            data.insert("done".to_owned(), json!(flag));
            data.insert("message".to_owned(), json!(text));
            if flag && event_type == "tool_start" {
                data.insert("subagent_spawn".to_owned(), json!(true));
            }
            if let Some(subagent) = subagent {
                data.insert("subagent_id".to_owned(), json!(subagent));
            }
            json!({"type": event_type, "data": data})
        },
    )
}

proptest! {
    #![proptest_config(config(128))]

    fn live_and_replay_agree_for_any_row_order(
        events in prop::collection::vec(arb_fold_event(), 0..24),
        per_ms in 1usize..6,
        order in Just(()).prop_perturb(|_, mut rng| rng.random::<u64>()),
    ) {
        let n = events.len();
        let rows: Vec<Value> = events
            .into_iter()
            .enumerate()
            .map(|(i, mut event)| {
                event["ts"] = json!(format!("2026-11-29T17:23:45.{:03}Z", i / per_ms));
                event["seq"] = json!(i + 1);
                event
            })
            .collect();
        let mut replay: Vec<usize> = (0..n).collect();
        let mut state = order;
        for i in (1..n).rev() {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            replay.swap(i, usize::try_from((state >> 33) % (i as u64 + 1)).unwrap_or(0));
        }
        let result = event_fold::run(&json!({"events": rows, "replayOrder": replay}), &mut NoTrace);
        prop_assert!(result.is_ok(), "{:?}", result.as_ref().err());
        if let Ok(messages) = &result {
            let errors: Vec<String> = MESSAGES.iter_errors(messages).map(|e| format!("{e} at {}", e.instance_path())).collect();
            prop_assert!(errors.is_empty(), "{:?}", errors);
        }
    }

    fn a_deny_pattern_anywhere_denies(prefix in "\\PC{0,20}", suffix in "\\PC{0,20}", denied in prop::sample::select(&[
        "sudo reboot", "rm -rf /", "git reset --hard", "chmod 777 x", "shutdown now", "kill 1", "pkill node",
    ][..])) {
        for mode in ["planner", "implementation"] {
            let command = format!("{prefix} ; {denied} {suffix}");
            let decision = tool_policy::run(&json!({"tool": "Bash", "command": command, "mode": mode}), &mut NoTrace);
            prop_assert_eq!(decision, Ok(json!({"allowed": false, "reason": "Denied"})));
        }
    }
}

fn every_split_point_of_every_fixture_stream_gives_the_same_output() {
    let mut splits = 0;
    assert_eq!(CLAUDE.len(), CLAUDE_ENDS.len());
    assert!(CLAUDE_ENDS.iter().any(|(end, _)| *end == End::CutOff), "the corpus holds cut-off streams");
    assert!(CLAUDE_ENDS.iter().any(|(_, transcript)| *transcript), "the corpus holds session transcripts");
    for (items, (end, transcript)) in CLAUDE.iter().zip(CLAUDE_ENDS.iter()) {
        let whole = claude_source(items, &[], end, *transcript);
        for cut in 0..=items.len() {
            assert_eq!(claude_source(items, &[cut], end, *transcript), whole);
            splits += 1;
        }
    }
    for items in APP.iter() {
        let whole = app(items, &[]);
        for cut in 0..=items.len() {
            assert_eq!(app(items, &[cut]), whole);
            splits += 1;
        }
    }
    for items in EXEC.iter() {
        let whole = exec(items, &[]);
        for cut in 0..=items.len() {
            assert_eq!(exec(items, &[cut]), whole);
            splits += 1;
        }
    }
    eprintln!("checked {splits} split points");
    assert!(splits > 0 || CLAUDE.is_empty());
}

fn deep_values_pass_through_every_reference_on_the_worker_stack() {
    // References run on the harness's worker stack, as `conform run` runs them.
    let deep = format!("{}1{}", "[".repeat(9_990), "]".repeat(9_990));
    let inputs = [
        format!(
            r#"{{"sessionId": "s", "end": "completed", "messages": [
                {{"type": "assistant", "message": {{"content": [{{"type": "tool_use", "id": {deep}, "name": "Read", "input": {{"file_path": {deep}}}}}]}}}},
                {{"type": "user", "message": {{"content": [{{"type": "tool_result", "tool_use_id": "t", "content": {deep}}}]}}}}]}}"#
        ),
        format!(
            r#"{{"frames": [{{"method": "item/completed", "params": {{"item": {{"type": "mcpToolCall", "id": {deep}, "tool": "t", "arguments": {deep}}}}}}},
                {{"method": "item/commandExecution/requestApproval", "id": {deep}, "params": {{"command": {deep}}}}},
                {{"client": {{"id": {deep}, "result": {{"decision": {deep}}}}}}}]}}"#
        ),
        format!(
            r#"{{"lines": [{{"type": "item.completed", "item": {{"type": "function_call", "id": "f", "arguments": {deep}}}}}]}}"#
        ),
        format!(
            r#"{{"events": [{{"type": "tool_start", "data": {{"tool_use_id": {deep}, "tool": "Read", "input": {deep}}}}},
                {{"type": "tool_result", "data": {{"tool_use_id": {deep}, "output": {deep}}}}}]}}"#
        ),
    ];
    let runs: [conform::suite_api::ReferenceFn; 4] =
        [claude_events::run, codex_app_server_events::run, codex_exec_events::run, event_fold::run];
    for (text, run) in inputs.into_iter().zip(runs) {
        let written = std::thread::Builder::new()
            .stack_size(conform::run::WORKER_STACK_BYTES)
            .spawn(move || {
                let input = conform::json::parse_value(&text).expect("parses");
                // Compact, not canonical: indenting 10,000 levels is quadratic in size.
                run(&input, &mut NoTrace).map(|output| conform::json::to_compact_string(&output).len())
            })
            .expect("spawns")
            .join()
            .expect("no panic");
        assert!(written.is_ok_and(|len| len > 9_990), "the deep values are carried into the output");
    }
}

crate::trials![
    arbitrary_frames_never_panic,
    mutated_claude_frames_never_panic,
    mutated_app_server_frames_never_panic,
    mutated_exec_lines_never_panic,
    feeding_in_random_pieces_changes_nothing,
    live_and_replay_agree_for_any_row_order,
    a_deny_pattern_anywhere_denies,
    every_split_point_of_every_fixture_stream_gives_the_same_output,
    deep_values_pass_through_every_reference_on_the_worker_stack
];
