//! Broken sse documents are `invalid` with a message that says what is
//! wrong; the reference rejects what the strict patch schema rejects and
//! never panics.

use crate::common;

use common::load_documents;
use conform::fixture::FixtureStatus;
use conform::json;
use conform::suite_api::NoTrace;
use conform::suites::sse::reference::reference;
use serde_json::{Value, json};

fn document(name: &str, patches: Value, verdicts: Value) -> Value {
    let session = json!({"id": "s", "namespace": "n", "seq": 1, "createdAt": 0, "updatedAt": 0, "active": true,
        "activeAt": 0, "metadata": null, "metadataVersion": 0, "agentState": null, "agentStateVersion": 0,
        "thinking": false, "thinkingAt": 0, "model": null, "modelReasoningEffort": null, "effort": null,
        "serviceTier": null});
    json!({"fixtureVersion": 1, "name": name, "description": "d", "initialSession": session, "patches": patches,
        "expectedPatchResults": verdicts, "expectedSession": session})
}

fn malformed_documents_are_invalid_with_a_clear_message() {
    let cases = [
        (
            document("patch-not-object", json!([{"thinking": true}, "thinking"]), json!(["applied", "applied"])),
            "/patches/1: \"thinking\" is not of type \"object\"",
        ),
        (document("unknown-patch-key", json!([{"bogus": 1}]), json!(["applied"])), "'bogus' was unexpected"),
        (document("empty-patch", json!([{}]), json!(["unchanged"])), "/patches/0"),
        (document("bare-todos", json!([{"todos": []}]), json!(["applied"])), "/patches/0/todos"),
        (
            document("wrapper-without-version", json!([{"metadata": {"value": null}}]), json!(["applied"])),
            "\"version\" is a required property",
        ),
        (document("null-active-at", json!([{"activeAt": null}]), json!(["applied"])), "/patches/0/activeAt"),
        (document("verdict-count", json!([{"thinking": true}]), json!([])), "0 verdicts for 1 patches"),
    ];
    let corpus = load_documents("sse", cases.iter().map(|(document, _)| document));
    for (document, hint) in &cases {
        let fixture = corpus.fixtures.iter().find(|fixture| fixture.name == document["name"]).expect("loaded");
        let FixtureStatus::Invalid(errors) = &fixture.status else { panic!("{} should be invalid", fixture.name) };
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(lines.iter().any(|line| line.contains(hint)), "{}: no line mentions {hint:?}: {lines:?}", fixture.name);
    }
}

fn the_reference_rejects_what_the_strict_patch_schema_rejects() {
    let session = document("x", json!([]), json!([]))["initialSession"].clone();
    let run = |patches: Value| reference(&json!({"initialSession": session, "patches": patches}), &mut NoTrace);
    assert_eq!(
        run(json!([{"thinking": true}, "x"])).expect_err("not an object"),
        "patches[1]: a patch must be a JSON object"
    );
    assert!(run(json!([{"bogus": 1}])).expect_err("unknown key").contains("unknown key `bogus`"));
    assert!(
        run(json!([{"todos": {"version": 1, "value": null}}])).expect_err("null todos").contains("must be an array")
    );
    assert!(run(json!([{"agentState": {"value": {}}}])).expect_err("no version").contains("numeric `version`"));
    assert!(reference(&json!({"initialSession": 1, "patches": []}), &mut NoTrace).is_err());
    assert!(reference(&json!([]), &mut NoTrace).is_err());
}

fn deep_values_fold_on_the_worker_stack() {
    // References run on the harness's worker stack, as `conform run` runs them.
    let deep = format!("{}1{}", "[".repeat(9_990), "]".repeat(9_990));
    let text = format!(
        r#"{{"initialSession": {{"id": "s", "metadata": {deep}, "metadataVersion": 1}},
            "patches": [{{"metadata": {{"version": 2, "value": {deep}}}}}, {{"thinking": {deep}}}]}}"#
    );
    let output = std::thread::Builder::new()
        .stack_size(conform::run::WORKER_STACK_BYTES)
        .spawn(move || {
            let input = json::parse_value(&text).expect("parses");
            reference(&input, &mut NoTrace).map(|output| output["expectedPatchResults"].clone())
        })
        .expect("spawns")
        .join()
        .expect("no panic");
    assert_eq!(output, Ok(json!(["applied", "applied"])));
}

fn mismatches_are_labelled_by_patch() {
    let suite = conform::suites::find("sse").expect("sse suite");
    let input = json!({"initialSession": {}, "patches": [{}, {}]});
    let verdict = suite.pointer_context(&input, "/expectedPatchResults/1").expect("labelled");
    assert_eq!((verdict.label.as_str(), verdict.rest.as_str()), ("patches[1]: verdict", ""));
    let session = suite.pointer_context(&input, "/expectedSession/metadata/name").expect("labelled");
    assert_eq!((session.label.as_str(), session.rest.as_str()), ("final session", "/metadata/name"));
}

crate::trials![
    malformed_documents_are_invalid_with_a_clear_message,
    the_reference_rejects_what_the_strict_patch_schema_rejects,
    deep_values_fold_on_the_worker_stack,
    mismatches_are_labelled_by_patch
];
