//! `conform decode` and `conform adapter` on chat input outside the fixture
//! schema are the web pipeline: a row that is not an object is read as a row
//! without members (its block has no localId, as a row without one), a row's non-string id, non-number createdAt and
//! non-string localId are copied as they are, and request entries that are
//! not objects still make permissions. A `null` row (on which the web
//! pipeline throws) is dropped.

use crate::common;

use common::Conform;
use serde_json::{Value, json};

fn input() -> Value {
    json!({
        "messages": [
            0,
            null,
            {},
            {"id": 7, "createdAt": "late", "localId": 3, "content": {"role": "user", "content": "hi"}},
            {"id": "m1", "localId": null, "createdAt": 5, "content": {"role": "agent", "content": {"type": "codex",
                "data": {"type": "tool-call", "callId": "req-done", "name": "CodexBash", "input": {"command": "ls"}}}}}
        ],
        "agentState": {"requests": {"req-pending": 5}, "completedRequests": {"req-done": "approved"}}
    })
}

fn expected_blocks() -> Value {
    json!([
        {"kind": "agent-text", "id": "undefined:0", "text": "undefined"},
        {"kind": "agent-text", "id": "undefined:0", "text": "undefined"},
        {"kind": "user-text", "id": 7, "createdAt": "late", "localId": 3, "text": "hi"},
        {"kind": "tool-call", "id": "req-done", "createdAt": 5, "localId": null,
         "tool": {"id": "req-done", "name": "CodexBash", "state": "running", "input": {"command": "ls"}, "permission": {}}}
    ])
}

fn decode_is_the_web_pipeline_outside_the_fixture_schema() {
    let output = Conform::new(&["decode", "--suite", "chat", "-"]).stdin(input().to_string().as_bytes()).run();
    assert!(output.success(), "{}", output.text());
    let decoded: Value = serde_json::from_str(&output.stdout).expect("decode prints JSON");
    let mut blocks = decoded["blocks"].as_array().cloned().unwrap_or_default();
    // The pending request whose entry is not an object: `{status: "pending"}`,
    // stamped with the wall clock (its createdAt is undefined).
    let synthesized = blocks.pop().expect("a synthesized card");
    assert_eq!(synthesized["id"], "req-pending");
    assert_eq!(synthesized["tool"]["permission"], json!({"status": "pending"}));
    assert!(synthesized["createdAt"].as_f64().is_some_and(|time| time > 1.7e12), "{synthesized}");
    assert_eq!(Value::Array(blocks), expected_blocks());
}

fn the_adapter_answers_the_same() {
    let lines = [
        json!({"op": "hello", "protocol": "1.0.0", "harness": {"name": "test", "version": "0"}}),
        json!({"op": "run", "id": 1, "suite": "chat", "fixture": "outside", "fixtureVersion": 1,
               "input": {"messages": input()["messages"], "agentState": input()["agentState"],
                         "options": {"hasMoreMessages": false}}}),
        json!({"op": "bye"}),
    ];
    let stdin: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let output = Conform::new(&["adapter"]).stdin(stdin.as_bytes()).run();
    assert!(output.success(), "{}", output.text());
    let reply: Value = output
        .stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|reply| reply["id"] == 1)
        .expect("a reply to the run");
    let blocks = reply["output"]["blocks"].as_array().cloned().unwrap_or_default();
    assert_eq!(Value::Array(blocks[..4].to_vec()), expected_blocks(), "{reply}");
}

crate::trials![decode_is_the_web_pipeline_outside_the_fixture_schema, the_adapter_answers_the_same];
