//! The chat reference against the HAPI golden corpus (when `../shared` is
//! present) and against the project's own chat fixtures.

use conform::json::{parse_value, to_canonical_string};
use conform::reference::chat::{RULES, run};
use conform::reference::{NoTrace, RuleSet};
use serde_json::Value;
use std::path::{Path, PathBuf};

const HAPI_CHAT: &str = "../shared/hapi/fixtures/chat";
const OWN_CHAT: &str = "fixtures/chat";

fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// The first differing lines of two canonical texts, with a little context.
fn first_difference(expected: &str, actual: &str) -> String {
    let expected_lines: Vec<&str> = expected.lines().collect();
    let actual_lines: Vec<&str> = actual.lines().collect();
    let at = expected_lines
        .iter()
        .zip(&actual_lines)
        .position(|(e, a)| e != a)
        .unwrap_or(expected_lines.len().min(actual_lines.len()));
    let from = at.saturating_sub(3);
    let mut out = format!("first difference at line {}\n", at + 1);
    for (label, lines) in [("expected", &expected_lines), ("actual", &actual_lines)] {
        out.push_str(&format!("  {label}:\n"));
        for (n, line) in lines.iter().enumerate().skip(from).take(8) {
            out.push_str(&format!("  {}{:>4} {line}\n", if n == at { '>' } else { ' ' }, n + 1));
        }
    }
    out
}

/// Runs every fixture of a folder; returns (passed, failure reports).
fn check_folder(dir: &Path) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    for path in fixture_files(dir) {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let document = parse_value(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let expected = to_canonical_string(&document["expected"]);
        match run(&document["input"], &mut NoTrace) {
            Ok(actual) => {
                let actual = to_canonical_string(&actual);
                if actual == expected {
                    passed += 1;
                } else {
                    failures.push(format!("{}\n{}", path.display(), first_difference(&expected, &actual)));
                }
            }
            Err(err) => failures.push(format!("{}: the reference failed: {err}", path.display())),
        }
    }
    (passed, failures)
}

fn assert_folder_passes(dir: &Path, at_least: usize) {
    let (passed, failures) = check_folder(dir);
    let total = passed + failures.len();
    for failure in failures.iter().take(5) {
        eprintln!("{failure}");
    }
    assert!(failures.is_empty(), "{} of {total} fixtures in {} differ", failures.len(), dir.display());
    assert!(total >= at_least, "expected at least {at_least} fixtures in {}, found {total}", dir.display());
}

#[test]
fn reference_reproduces_the_hapi_chat_corpus() {
    let dir = Path::new(HAPI_CHAT);
    if !dir.is_dir() {
        eprintln!("skipped: {HAPI_CHAT} is absent (the HAPI corpus is not checked out beside this repository)");
        return;
    }
    assert_folder_passes(dir, 48);
}

#[test]
fn reference_reproduces_the_projects_own_chat_fixtures() {
    assert_folder_passes(Path::new(OWN_CHAT), 40);
}

/// Rules no schema-valid, deterministic fixture can pin; unit tests cover them.
const RULES_WITHOUT_FIXTURES: [&str; 3] = [
    // Fixture messages must be objects and `messages` must be a list.
    "message.not-an-object-dropped",
    "input.messages-not-a-list",
    // The wall-clock createdAt of a synthesized card differs on every run.
    "reduce.permission.synthesized-wall-clock",
];

#[test]
fn own_fixtures_exercise_every_rule() {
    let mut hit = RuleSet::default();
    for path in fixture_files(Path::new(OWN_CHAT)) {
        let document = parse_value(&std::fs::read_to_string(&path).expect("readable")).expect("valid JSON");
        run(&document["input"], &mut hit).expect("the reference decodes every own fixture");
    }
    let missing: Vec<&str> =
        RULES.iter().copied().filter(|rule| !hit.0.contains(rule) && !RULES_WITHOUT_FIXTURES.contains(rule)).collect();
    assert!(missing.is_empty(), "no fixture in {OWN_CHAT} exercises these rules: {missing:?}");
}

#[test]
fn own_fixture_descriptions_cite_the_rule_they_pin() {
    for path in fixture_files(Path::new(OWN_CHAT)) {
        let document = parse_value(&std::fs::read_to_string(&path).expect("readable")).expect("valid JSON");
        let description = document["description"].as_str().unwrap_or_default();
        assert!(
            description.contains('§') || description.contains("contract"),
            "{}: the description should cite the spec section of the rule it pins",
            path.display()
        );
    }
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

#[test]
fn output_does_not_depend_on_input_key_order() {
    let mut dirs = vec![PathBuf::from(OWN_CHAT)];
    if Path::new(HAPI_CHAT).is_dir() {
        dirs.push(PathBuf::from(HAPI_CHAT));
    } else {
        eprintln!("skipped the HAPI part: {HAPI_CHAT} is absent");
    }
    for dir in dirs {
        for path in fixture_files(&dir) {
            let document = parse_value(&std::fs::read_to_string(&path).expect("readable")).expect("valid JSON");
            let expected = to_canonical_string(&document["expected"]);
            for salt in [0, 1, 2] {
                let input = scramble(&document["input"], salt);
                let actual = to_canonical_string(&run(&input, &mut NoTrace).expect("decodes"));
                assert!(
                    actual == expected,
                    "{} (key order {salt})\n{}",
                    path.display(),
                    first_difference(&expected, &actual)
                );
            }
        }
    }
}

#[test]
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
