//! Redaction against a capture seeded with planted secrets of every kind the
//! README lists, in plain strings, nested objects, escaped JSON inside
//! strings (one and two levels) and truncated strings: none may survive, and
//! everything that is not a secret must come out byte for byte unchanged.

mod common;

use common::planted::{
    ANTHROPIC, BEARER, CUSTOM_RULE, MASK, Planted, USER_MAC, mask_placeholders, masked_strings, planted_members,
    planted_strings,
};
use conform::json::to_canonical_string;
use conform::redact::Redactor;
use serde_json::{Value, json};

/// A capture-shaped document whose strings are the planted ones (and, for
/// the expected side, their masked forms): each planted string sits in a
/// different nesting depth of a message.
fn document(strings: &[String], members: &[(&str, String)]) -> Value {
    let messages: Vec<Value> = strings
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let nested = match index % 3 {
                0 => json!({"type": "text", "text": text}),
                1 => json!({"type": "tool_result", "tool_use_id": format!("toolu_{index:03}"), "content": [{"type": "text", "text": text}]}),
                _ => json!({"type": "output", "data": {"message": {"content": [{"type": "text", "text": text}]}, "note": "kept"}}),
            };
            json!({"id": format!("msg-{index:03}"), "seq": index + 1, "content": {"role": "agent", "content": nested}})
        })
        .collect();
    let mut headers = serde_json::Map::new();
    for (name, value) in members {
        headers.insert((*name).to_owned(), Value::String(value.clone()));
    }
    json!({"messages": messages, "agentState": {"requests": {"req-1": {"tool": "WebFetch", "arguments": {"headers": headers, "url": "https://api.example.com/v1"}}}}})
}

fn planted_document() -> (Value, Value, usize) {
    let strings = planted_strings();
    let members = planted_members();
    let original = document(
        &strings.iter().map(Planted::original).collect::<Vec<_>>(),
        &members.iter().map(|(name, planted)| (*name, planted.original())).collect::<Vec<_>>(),
    );
    let expected = document(
        &strings.iter().map(Planted::expected).collect::<Vec<_>>(),
        &members.iter().map(|(name, planted)| (*name, planted.expected())).collect::<Vec<_>>(),
    );
    let count = strings.iter().chain(members.iter().map(|(_, p)| p)).map(|p| p.secrets().len()).sum();
    (original, expected, count)
}

fn redactor() -> Redactor {
    Redactor::new(&[CUSTOM_RULE.to_owned()]).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn no_planted_secret_survives_and_nothing_else_changes() {
    let (original, expected, planted) = planted_document();
    assert!(planted >= 30, "only {planted} secrets planted");

    let mut scrubbed = original.clone();
    let mut redactor = redactor();
    redactor.learn_user_names(&original);
    redactor.scrub_value(&mut scrubbed);

    let mut got = Vec::new();
    masked_strings(&scrubbed, &mut got);
    let mut want = Vec::new();
    masked_strings(&expected, &mut want);
    assert_eq!(got.len(), want.len());
    let mismatches: Vec<String> = got
        .iter()
        .zip(&want)
        .filter(|(got, want)| got != want)
        .map(|(got, want)| format!("got:  {got:?}\nwant: {want:?}"))
        .collect();
    assert!(mismatches.is_empty(), "{} strings differ:\n{}", mismatches.len(), mismatches.join("\n\n"));

    // Belt and braces: no secret (or secret fragment) appears in the written
    // bytes, whatever escaping it had.
    let written = to_canonical_string(&scrubbed);
    let leaked: Vec<String> = planted_strings()
        .iter()
        .flat_map(Planted::secrets)
        .chain(planted_members().iter().flat_map(|(_, p)| p.secrets()))
        .filter(|secret| secret.len() >= 4 && written.contains(secret.as_str()))
        .collect();
    assert!(leaked.is_empty(), "leaked: {leaked:?}");

    let summary = redactor.summary();
    assert!(summary.total() >= planted, "{} replacements for {planted} planted secrets", summary.total());
    eprintln!(
        "planted {planted} secrets; {} replacements ({} distinct) by {} rules; survived: 0",
        summary.total(),
        summary.distinct,
        summary.replacements.len()
    );
}

#[test]
fn every_rule_kind_fired() {
    let (mut document, _, _) = planted_document();
    let mut redactor = redactor();
    redactor.learn_user_names(&document);
    redactor.scrub_value(&mut document);
    let fired = redactor.summary().replacements;
    for rule in [
        "private-key",
        "private-key-tail",
        "anthropic-key",
        "openai-key",
        "github-token",
        "aws-access-key-id",
        "aws-secret-key",
        "slack-token",
        "jwt",
        "authorization-header",
        "bearer-token",
        "url-credentials",
        "secret-assignment",
        "secret-assignment-bare",
        "email",
        "home-path-unix",
        "home-path-dashed",
        "home-path-windows",
        "known-user-name",
        "truncated-secret-tail",
        "secret-member",
        "custom-1",
    ] {
        assert!(fired.contains_key(rule), "rule {rule} never fired: {fired:?}");
    }
}

#[test]
fn placeholders_are_stable_within_a_capture() {
    let mut redactor = redactor();
    let mut value = json!([
        format!("first {ANTHROPIC}"),
        {"nested": format!("{{\"key\":\"{ANTHROPIC}\",\"home\":\"/Users/{USER_MAC}/x\"}}")},
        format!("cd /Users/{USER_MAC}/y"),
    ]);
    redactor.scrub_value(&mut value);
    assert_eq!(
        value,
        json!([
            "first REDACTED_ANTHROPIC_KEY_1",
            {"nested": "{\"key\":\"REDACTED_ANTHROPIC_KEY_1\",\"home\":\"/Users/REDACTED_USER_1/x\"}"},
            "cd /Users/REDACTED_USER_1/y",
        ])
    );
    // One secret, one placeholder: whichever rule finds it and however
    // deeply it is escaped.
    let mut value = json!([
        format!("Authorization: Bearer {BEARER}"),
        format!("{{\"raw\":\"{{\\\"h\\\":\\\"use bearer {BEARER}\\\"}}\"}}"),
    ]);
    redactor.scrub_value(&mut value);
    assert_eq!(
        value,
        json!([
            "Authorization: Bearer REDACTED_CREDENTIAL_1",
            "{\"raw\":\"{\\\"h\\\":\\\"use bearer REDACTED_CREDENTIAL_1\\\"}\"}",
        ])
    );
    // A second capture numbers from 1 again.
    let mut fresh = Redactor::new(&[]).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(fresh.scrub_text(&format!("k={ANTHROPIC}")), "k=REDACTED_ANTHROPIC_KEY_1");
}

#[test]
fn the_lint_flags_the_original_and_passes_the_scrubbed_document() {
    let (original, _, _) = planted_document();
    let redactor = redactor();
    let findings = redactor.lint(&to_canonical_string(&original), &original);
    let rules: std::collections::BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    assert!(rules.len() >= 15, "the lint found only {rules:?}");
    assert!(findings.iter().all(|f| !f.excerpt.contains(&ANTHROPIC[..12])), "findings must not repeat secrets");

    let mut scrubbed = original;
    let mut redactor = self::redactor();
    redactor.scrub_value(&mut scrubbed);
    let text = to_canonical_string(&scrubbed);
    assert_eq!(redactor.lint(&text, &scrubbed), Vec::new());
    assert!(mask_placeholders(&text).contains(MASK));
}

#[test]
fn a_secret_the_rules_miss_is_caught_by_a_user_rule_in_the_lint_too() {
    // Without the user rule the host is not a secret; with it, the lint of an
    // unscrubbed document reports it.
    let value = json!({"log": "uploaded from build-17.corp.internal"});
    let text = to_canonical_string(&value);
    assert!(Redactor::new(&[]).map(|r| r.lint(&text, &value).is_empty()).unwrap_or(false));
    let findings = redactor().lint(&text, &value);
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].rule, "custom-1");
}
