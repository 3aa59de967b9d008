//! Inventory coverage: every message kind the Claude Agent SDK declares,
//! every notification and server request of the Codex app-server schema,
//! every `codex exec` event and every thread item type has a disposition
//! rule (mapped or explicitly ignored), and appears in at least one fixture.
//!
//! The inventories are read in place from `../shared/protocols`; when that
//! folder is absent the tests say so and pass.

use crate::common;

use common::protocols::{claude_sdk_inventory, enum_values, protocols};
use common::{own_fixtures, read_document};
use conform::suites::agent_events::ItemKind;
use conform::suites::claude_events::reference::kinds::{Role, block_rule, rule as claude_rule};
use conform::suites::codex_app_server_events::reference::methods::rule as method_rule;
use conform::suites::codex_exec_events::reference::rule as exec_rule;
use serde_json::Value;
use std::collections::BTreeSet;

/// The dispositions of every fixture of a suite: (kind, content-block types).
fn fixture_dispositions(suite: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for path in own_fixtures(suite) {
        let document = read_document(&path);
        for disposition in document["expected"]["dispositions"].as_array().into_iter().flatten() {
            let kind = disposition["kind"].as_str().unwrap_or_default().to_owned();
            let blocks = disposition["blocks"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|block| block["type"].as_str().map(str::to_owned))
                .collect();
            out.push((kind, blocks));
        }
    }
    out
}

fn report(inventory: &str, missing_rules: &[String], missing_fixtures: &[String], total: usize) {
    eprintln!(
        "{inventory}: {total} kinds, {} without a rule, {} not in a fixture",
        missing_rules.len(),
        missing_fixtures.len()
    );
    assert!(missing_rules.is_empty(), "{inventory}: kinds with no disposition rule: {missing_rules:?}");
    assert!(missing_fixtures.is_empty(), "{inventory}: kinds no fixture shows: {missing_fixtures:?}");
}

/// Thread item types: each must parse to a known item kind and show in some
/// fixture disposition `<prefix>…/<type>` (item events append the item type).
fn report_item_types(inventory: &str, types: &[String], seen: &[(String, Vec<String>)], prefix: &str) {
    let missing_rules: Vec<String> =
        types.iter().filter(|t| ItemKind::parse(t) == ItemKind::Unknown).cloned().collect();
    let missing_fixtures: Vec<String> = types
        .iter()
        .filter(|t| !seen.iter().any(|(kind, _)| kind.starts_with(prefix) && kind.ends_with(&format!("/{t}"))))
        .cloned()
        .collect();
    report(inventory, &missing_rules, &missing_fixtures, types.len());
}

fn every_claude_sdk_kind_has_a_rule_and_a_fixture() {
    let Some(inventory) = claude_sdk_inventory() else { return };

    let mut kinds = BTreeSet::new();
    let members = inventory["sdk_message_union"].as_array().expect("the SDKMessage union");
    assert_eq!(members.len(), 41, "the 0.3.332 union has 41 members");
    for member in members {
        let fields = &member["fields"];
        for message_type in enum_values(fields.get("type")) {
            if message_type == "stream_event" {
                // Expanded below into its events and deltas.
                continue;
            }
            let subtypes = enum_values(fields.get("subtype"));
            if !subtypes.is_empty() {
                kinds.extend(subtypes.iter().map(|subtype| format!("{message_type}/{subtype}")));
            } else if fields.get("isReplay").is_some() {
                kinds.insert(format!("{message_type}/replay"));
            } else {
                kinds.insert(message_type);
            }
        }
    }
    for frame in inventory["stdout_only_frames_in_sdk_types"].as_array().expect("stdout-only frames") {
        let types = enum_values(frame["fields"].get("type"));
        let names: Vec<String> = if types.is_empty() {
            frame["name"].as_str().unwrap_or_default().split('/').map(str::to_owned).collect()
        } else {
            types
        };
        for name in names {
            if name == "control_request" {
                // The permission prompt maps; the other control requests are ignored.
                kinds.insert("control_request/can_use_tool".to_owned());
                kinds.insert("control_request/mcp_message".to_owned());
            } else {
                kinds.insert(name);
            }
        }
    }
    for event in inventory["stream_event_events"].as_array().expect("stream events") {
        for event_type in enum_values(event["fields"].get("type")) {
            if event_type == "content_block_delta" {
                for delta in inventory["stream_event_deltas"].as_array().expect("deltas") {
                    for delta_type in enum_values(delta["fields"].get("type")) {
                        kinds.insert(format!("stream_event/{event_type}/{delta_type}"));
                    }
                }
            } else {
                kinds.insert(format!("stream_event/{event_type}"));
            }
        }
    }

    let seen = fixture_dispositions("claude-events");
    let seen_kinds: BTreeSet<&str> = seen.iter().map(|(kind, _)| kind.as_str()).collect();
    let missing_rules: Vec<String> = kinds.iter().filter(|kind| claude_rule(kind).is_none()).cloned().collect();
    let missing_fixtures: Vec<String> =
        kinds.iter().filter(|kind| !seen_kinds.contains(kind.as_str())).cloned().collect();
    report("claude-agent-sdk 0.3.332 messages and frames", &missing_rules, &missing_fixtures, kinds.len());

    for (section, role, message_kind) in
        [("assistant_content_blocks", Role::Assistant, "assistant"), ("user_content_block_params", Role::User, "user")]
    {
        let blocks: BTreeSet<String> = inventory[section]
            .as_array()
            .expect("block inventory")
            .iter()
            .flat_map(|block| enum_values(block["fields"].get("type")))
            .collect();
        let seen_blocks: BTreeSet<&str> = seen
            .iter()
            .filter(|(kind, _)| kind == message_kind)
            .flat_map(|(_, blocks)| blocks.iter().map(String::as_str))
            .collect();
        let missing_rules: Vec<String> = blocks.iter().filter(|b| block_rule(role, b).is_none()).cloned().collect();
        let missing_fixtures: Vec<String> =
            blocks.iter().filter(|b| !seen_blocks.contains(b.as_str())).cloned().collect();
        report(&format!("claude {section}"), &missing_rules, &missing_fixtures, blocks.len());
    }
}

/// The `method` enum values of a schema's `oneOf` variants.
fn schema_methods(schema: &Value) -> Vec<String> {
    schema["oneOf"]
        .as_array()
        .expect("oneOf")
        .iter()
        .flat_map(|variant| enum_values(variant["properties"].get("method")))
        .collect()
}

/// Whether a fixture disposition kind shows `method` (item notifications
/// append the item type: `item/completed/agentMessage`).
fn shows(kind: &str, method: &str) -> bool {
    kind == method || kind.strip_prefix(method).is_some_and(|rest| rest.starts_with('/') && method.starts_with("item/"))
}

fn every_app_server_method_and_item_type_has_a_rule_and_a_fixture() {
    let Some(protocols) = protocols() else { return };
    let stable = protocols.join("codex-app-server/stable");
    let notifications = schema_methods(&read_document(&stable.join("ServerNotification.json")));
    let requests = schema_methods(&read_document(&stable.join("ServerRequest.json")));
    assert_eq!(
        (notifications.len(), requests.len()),
        (87, 10),
        "codex-cli 0.171 declares 87 notifications and 10 requests"
    );

    let seen = fixture_dispositions("codex-app-server-events");
    for (name, methods) in [("notifications", &notifications), ("server requests", &requests)] {
        let missing_rules: Vec<String> = methods.iter().filter(|m| method_rule(m).is_none()).cloned().collect();
        let missing_fixtures: Vec<String> =
            methods.iter().filter(|m| !seen.iter().any(|(kind, _)| shows(kind, m))).cloned().collect();
        report(&format!("codex app-server 0.171 {name}"), &missing_rules, &missing_fixtures, methods.len());
    }

    let bundle = read_document(&stable.join("codex_app_server_protocol.v2.schemas.json"));
    let item_types: Vec<String> = bundle["definitions"]["ThreadItem"]["oneOf"]
        .as_array()
        .expect("ThreadItem variants")
        .iter()
        .flat_map(|variant| enum_values(variant["properties"].get("type")))
        .collect();
    assert_eq!(item_types.len(), 19, "codex-cli 0.171 declares 19 thread item types");
    report_item_types("codex app-server 0.171 thread items", &item_types, &seen, "item/");
}

fn every_exec_event_and_item_type_has_a_rule_and_a_fixture() {
    let Some(protocols) = protocols() else { return };
    let inventory = read_document(&protocols.join("codex-exec/exec-json-events-inventory-sdk-0.163.0.json"));
    let seen = fixture_dispositions("codex-exec-events");

    let events: Vec<String> = inventory["thread_events"]
        .as_array()
        .expect("thread events")
        .iter()
        .flat_map(|event| enum_values(event["fields"].get("type")))
        .collect();
    let missing_rules: Vec<String> = events.iter().filter(|e| exec_rule(e).is_none()).cloned().collect();
    let missing_fixtures: Vec<String> = events
        .iter()
        .filter(|e| !seen.iter().any(|(kind, _)| kind == *e || kind.starts_with(&format!("{e}/"))))
        .cloned()
        .collect();
    report("codex exec (sdk 0.163) events", &missing_rules, &missing_fixtures, events.len());

    let items: Vec<String> = inventory["thread_items"]
        .as_array()
        .expect("thread items")
        .iter()
        .flat_map(|item| enum_values(item["fields"].get("type")))
        .collect();
    report_item_types("codex exec (sdk 0.163) items", &items, &seen, "item.");
}

fn unknown_kinds_have_no_rule() {
    // The checks above mean something only if the lookups can say no.
    assert!(claude_rule("system/teleported").is_none());
    assert!(block_rule(Role::Assistant, "hologram").is_none());
    assert!(method_rule("thread/teleported").is_none());
    assert!(exec_rule("thread.teleported").is_none());
    assert_eq!(ItemKind::parse("hologram"), ItemKind::Unknown);
}

crate::trials![
    every_claude_sdk_kind_has_a_rule_and_a_fixture,
    every_app_server_method_and_item_type_has_a_rule_and_a_fixture,
    every_exec_event_and_item_type_has_a_rule_and_a_fixture,
    unknown_kinds_have_no_rule
];
