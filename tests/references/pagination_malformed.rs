//! Broken pagination documents are `invalid` with a message that says what
//! is wrong, and the reference never panics on them.

use crate::common;

use common::load_documents;
use conform::fixture::FixtureStatus;
use conform::json;
use conform::suite_api::NoTrace;
use conform::suites::pagination::reference::reference;
use serde_json::{Value, json};

/// A small valid document: a latest page, then a fetch-older with one page.
fn valid_document(name: &str) -> Value {
    let row = json!({"id": "a-1", "seq": 1, "localId": null, "createdAt": 1000, "invokedAt": 1000,
        "content": {"role": "agent", "content": {"type": "codex", "data": {"type": "message", "message": "m"}}}});
    let page = |direction: &str, has_more: bool| {
        json!({"messages": [row.clone()], "page": {"direction": direction, "limit": 200, "epoch": 0, "reset": false,
            "hasMore": has_more, "nextBeforeAt": 1000, "nextBeforeSeq": 1, "nextAfterAt": null, "nextAfterSeq": null,
            "snapshotHeadAt": 1000, "snapshotHeadSeq": 1}})
    };
    let document = json!({"fixtureVersion": 1, "name": name, "description": "d", "ops": [
        {"op": "sync-tail", "responses": [page("latest", true)], "expectedRequests": [{}]},
        {"op": "fetch-older", "responses": [page("before", false)], "expectedRequests": [{}], "expectedOutcome": {}},
    ], "expectedState": {}});
    let parts = conform::suites::find("pagination").expect("pagination suite").split(&document).expect("splits");
    let expected = reference(&parts.input, &mut NoTrace).expect("the valid document replays");
    conform::suites::find("pagination").expect("pagination suite").with_expected(&document, &expected).expect("merges")
}

/// Loads `documents` as fixtures and returns each one's problems (empty
/// when it is valid).
fn problems(documents: &[Value]) -> Vec<(String, Vec<String>)> {
    let corpus = load_documents("pagination", documents);
    corpus
        .fixtures
        .iter()
        .map(|fixture| {
            let lines = match &fixture.status {
                FixtureStatus::Invalid(errors) => errors.iter().map(ToString::to_string).collect(),
                _ => Vec::new(),
            };
            (fixture.name.clone(), lines)
        })
        .collect()
}

fn broken(name: &str, edit: impl FnOnce(&mut Value)) -> (String, Value) {
    let mut document = valid_document(name);
    edit(&mut document);
    (name.to_owned(), document)
}

fn the_valid_document_is_valid() {
    let found = problems(&[valid_document("valid")]);
    assert_eq!(found, vec![("valid".to_owned(), Vec::new())]);
}

fn malformed_documents_are_invalid_with_a_clear_message() {
    let cases = [
        (broken("unknown-op", |d| d["ops"][1]["op"] = json!("rewind")), "/ops/1/op"),
        (
            broken("missing-responses", |d| {
                if let Some(op) = d["ops"][0].as_object_mut() {
                    op.remove("responses");
                }
            }),
            "\"responses\" is a required property",
        ),
        (broken("op-not-object", |d| d["ops"][0] = json!("sync-tail")), "/ops/0"),
        (broken("stray-member", |d| d["ops"][1]["messages"] = json!([])), "/ops/1"),
        (broken("page-without-epoch", |d| d["ops"][0]["responses"][0]["page"]["epoch"] = Value::Null), "/epoch"),
        (broken("row-without-id", |d| d["ops"][0]["responses"][0]["messages"][0]["id"] = json!(7)), "/id"),
        (
            broken("unconsumed-response", |d| {
                let extra = d["ops"][1]["responses"][0].clone();
                if let Some(responses) = d["ops"][1]["responses"].as_array_mut() {
                    responses.push(extra);
                }
            }),
            "2 scripted responses but 1 expected requests",
        ),
    ];
    let documents: Vec<Value> = cases.iter().map(|((_, document), _)| document.clone()).collect();
    let found = problems(&documents);
    for ((name, _), hint) in &cases {
        let lines = &found.iter().find(|(found, _)| found == name).expect("loaded").1;
        assert!(!lines.is_empty(), "{name} should be invalid");
        assert!(lines.iter().any(|line| line.contains(hint)), "{name}: no line mentions {hint:?}: {lines:?}");
    }
}

fn the_reference_reports_malformed_input_without_panicking() {
    let unknown = json!({"ops": [{"op": "rewind"}]});
    let error = reference(&unknown, &mut NoTrace).expect_err("unknown op kind");
    assert!(error.contains("ops[0] rewind: unknown op kind `rewind`"), "{error}");
    let missing = json!({"ops": [{"op": "sync-tail"}]});
    assert!(reference(&missing, &mut NoTrace).expect_err("missing responses").contains("missing `responses`"));
    let bad_page = json!({"ops": [{"op": "sync-tail", "responses": [{"messages": [], "page": {}}]}]});
    assert!(reference(&bad_page, &mut NoTrace).expect_err("bad page").contains("responses[0]"));
    for input in
        [json!(null), json!({"ops": [1, [], {"op": 3}]}), json!({"ops": [{"op": "sse-messages", "messages": [{}]}]})]
    {
        assert!(reference(&input, &mut NoTrace).is_err(), "{input}");
    }
}

fn under_and_over_supplied_responses_show_as_request_differences() {
    let document = valid_document("supply");
    let suite = conform::suites::find("pagination").expect("pagination suite");
    let parts = suite.split(&document).expect("splits");
    // One response too few: the op records a request with nothing to answer it.
    let mut starved = parts.input.clone();
    starved["ops"][1]["responses"] = json!([]);
    let actual = reference(&starved, &mut NoTrace).expect("replays");
    assert_eq!(actual["ops"][1]["expectedRequests"].as_array().map(Vec::len), Some(1));
    assert_eq!(actual["ops"][1]["expectedOutcome"], json!({"kind": "failed"}));
    let context = suite.pointer_context(&starved, "/ops/1/expectedRequests/0").expect("labelled");
    assert_eq!(context.label, "ops[1] fetch-older: request 1 (over-consumed: no scripted response)");
    // One response too many: it is left unconsumed, so a request is missing.
    let mut flooded = parts.input.clone();
    let extra = flooded["ops"][0]["responses"][0].clone();
    flooded["ops"][0]["responses"].as_array_mut().expect("array").push(extra);
    let actual = reference(&flooded, &mut NoTrace).expect("replays");
    assert_eq!(actual["ops"][0]["expectedRequests"].as_array().map(Vec::len), Some(1));
    let context = suite.pointer_context(&flooded, "/ops/0/expectedRequests").expect("labelled");
    assert_eq!(context.label, "ops[0] sync-tail: requests (2 scripted responses, one per request)");
    let request = suite.pointer_context(&flooded, "/ops/1/expectedRequests/0/beforeSeq").expect("labelled");
    assert_eq!((request.label.as_str(), request.rest.as_str()), ("ops[1] fetch-older: request 1", "/beforeSeq"));
}

fn deep_values_replay_on_the_worker_stack() {
    // References run on the harness's worker stack, as `conform run` runs them.
    let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let deep = nested(9_990);
    let script = format!(
        r#"{{"ops": [{{"op": "sse-messages", "messages": [{{"id": "a", "createdAt": 1, "scheduledAt": {deep},
            "content": {{"role": "user", "content": {{"type": "text", "text": "t"}}}}}}]}},
            {{"op": "sync-tail", "responses": [{{"messages": [], "page": {deep}}}]}}]}}"#
    );
    let outcome = std::thread::Builder::new()
        .stack_size(conform::run::WORKER_STACK_BYTES)
        .spawn(move || {
            let input = json::parse_value(&script).expect("parses");
            reference(&input, &mut NoTrace)
        })
        .expect("spawns")
        .join()
        .expect("no panic");
    assert_eq!(
        outcome.expect_err("the page is not an object"),
        "ops[1] sync-tail: responses[0]: `page` must be an object"
    );
}

crate::trials![
    the_valid_document_is_valid,
    malformed_documents_are_invalid_with_a_clear_message,
    the_reference_reports_malformed_input_without_panicking,
    under_and_over_supplied_responses_show_as_request_differences,
    deep_values_replay_on_the_worker_stack
];
