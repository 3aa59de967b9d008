//! What the chat reference promises beyond reproducing each fixture (which
//! tests/fixtures.rs checks): the project's own fixtures exercise every
//! decode rule, the output does not depend on the key order of the input,
//! and verbatim values nested nearly 10,000 levels deep decode on a small
//! stack.

use crate::common;

use common::{hapi_suite, own_fixtures, read_document, root};
use conform::compare::{render_plain, text_diff};
use conform::json::{parse_value, to_canonical_string};
use conform::suite_api::{NoTrace, ReferenceFn, RuleSet, Suite, call_reference};
use conform::suites::chat::ChatSuite;
use conform::suites::chat::reference::{RULES, run};
use serde_json::Value;

/// The chat reference of a document's fixtureVersion.
fn reference_of(document: &Value) -> ReferenceFn {
    let version = document["fixtureVersion"].as_u64().and_then(|v| u32::try_from(v).ok()).unwrap_or(1);
    ChatSuite.reference_for(version).unwrap_or(run)
}

/// Rules no valid, deterministic fixture can pin; unit tests cover them.
/// (Rows that are not objects are pinned by robustness fixtures.)
const RULES_WITHOUT_FIXTURES: [&str; 3] = [
    // Even a robustness document's `messages` is a list.
    "input.messages-not-a-list",
    // The wall-clock createdAt of a synthesized card differs on every run.
    "reduce.permission.synthesized-wall-clock",
    // A toolCallId that is neither a string nor null: upstream sends only
    // strings, and v2.md (P1) says only that it correlates with nothing, not
    // what a card synthesized for it would be keyed by; the reference leaves
    // such a request out (documented in fold/permissions.rs), which is not
    // worth pinning for other implementations.
    "v2.p1.non-string-tool-call-id-correlates-with-nothing",
];

fn own_fixtures_exercise_every_rule() {
    let mut hit = RuleSet::default();
    for path in own_fixtures("chat") {
        let document = read_document(&path);
        call_reference(reference_of(&document), &document["input"], &mut hit)
            .expect("the reference decodes every own fixture");
    }
    let missing: Vec<&str> =
        RULES.iter().copied().filter(|rule| !hit.0.contains(rule) && !RULES_WITHOUT_FIXTURES.contains(rule)).collect();
    assert!(missing.is_empty(), "no fixture in fixtures/chat exercises these rules: {missing:?}");
}

/// Rebuilds every object with its members in a scrambled order.
fn scramble(value: &Value, salt: usize) -> Value {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.reverse();
            let len = members.len().max(1);
            members.rotate_left(salt % len);
            Value::Object(members.into_iter().map(|(k, v)| (k.clone(), scramble(v, salt + 1))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| scramble(item, salt + 3)).collect()),
        other => other.clone(),
    }
}

fn output_does_not_depend_on_input_key_order() {
    let mut paths = own_fixtures("chat");
    if let Some(corpus) = hapi_suite("chat") {
        paths.extend(common::fixture_files(&corpus));
    }
    for path in paths {
        let document = read_document(&path);
        let expected = to_canonical_string(&document["expected"]);
        for salt in [0, 1, 2] {
            let input = scramble(&document["input"], salt);
            let output = call_reference(reference_of(&document), &input, &mut NoTrace).expect("decodes");
            let actual = to_canonical_string(&output);
            assert!(
                actual == expected,
                "{} (key order {salt})\n{}",
                path.strip_prefix(root()).unwrap_or(&path).display(),
                render_plain(&text_diff(&expected, &actual, 3))
            );
        }
    }
}

fn deeply_nested_verbatim_values_do_not_overflow_a_small_stack() {
    let depth = 9_900;
    let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let text = format!(
        r#"{{"messages": [{{"id": "m1", "localId": null, "createdAt": 1, "content": {{"role": "agent", "content":
            {{"type": "codex", "data": {{"type": "tool-call", "callId": "c1", "name": "x", "input": {nested}}}}}}}}}],
            "agentState": null, "options": {{"hasMoreMessages": false}}}}"#
    );
    let input = parse_value(&text).expect("nearly 10,000 levels parse");
    let output = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            let output = run(&input, &mut NoTrace).expect("decodes");
            let kind = output["blocks"][0]["kind"].clone();
            // Dropping nested values recurses; leak them rather than measure
            // serde_json's drop on this deliberately small stack.
            std::mem::forget(output);
            std::mem::forget(input);
            kind
        })
        .expect("thread starts")
        .join()
        .expect("no stack overflow");
    assert_eq!(output, "tool-call");
}

crate::trials![
    own_fixtures_exercise_every_rule,
    output_does_not_depend_on_input_key_order,
    deeply_nested_verbatim_values_do_not_overflow_a_small_stack
];
