//! Document shapes per fixtureVersion: `schemas/chat.v2.schema.json` differs
//! from `schemas/chat.schema.json` exactly where v2.md §2.3 says the chat
//! shape changed, and each version's documents are checked against their
//! own shape (a version 1 document cannot use a version 2 member, and the
//! reverse); the sse shape is shared by both versions (v2.md M3).

use crate::common;

use common::{load_documents, read_document, root};
use conform::fixture::FixtureStatus;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// JSON pointers below which two documents differ: a member only one side
/// has, a scalar that differs, or an array whose length differs.
fn differing(a: &Value, b: &Value, pointer: String, out: &mut BTreeSet<String>) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let below = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(a), Some(b)) => differing(a, b, below, out),
                    _ => {
                        out.insert(below);
                    }
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (a, b)) in a.iter().zip(b).enumerate() {
                differing(a, b, format!("{pointer}/{index}"), out);
            }
        }
        (a, b) if a == b => {}
        _ => {
            out.insert(pointer);
        }
    }
}

fn the_version_2_chat_schema_differs_only_where_the_shape_changed() {
    let v1 = read_document(&root().join("schemas/chat.schema.json"));
    let v2 = read_document(&root().join("schemas/chat.v2.schema.json"));
    let mut found = BTreeSet::new();
    differing(&v1, &v2, String::new(), &mut found);
    let attachment = "/$defs/userText/properties/attachments";
    let expected: BTreeSet<String> = [
        "/$id".to_owned(),
        "/title".to_owned(),
        "/description".to_owned(),
        "/$defs/input/properties/agentState/description".to_owned(),
        format!("{attachment}/description"),
        format!("{attachment}/items/required"),
        format!("{attachment}/items/anyOf"),
        format!("{attachment}/items/properties/path/description"),
        format!("{attachment}/items/properties/attachmentId"),
        "/$defs/permission/properties/status/enum".to_owned(),
        "/$defs/displayLinks".to_owned(),
        "/$defs/block/properties/kind/enum".to_owned(),
        "/$defs/block/allOf".to_owned(),
        "/$defs/visibleBlock/properties/kind/enum".to_owned(),
        "/$defs/visibleBlock/allOf".to_owned(),
    ]
    .into_iter()
    .collect();
    assert_eq!(found, expected);
}

/// A chat document of `version` whose only block is `block`.
fn chat_with_block(name: &str, version: u64, block: Value) -> Value {
    json!({"fixtureVersion": version, "name": name, "description": "d",
        "input": {"messages": [], "agentState": null, "options": {"hasMoreMessages": false}},
        "expected": {"blocks": [block.clone()], "hasReadyEvent": false, "latestUsage": null, "visibleBlocks": [block]}})
}

fn invalid_ids(corpus: &conform::fixture::Corpus) -> BTreeSet<String> {
    corpus
        .fixtures
        .iter()
        .filter(|fixture| matches!(fixture.status, FixtureStatus::Invalid(_)))
        .map(|fixture| fixture.name.clone())
        .collect()
}

fn each_version_is_checked_against_its_own_chat_shape() {
    let user = |attachment: Value| json!({"kind": "user-text", "id": "u", "createdAt": 1, "localId": null, "text": "t", "attachments": [attachment]});
    let durable = json!({"id": "a", "filename": "f", "mimeType": "x", "size": 1, "attachmentId": "hub-1"});
    let neither = json!({"id": "a", "filename": "f", "mimeType": "x", "size": 1});
    let links = json!({"kind": "display-links", "id": "d:0", "createdAt": 1, "localId": null, "urls": []});
    let resolved = json!({"kind": "tool-call", "id": "t", "createdAt": 1, "localId": null,
        "tool": {"id": "t", "name": "x", "state": "running", "permission": {"status": "resolved"}}});
    let documents = [
        chat_with_block("v1-durable", 1, user(durable.clone())),
        chat_with_block("v2-durable", 2, user(durable)),
        chat_with_block("v2-no-reference", 2, user(neither)),
        chat_with_block("v1-links", 1, links.clone()),
        chat_with_block("v2-links", 2, links.clone()),
        chat_with_block(
            "v2-links-without-urls",
            2,
            json!({"kind": "display-links", "id": "d:0", "createdAt": 1, "localId": null}),
        ),
        chat_with_block(
            "v2-links-empty-texts",
            2,
            json!({"kind": "display-links", "id": "d:0", "createdAt": 1, "localId": null, "urls": [], "texts": []}),
        ),
        chat_with_block("v1-resolved", 1, resolved.clone()),
        chat_with_block("v2-resolved", 2, resolved),
    ];
    let corpus = load_documents("chat", documents.iter());
    let expected: BTreeSet<String> =
        ["v1-durable", "v2-no-reference", "v1-links", "v2-links-without-urls", "v2-links-empty-texts", "v1-resolved"]
            .into_iter()
            .map(str::to_owned)
            .collect();
    assert_eq!(invalid_ids(&corpus), expected);
}

fn a_version_1_sse_document_may_carry_the_reply_clock_but_typed() {
    let fixture = read_document(&root().join("fixtures/sse/reply-clock-in-a-version-1-document.json"));
    assert_eq!(fixture["fixtureVersion"], 1);
    let mut mistyped = fixture.clone();
    mistyped["name"] = json!("mistyped-clock");
    mistyped["patches"][0]["lastAssistantMessageVersion"] = json!("8");
    let mut unknown = fixture.clone();
    unknown["name"] = json!("unknown-member");
    unknown["patches"][0]["lastAssistantMessageSeen"] = json!(true);
    let corpus = load_documents("sse", [&fixture, &mistyped, &unknown]);
    let expected: BTreeSet<String> = ["mistyped-clock", "unknown-member"].into_iter().map(str::to_owned).collect();
    assert_eq!(invalid_ids(&corpus), expected);
}

crate::trials![
    the_version_2_chat_schema_differs_only_where_the_shape_changed,
    each_version_is_checked_against_its_own_chat_shape,
    a_version_1_sse_document_may_carry_the_reply_clock_but_typed
];
