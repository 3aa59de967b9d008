//! Redaction against planted secrets and personal data.
//!
//! * A capture-shaped document mixing secrets of every kind docs/captures.md
//!   lists, in plain strings, nested objects, escaped JSON inside strings
//!   (one and two levels) and truncated strings: none may survive, and
//!   everything that is not a secret comes out byte for byte unchanged.
//! * A catalog of kinds ([`common::planted::kinds`]), one string each:
//!   each is replaced by the rule meant for it, in memory and planted in a
//!   capture of every format `conform capture` reads, and the lint flags an
//!   unredacted copy of each. What fixtures legitimately hold (timestamps,
//!   uuids, hashes, versions, loopback addresses) is left alone.

use crate::common;

use common::planted::{
    ANTHROPIC, BEARER, CUSTOM_RULE, Kind, LOOK_ALIKES, MASK, Planted, PlantedCapture, USER_MAC, WRAPPED_ENV,
    WRAPPED_ENV_BASE64, WRAPPED_KEY, WRAPPED_KEY_BASE64, capture_in_format, kind_members, kind_text, kinds,
    mask_placeholders, masked_strings, planted_members, planted_strings,
};
use conform::capture::{CaptureOptions, formats, prepare};
use conform::json::to_canonical_string;
use conform::redact::rules::BUILTIN_RULES;
use conform::redact::wrapped::decode_base64;
use conform::redact::{KNOWN_USER_NAME_RULE, RedactOptions, Redactor, SECRET_MEMBER_RULE};
use serde_json::{Value, json};
use std::collections::BTreeSet;

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

fn every_rule_fires_on_the_mixed_document() {
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

/// The value a kind is planted as: its string, or `{member: secret}`.
fn kind_value(index: usize, kind: &Kind) -> Value {
    match kind_members(kind) {
        Some(members) => json!({"text": kind_text(index, kind), "meta": members}),
        None => Value::String(kind_text(index, kind)),
    }
}

/// The same with every secret masked: what the scrubbed value must equal
/// once its placeholders are masked.
fn kind_expected(index: usize, kind: &Kind) -> Value {
    match kind.member {
        Some(name) => json!({"text": kind_text(index, kind), "meta": {name: kind.planted.expected()}}),
        None => Value::String(kind.planted.expected()),
    }
}

fn masked(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(mask_placeholders(text)),
        Value::Array(items) => Value::Array(items.iter().map(masked).collect()),
        Value::Object(members) => {
            Value::Object(members.iter().map(|(name, member)| (mask_placeholders(name), masked(member))).collect())
        }
        other => other.clone(),
    }
}

/// A redactor (with the test's user rule) that has learned the user names
/// every kind's paths reveal, as a capture holding them all would.
fn trained_redactor(options: RedactOptions) -> Redactor {
    let mut redactor = Redactor::with_options(&options).unwrap_or_else(|err| panic!("{err}"));
    let all: Vec<Value> = kinds().iter().enumerate().map(|(index, kind)| kind_value(index, kind)).collect();
    redactor.learn_user_names(&Value::Array(all));
    redactor
}

fn default_options() -> RedactOptions {
    RedactOptions { user_rules: vec![CUSTOM_RULE.to_owned()], keep_personal_data: false }
}

/// Every string and member name in `value`.
fn all_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| all_strings(item, out)),
        Value::Object(members) => {
            for (name, member) in members {
                out.push(name.clone());
                all_strings(member, out);
            }
        }
        _ => {}
    }
}

/// The planted secrets of `kind` found in `strings` (as planted, whatever
/// escaping the document gave them).
fn survivors(kind: &Kind, strings: &[String]) -> Vec<String> {
    kind.planted
        .secrets()
        .into_iter()
        .filter(|secret| strings.iter().any(|text| text.contains(secret.as_str())))
        .collect()
}

fn the_catalog_covers_every_rule_and_its_wrapped_values_are_what_they_say() {
    let kinds = kinds();
    assert!(kinds.len() >= 55, "only {} kinds planted", kinds.len());
    let planted_rules: BTreeSet<&str> = kinds.iter().map(|kind| kind.rule).collect();
    let mut every_rule: BTreeSet<&str> = BUILTIN_RULES.iter().map(|rule| rule.id).collect();
    every_rule.extend([SECRET_MEMBER_RULE, KNOWN_USER_NAME_RULE, "custom-1"]);
    let unplanted: Vec<&&str> = every_rule.difference(&planted_rules).collect();
    assert!(unplanted.is_empty(), "rules no kind plants: {unplanted:?}");
    let names: BTreeSet<&str> = kinds.iter().map(|kind| kind.name).collect();
    assert_eq!(names.len(), kinds.len(), "kind names are unique");
    assert_eq!(decode_base64(WRAPPED_KEY_BASE64), Some(WRAPPED_KEY.as_bytes().to_vec()));
    let env = WRAPPED_ENV_BASE64.replace('\n', "");
    assert_eq!(decode_base64(env.trim_end_matches('=')), Some(WRAPPED_ENV.as_bytes().to_vec()));
}

fn every_kind_is_replaced_by_its_rule_and_nothing_else_changes() {
    let mut failures = Vec::new();
    for (index, kind) in kinds().iter().enumerate() {
        let mut redactor = trained_redactor(default_options());
        let mut value = kind_value(index, kind);
        redactor.scrub_value(&mut value);
        let fired = redactor.summary().replacements;
        if !fired.contains_key(kind.rule) {
            failures.push(format!("{}: rule {} did not fire ({fired:?})", kind.name, kind.rule));
        }
        if masked(&value) != kind_expected(index, kind) {
            failures.push(format!(
                "{}:\n  got:  {}\n  want: {}",
                kind.name,
                masked(&value),
                kind_expected(index, kind)
            ));
        }
        let text = to_canonical_string(&value);
        let findings = redactor.lint(&text, &value);
        if !findings.is_empty() {
            failures.push(format!("{}: the lint still finds {findings:?}", kind.name));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn personal_data_is_kept_on_request_and_secrets_are_not() {
    let options = RedactOptions { keep_personal_data: true, ..default_options() };
    for (index, kind) in kinds().iter().enumerate() {
        let mut redactor = trained_redactor(options.clone());
        let original = kind_value(index, kind);
        let mut value = original.clone();
        redactor.scrub_value(&mut value);
        if kind.personal {
            assert_eq!(value, original, "{} is kept", kind.name);
            assert_eq!(redactor.lint(&to_canonical_string(&value), &value), Vec::new(), "{}", kind.name);
        } else {
            assert_eq!(masked(&value), kind_expected(index, kind), "{} is still replaced", kind.name);
        }
    }
}

fn what_fixtures_legitimately_hold_is_left_alone() {
    let mut redactor = trained_redactor(default_options());
    let value = json!({"log": LOOK_ALIKES, "createdAt": 1_755_000_001_500u64, "seq": 42, "port": 8080});
    let mut scrubbed = value.clone();
    redactor.scrub_value(&mut scrubbed);
    assert_eq!(scrubbed, value);
    assert_eq!(redactor.lint(&to_canonical_string(&value), &value), Vec::new());
}

fn numbers_that_are_personal_data_become_placeholders() {
    let mut redactor = trained_redactor(default_options());
    let mut value = json!({"card": 4_111_111_111_111_111u64, "createdAt": 1_755_000_001_500u64});
    redactor.scrub_value(&mut value);
    assert_eq!(value, json!({"card": "REDACTED_CARD_1", "createdAt": 1_755_000_001_500u64}));
    let unscrubbed = json!({"card": 4_111_111_111_111_111u64});
    assert_eq!(redactor.lint(&to_canonical_string(&unscrubbed), &unscrubbed).len(), 1);
}

/// Plants every kind in a capture of every format, runs the capture
/// pipeline (import, redact, reference, validate, lint) and checks that no
/// planted secret survives in any fixture, that every kind's text around
/// its secrets is intact, and that the lint flags each kind's unredacted
/// frame.
fn every_kind_in_every_capture_format() -> Result<(), Box<dyn std::error::Error>> {
    let kinds = kinds();
    let mut checked = Vec::new();
    for (suite, format) in formats() {
        let Some(PlantedCapture { files, frames }) = capture_in_format(suite.name(), format.name, &kinds) else {
            panic!(
                "no planted capture for --from {} ({}): add one to tests/common/planted.rs",
                format.name,
                suite.name()
            );
        };
        let folder = tempfile::tempdir()?;
        let mut paths = Vec::new();
        for (name, text) in &files {
            let path = folder.path().join(name);
            std::fs::write(&path, text)?;
            paths.push(path);
        }
        let options = CaptureOptions {
            suite,
            format,
            files: paths,
            out: folder.path().join("out"),
            name_prefix: String::new(),
            window: None,
            redact_rules: vec![CUSTOM_RULE.to_owned()],
            keep_personal_data: false,
            fixture_version: None,
            captured_on: None,
            force_format: false,
        };
        let prepared = prepare(&options).unwrap_or_else(|err| panic!("{} ({}): {err}", format.name, suite.name()));
        assert!(!prepared.fixtures.is_empty());
        let mut strings = Vec::new();
        for fixture in &prepared.fixtures {
            all_strings(&fixture.document, &mut strings);
        }
        let masked_strings: BTreeSet<String> = strings.iter().map(|text| mask_placeholders(text)).collect();
        let mut failures = Vec::new();
        for (index, kind) in kinds.iter().enumerate() {
            let leaked = survivors(kind, &strings);
            if !leaked.is_empty() {
                failures.push(format!("{}: survived: {leaked:?}", kind.name));
            }
            let expected = kind.planted.expected();
            if !masked_strings.contains(&expected) {
                failures.push(format!("{}: no string equals {expected:?} once masked", kind.name));
            }
            // An unredacted copy of the kind's frame is flagged by the lint
            // (with the user names the whole capture reveals learned).
            let mut linter = Redactor::with_options(&default_options())?;
            for frame in &frames {
                linter.learn_user_names(frame);
            }
            let frame = &frames[index];
            if linter.lint(&to_canonical_string(frame), frame).is_empty() {
                failures.push(format!("{}: the lint passes the unredacted frame", kind.name));
            }
        }
        assert!(
            failures.is_empty(),
            "--from {} ({}): {} failures:\n{}",
            format.name,
            suite.name(),
            failures.len(),
            failures.join("\n")
        );
        checked.push(format!("{} → {} ({} fixtures)", format.name, suite.name(), prepared.fixtures.len()));
    }
    eprintln!("{} kinds planted in {} formats, none survived: {}", kinds.len(), checked.len(), checked.join("; "));
    Ok(())
}

/// `conform capture --keep-personal-data` keeps the IP address and phone
/// number of a capture that, without the flag, are replaced; the key is
/// replaced either way.
fn the_capture_command_keeps_personal_data_only_when_asked() -> Result<(), Box<dyn std::error::Error>> {
    let folder = tempfile::tempdir()?;
    let capture = folder.path().join("run.jsonl");
    let text = format!("deploy to 83.137.14.201, on call +44 20 7946 0958, key {ANTHROPIC}");
    let line = json!({"type": "item.completed", "item": {"id": "item_0", "type": "agent_message", "text": text}});
    std::fs::write(&capture, format!("{{\"type\":\"turn.started\"}}\n{line}\n"))?;
    for (flag, kept) in [(None, false), (Some("--keep-personal-data"), true)] {
        let out = folder.path().join(if kept { "kept" } else { "replaced" });
        let mut args = vec!["capture".to_owned(), "codex-exec-events".to_owned(), "--from".to_owned()];
        args.extend(["codex-exec-jsonl".to_owned(), "--out".to_owned(), out.display().to_string()]);
        args.extend(flag.map(str::to_owned));
        args.push(capture.display().to_string());
        let output = common::conform(&args);
        assert!(output.success(), "{}", output.text());
        let written = std::fs::read_to_string(out.join("run.json.new"))?;
        assert_eq!(written.contains("83.137.14.201"), kept, "{written}");
        assert_eq!(written.contains("+44 20 7946 0958"), kept, "{written}");
        assert!(!written.contains(&ANTHROPIC[..20]) && written.contains("REDACTED_ANTHROPIC_KEY_1"), "{written}");
    }
    Ok(())
}

crate::trials![
    no_planted_secret_survives_and_nothing_else_changes,
    every_rule_fires_on_the_mixed_document,
    placeholders_are_stable_within_a_capture,
    the_lint_flags_the_original_and_passes_the_scrubbed_document,
    a_secret_the_rules_miss_is_caught_by_a_user_rule_in_the_lint_too,
    the_catalog_covers_every_rule_and_its_wrapped_values_are_what_they_say,
    every_kind_is_replaced_by_its_rule_and_nothing_else_changes,
    personal_data_is_kept_on_request_and_secrets_are_not,
    what_fixtures_legitimately_hold_is_left_alone,
    numbers_that_are_personal_data_become_placeholders,
    every_kind_in_every_capture_format,
    the_capture_command_keeps_personal_data_only_when_asked
];
