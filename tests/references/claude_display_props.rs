//! Property tests for the claude-display reference: arbitrary frames never
//! panic, every input frame gets exactly one disposition, dispositions only
//! point at things that exist, every turn and notice comes from some frame,
//! and the output always satisfies the suite schema; a stream cut off after
//! any frame decides its frames as the whole stream does.

use crate::common;

use conform::suite_api::NoTrace;
use conform::suite_api::Suite;
use conform::suites::claude_display::ClaudeDisplay;
use conform::suites::claude_display::reference::kinds::ROUTES;
use conform::suites::claude_display::reference::{display, reference};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema: Value = serde_json::from_str(ClaudeDisplay.schema()).expect("the schema is JSON");
        jsonschema::validator_for(&schema).expect("the schema compiles")
    })
}

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop::sample::select(vec!["user", "assistant", "system", "result", "tool_result", "text", "t1"])
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "type",
                    "subtype",
                    "message",
                    "content",
                    "id",
                    "uuid",
                    "parent_tool_use_id",
                    "tool_use_id",
                    "x"
                ]),
                inner,
                0..6
            )
            .prop_map(|map| Value::Object(map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

const IDS: [&str; 4] = ["t1", "t2", "t3", "t4"];
const TEXTS: [&str; 8] = [
    "hello",
    "<command-name>/widgets</command-name>",
    "<local-command-stdout>x</local-command-stdout>",
    "[Request interrupted by user]",
    "<task-notification><summary>done</summary></task-notification>",
    "<system-reminder>r</system-reminder>",
    "hi <system-reminder>r</system-reminder>",
    "This session is being continued from a previous conversation that ran out of context.",
];

fn maybe<T: std::fmt::Debug + Clone + 'static>(
    strategy: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![Just(None), strategy.prop_map(Some)].boxed()
}

fn id() -> impl Strategy<Value = String> {
    prop::sample::select(IDS.to_vec()).prop_map(str::to_owned)
}

/// A content block of a kind the display model treats specially.
fn block() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec!["Agent", "Task", "Skill", "Bash", "mcp__docs__search"]);
    prop_oneof![
        prop::sample::select(TEXTS.to_vec()).prop_map(|text| json!({"type": "text", "text": text})),
        Just(json!({"type": "thinking", "thinking": "hm", "signature": "s"})),
        (id(), names).prop_map(|(id, name)| json!({"type": "tool_use", "id": id, "name": name, "input": {"skill": "widgets", "description": "d"}})),
        (id(), any::<bool>()).prop_map(|(id, error)| json!({"type": "tool_result", "tool_use_id": id, "content": "out", "is_error": error})),
        id().prop_map(|id| json!({"type": "server_tool_use", "id": id, "name": "web_search", "input": {}})),
        id().prop_map(|id| json!({"type": "web_search_tool_result", "tool_use_id": id, "content": {"type": "web_search_tool_result_error", "error_code": "x"}})),
        id().prop_map(|id| json!({"type": "mcp_tool_use", "id": id, "name": "q", "server_name": "docs", "input": {}})),
        Just(json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA=="}})),
        Just(json!({"type": "mystery"})),
    ]
}

/// A frame shaped like an SDK message, with ids drawn from small pools so
/// that calls, results, parents and tasks meet each other.
fn sdk_frame() -> impl Strategy<Value = Value> {
    let mut any_kind: Vec<&'static str> = ROUTES.iter().map(|(name, _)| *name).collect();
    any_kind.extend(["system/unknown", "mystery"]);
    let lifecycle = vec![
        "system/task_started",
        "system/task_progress",
        "system/task_notification",
        "control_request/can_use_tool",
        "tool_progress",
        "system/permission_denied",
        "system/init",
        "system/task_updated",
        "stream_event",
    ];
    // Conversation frames dominate so that calls, results, parents, tasks
    // and skill bodies meet each other often.
    let kinds = prop_oneof![
        4 => Just("assistant"),
        5 => Just("user"),
        2 => prop::sample::select(lifecycle),
        1 => prop::sample::select(any_kind),
    ];
    let content = prop_oneof![
        prop::sample::select(TEXTS.to_vec()).prop_map(Value::from),
        prop::collection::vec(block(), 0..4).prop_map(Value::from),
    ];
    (
        kinds,
        maybe(prop::sample::select(vec!["u1", "u2", "u3"])),
        maybe(prop_oneof![3 => Just(Value::Null), 3 => id().prop_map(Value::from), 1 => Just(Value::from(5))]),
        (maybe(any::<bool>()), maybe(any::<bool>())),
        (content, maybe(prop::sample::select(vec!["m1", "m2"]))),
        (maybe(id()), maybe(prop::sample::select(vec!["k1", "k2"]))),
        maybe(prop::sample::select(vec!["completed", "failed", "running", "odd"])),
        (maybe(any::<bool>()), maybe(prop::sample::select(vec!["u1", "u2", "u3"])), stream_event()),
    )
        .prop_map(
            |(
                kind,
                uuid,
                parent,
                (synthetic, replay),
                (content, message_id),
                (tool_use_id, task_id),
                status,
                (sidechain, parent_uuid, event),
            )| {
                let (ty, subtype) = kind.split_once('/').map_or((kind, None), |(t, s)| (t, Some(s)));
                let mut frame = Map::new();
                frame.insert("type".into(), Value::from(ty));
                match (ty, subtype) {
                    ("control_request", Some(subtype)) => {
                        frame.insert("request".into(), json!({"subtype": subtype, "tool_use_id": tool_use_id}));
                    }
                    (_, Some(subtype)) => {
                        frame.insert("subtype".into(), Value::from(subtype));
                    }
                    _ => {}
                }
                let optional = [
                    ("uuid", uuid.map(Value::from)),
                    ("parent_tool_use_id", parent),
                    ("isSynthetic", synthetic.map(Value::from)),
                    ("isReplay", replay.map(Value::from)),
                    ("tool_use_id", tool_use_id.map(Value::from)),
                    ("task_id", task_id.map(Value::from)),
                    ("status", status.map(Value::from)),
                    ("isSidechain", sidechain.map(Value::from)),
                    ("parentUuid", parent_uuid.map(Value::from)),
                    ("api_message_id", message_id.map(Value::from)),
                    ("patch", status.map(|status| json!({"status": status}))),
                ];
                for (key, value) in optional {
                    if let Some(value) = value {
                        frame.insert(key.into(), value);
                    }
                }
                frame.insert("message".into(), json!({"id": message_id, "content": content}));
                frame.insert("event".into(), event);
                frame.insert("description".into(), Value::from("step"));
                frame.insert("skills".into(), json!(["widgets"]));
                Value::Object(frame)
            },
        )
}

/// A raw stream event of any kind, naming blocks by small indexes and
/// tool ids from the shared pool.
fn stream_event() -> impl Strategy<Value = Value> {
    let index = 0u64..3;
    prop_oneof![
        prop::sample::select(vec!["m1", "m2"]).prop_map(|id| json!({"type": "message_start", "message": {"id": id}})),
        (index.clone(), block())
            .prop_map(|(index, block)| json!({"type": "content_block_start", "index": index, "content_block": block})),
        (
            index.clone(),
            prop::sample::select(vec![
                json!({"type": "text_delta", "text": "to"}),
                json!({"type": "thinking_delta", "thinking": "hm"}),
                json!({"type": "signature_delta", "signature": "s"}),
                json!({"type": "input_json_delta", "partial_json": "{\"a\""}),
                json!({"type": "citations_delta", "citation": {"type": "web_search_result_location", "url": "u"}}),
                json!({"type": "compaction_delta", "content": "c"}),
                json!({"type": "mystery_delta"}),
            ])
        )
            .prop_map(|(index, delta)| json!({"type": "content_block_delta", "index": index, "delta": delta})),
        index.prop_map(|index| json!({"type": "content_block_stop", "index": index})),
        Just(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})),
        Just(json!({"type": "message_stop"})),
        Just(json!({"type": "mystery"})),
    ]
}

/// Everything reachable in the turn tree: turn id → hosting call id, and
/// the set of tool call ids.
fn tree(turns: &Value, host: Option<&str>, out: &mut (BTreeMap<String, Option<String>>, BTreeSet<String>)) {
    for turn in turns.as_array().into_iter().flatten() {
        let id = turn["id"].as_str().unwrap_or_default().to_owned();
        assert!(out.0.insert(id.clone(), host.map(str::to_owned)).is_none(), "turn id {id} appears twice");
        for part in turn["parts"].as_array().into_iter().flatten() {
            if let Some(call) = part.get("call") {
                let call_id = call["toolCallId"].as_str().unwrap_or_default();
                assert!(out.1.insert(call_id.to_owned()), "call {call_id} appears twice");
                if let Some(transcript) = call.pointer("/subagent/transcript") {
                    tree(transcript, Some(call_id), out);
                }
            }
        }
    }
}

fn check(messages: &[Value]) {
    let output = display(messages, &mut NoTrace);
    let dispositions = output["dispositions"].as_array().expect("dispositions");
    assert_eq!(dispositions.len(), messages.len(), "one disposition per frame");
    let mut reached = (BTreeMap::new(), BTreeSet::new());
    tree(&output["turns"], None, &mut reached);
    let notice_count = output["notices"].as_array().map_or(0, Vec::len);
    let mut turns_targeted = BTreeSet::new();
    let mut notices_targeted = Vec::new();
    for disposition in dispositions {
        if disposition.get("ignored").is_some() {
            continue;
        }
        let targets = disposition["to"].as_array().expect("to or ignored");
        assert!(!targets.is_empty(), "a disposition names where the frame went");
        for target in targets {
            match target["track"].as_str() {
                Some("turn") => {
                    let id = target["turnId"].as_str().unwrap_or_default();
                    let host = reached.0.get(id).unwrap_or_else(|| panic!("turn {id} is not in the tree"));
                    assert_eq!(host.as_deref(), target["parentToolCallId"].as_str(), "turn {id} host");
                    turns_targeted.insert(id.to_owned());
                }
                Some("tool-call") => {
                    let id = target["toolCallId"].as_str().unwrap_or_default();
                    assert!(reached.1.contains(id), "call {id} is not in the tree");
                }
                Some("notice") => {
                    let index = target["index"].as_u64().expect("index") as usize;
                    assert!(index < notice_count, "notice {index} out of range");
                    notices_targeted.push(index);
                }
                Some("snapshot") => assert!(output["snapshot"].is_object(), "snapshot target without a snapshot"),
                // A preview is gone once its final frames arrived, so a
                // target may name one that no longer shows.
                Some("preview") => {}
                other => panic!("unknown track {other:?}"),
            }
        }
    }
    assert_eq!(turns_targeted.len(), reached.0.len(), "every turn comes from a frame");
    notices_targeted.sort_unstable();
    assert_eq!(notices_targeted, (0..notice_count).collect::<Vec<_>>(), "every notice comes from exactly one frame");
    let document = json!({"fixtureVersion": 1, "name": "p", "description": "p", "input": {"messages": messages}, "expected": output});
    let errors: Vec<String> =
        validator().iter_errors(&document).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "schema: {errors:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    fn arbitrary_json_frames_never_panic_and_are_all_accounted_for(
        messages in prop::collection::vec(any_json(), 0..12)
    ) {
        check(&messages);
    }

    fn sdk_shaped_frames_keep_every_invariant(
        messages in prop::collection::vec(sdk_frame(), 0..24)
    ) {
        check(&messages);
    }
}

/// Stream replay for the display model: a recording cut off after any frame
/// (`end: "cut-off"`) decides each of its frames exactly as the whole stream
/// does (a frame's disposition never depends on what follows it), says
/// `unfinished`, and is schema-valid.
fn every_prefix_of_every_fixture_decides_its_frames_as_the_whole_stream_does() {
    let mut prefixes = 0;
    for path in common::own_fixtures("claude-display") {
        let document = common::read_document(&path);
        let input = &document["input"];
        let messages = input["messages"].as_array().cloned().unwrap_or_default();
        let whole = reference(input, &mut NoTrace).expect("the fixture input is valid");
        let whole_dispositions = whole["dispositions"].as_array().cloned().unwrap_or_default();
        for cut in 0..=messages.len() {
            let mut prefix = input.clone();
            prefix["messages"] = Value::from(messages[..cut].to_vec());
            prefix["end"] = Value::from("cut-off");
            let output = reference(&prefix, &mut NoTrace).expect("a prefix is a valid input");
            assert_eq!(output["unfinished"], Value::Bool(true), "{}: prefix {cut}", path.display());
            assert_eq!(
                output["dispositions"].as_array().map(Vec::as_slice),
                Some(&whole_dispositions[..cut]),
                "{}: prefix {cut}",
                path.display()
            );
            let document =
                json!({"fixtureVersion": 1, "name": "p", "description": "p", "input": prefix, "expected": output});
            assert!(validator().is_valid(&document), "{}: prefix {cut} is not schema-valid", path.display());
            prefixes += 1;
        }
    }
    assert!(prefixes > 0);
    eprintln!("checked {prefixes} prefixes");
}

fn a_long_chain_of_nested_agents_is_cut_off_without_overflow() {
    let mut messages = Vec::new();
    let mut parent = Value::Null;
    for depth in 0..500 {
        let id = format!("agent-{depth}");
        messages.push(json!({"type": "assistant", "message": {"id": format!("m{depth}"), "content": [{"type": "tool_use", "id": id, "name": "Agent", "input": {}}]}, "parent_tool_use_id": parent, "uuid": format!("a{depth}")}));
        parent = Value::from(id);
    }
    let output = display(&messages, &mut NoTrace);
    let reasons: Vec<&str> = output["dispositions"]
        .as_array()
        .expect("dispositions")
        .iter()
        .map(|d| d["ignored"].as_str().unwrap_or("shown"))
        .collect();
    // 65 levels (the main thread and 64 nested transcripts) are kept; the
    // next frame is refused and everything below it has no parent call.
    assert!(reasons[..65].iter().all(|r| *r == "shown"));
    assert_eq!(reasons[65], "nesting-too-deep");
    assert!(reasons[66..].iter().all(|r| *r == "unknown-parent-tool-call"));
    check(&messages[..80]);
}

crate::trials![
    arbitrary_json_frames_never_panic_and_are_all_accounted_for,
    sdk_shaped_frames_keep_every_invariant,
    every_prefix_of_every_fixture_decides_its_frames_as_the_whole_stream_does,
    a_long_chain_of_nested_agents_is_cut_off_without_overflow
];
