//! Every kind in the Claude Agent SDK inventory (../shared/protocols) has a
//! display rule: each `SDKMessage` member (every `type`/`subtype` pair), the
//! stdout-only frames, and every assistant and user content block type.
//! A kind with no rule fails the test; a minimal frame of each kind must
//! get the disposition its route promises, and every stream event and
//! delta type feeds the streaming preview.

use crate::common;

use common::protocols::{claude_sdk_inventory, enum_values};
use conform::suite_api::NoTrace;
use conform::suites::claude_display::reference::display;
use conform::suites::claude_display::reference::kinds::{
    ASSISTANT_BLOCKS, BlockRule, ROUTES, Route, USER_BLOCKS, block_rule, route,
};
use serde_json::{Value, json};

/// `type` or `type/subtype` for every member of the message union and the
/// stdout-only frames.
fn message_kinds(inventory: &Value) -> Vec<String> {
    let mut kinds = Vec::new();
    let members = ["sdk_message_union", "stdout_only_frames_in_sdk_types"]
        .iter()
        .flat_map(|key| inventory[*key].as_array().cloned().unwrap_or_default());
    for member in members {
        let fields = &member["fields"];
        let types = enum_values(fields.get("type"));
        if types.is_empty() {
            // The control-protocol entry lists its frame types in its name.
            let name = member["name"].as_str().unwrap_or_default();
            kinds.extend(name.split('/').map(str::to_owned));
            continue;
        }
        let subtypes = enum_values(fields.get("subtype").or_else(|| fields.get("subtype?")));
        for ty in &types {
            if subtypes.is_empty() {
                kinds.push(ty.clone());
            }
            kinds.extend(subtypes.iter().map(|subtype| format!("{ty}/{subtype}")));
        }
    }
    kinds.sort();
    kinds.dedup();
    kinds
}

fn block_types(inventory: &Value, key: &str) -> Vec<String> {
    inventory[key].as_array().into_iter().flatten().flat_map(|block| enum_values(block["fields"].get("type"))).collect()
}

/// A minimal frame of `kind`.
fn frame(kind: &str) -> Value {
    let (ty, subtype) = kind.split_once('/').map_or((kind, None), |(t, s)| (t, Some(s)));
    let mut frame = json!({"type": ty, "uuid": "k-1", "session_id": "s"});
    match (ty, subtype) {
        ("control_request", Some(subtype)) => frame["request"] = json!({"subtype": subtype}),
        (_, Some(subtype)) => frame["subtype"] = Value::from(subtype),
        _ => {}
    }
    frame
}

fn every_sdk_message_kind_is_mapped_or_ignored() {
    let Some(inventory) = claude_sdk_inventory() else { return };
    let kinds = message_kinds(&inventory);
    assert!(kinds.len() >= 45, "the inventory yielded only {} kinds", kinds.len());
    let missing: Vec<&String> = kinds.iter().filter(|kind| route(kind).is_none()).collect();
    assert!(missing.is_empty(), "kinds with no display rule: {missing:?}");
    for kind in &kinds {
        let output = display(&[frame(kind)], &mut NoTrace);
        let disposition = &output["dispositions"][0];
        assert_eq!(disposition["kind"], Value::from(kind.as_str()), "{kind}");
        assert_ne!(disposition["ignored"], Value::from("unknown-kind"), "{kind} reached no rule");
        if let Some(Route::Ignored(reason)) = route(kind) {
            assert_eq!(disposition["ignored"], Value::from(reason), "{kind} is ignored for its documented reason");
        }
    }
    // The table holds nothing the inventory does not name, apart from the
    // frames observed on stdout but typed nowhere.
    let untyped = ["command_lifecycle", "control_request/can_use_tool"];
    for (name, _) in ROUTES {
        assert!(kinds.iter().any(|kind| kind == name) || untyped.contains(name), "{name} is not in the inventory");
    }
}

fn every_content_block_type_has_a_rule() {
    let Some(inventory) = claude_sdk_inventory() else { return };
    for (key, table) in [("assistant_content_blocks", ASSISTANT_BLOCKS), ("user_content_block_params", USER_BLOCKS)] {
        let types = block_types(&inventory, key);
        assert!(!types.is_empty(), "{key} is empty");
        let missing: Vec<&String> = types.iter().filter(|ty| !table.iter().any(|(name, _)| name == ty)).collect();
        assert!(missing.is_empty(), "{key} without a rule: {missing:?}");
        for ty in &types {
            check_block(key == "assistant_content_blocks", ty, block_rule(table, ty));
        }
    }
}

/// Runs a minimal block of type `ty` and checks it lands as its rule says.
fn check_block(assistant: bool, ty: &str, rule: BlockRule) {
    let opener = json!({"type": "server_tool_use", "id": "call-1", "name": "web_search", "input": {}});
    let block = json!({"type": ty, "id": "call-2", "tool_use_id": "call-1", "name": "x", "input": {}, "text": "t"});
    let messages = if assistant {
        vec![
            json!({"type": "assistant", "message": {"id": "m", "content": [opener, block]}, "parent_tool_use_id": null, "uuid": "a"}),
        ]
    } else {
        vec![
            json!({"type": "assistant", "message": {"id": "m", "content": [opener]}, "parent_tool_use_id": null, "uuid": "a"}),
            json!({"type": "user", "message": {"role": "user", "content": [block]}, "parent_tool_use_id": null, "uuid": "u"}),
        ]
    };
    let output = display(&messages, &mut NoTrace);
    let last = messages.len() - 1;
    let targets = output["dispositions"][last]["to"].as_array().cloned().unwrap_or_default();
    let settled = targets.iter().any(|t| t["track"] == "tool-call" && t["toolCallId"] == "call-1");
    let parts: Vec<Value> = output["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|turn| turn["parts"].as_array().cloned().unwrap_or_default())
        .collect();
    let part_types: Vec<&str> = parts.iter().filter_map(|p| p["type"].as_str()).collect();
    let context = format!("{ty} ({}) → {part_types:?}", if assistant { "assistant" } else { "user" });
    match rule {
        BlockRule::SettlesCall => assert!(settled, "{context} should settle call-1"),
        BlockRule::OpensCall => assert_eq!(part_types.iter().filter(|t| **t == "tool-call").count(), 2, "{context}"),
        BlockRule::Text => assert!(part_types.contains(&"text"), "{context}"),
        BlockRule::Reasoning => assert!(part_types.contains(&"reasoning"), "{context}"),
        BlockRule::File | BlockRule::Data => {
            // A minimal block has no source, so files fall back to data too.
            assert!(parts.iter().any(|p| p["type"] == "data" && p["name"] == ty), "{context}");
        }
    }
}

fn every_stream_event_and_delta_feeds_the_preview() {
    let Some(inventory) = claude_sdk_inventory() else { return };
    let events = block_types(&inventory, "stream_event_events");
    assert_eq!(events.len(), 6);
    let start = json!({"type": "stream_event", "event": {"type": "message_start", "message": {"id": "m"}}, "parent_tool_use_id": null, "uuid": "e0"});
    for event in events {
        let body = match event.as_str() {
            "content_block_start" => json!({"type": event, "index": 0, "content_block": {"type": "text", "text": ""}}),
            "content_block_delta" => json!({"type": event, "index": 0, "delta": {"type": "text_delta", "text": "x"}}),
            _ => json!({"type": event, "index": 0, "message": {"id": "m"}}),
        };
        let frame = json!({"type": "stream_event", "event": body, "parent_tool_use_id": null, "uuid": "e1", "api_message_id": "m"});
        let output = display(&[start.clone(), frame], &mut NoTrace);
        assert_eq!(output["dispositions"][1]["to"][0]["track"], "preview", "{event}: {}", output["dispositions"][1]);
    }
    for delta in block_types(&inventory, "stream_event_deltas") {
        let frame = json!({"type": "stream_event", "event": {"type": "content_block_delta", "index": 0, "delta": {"type": delta}}, "uuid": "e1", "api_message_id": "m"});
        let output = display(&[start.clone(), frame], &mut NoTrace);
        assert_eq!(output["dispositions"][1]["to"][0]["track"], "preview", "{delta}: {}", output["dispositions"][1]);
    }
}

crate::trials![
    every_sdk_message_kind_is_mapped_or_ignored,
    every_content_block_type_has_a_rule,
    every_stream_event_and_delta_feeds_the_preview
];
