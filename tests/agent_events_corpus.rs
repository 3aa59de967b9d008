//! The agent-runtime fixture corpus: every fixture under
//! `fixtures/{claude-events,codex-app-server-events,codex-exec-events,event-fold,tool-policy}`
//! is schema-valid, canonical, named after its file, and reproduced
//! byte-for-byte by the suite's reference.

use conform::json::{parse_document, to_canonical_string};
use conform::reference::NoTrace;
use conform::reference::event_fold;
use conform::suite::{Suite, find};
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

const SUITES: [&str; 5] =
    ["claude-events", "codex-app-server-events", "codex-exec-events", "event-fold", "tool-policy"];

fn fixtures_dir(suite: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(suite)
}

fn suite(name: &str) -> &'static dyn Suite {
    find(name).unwrap_or_else(|| panic!("suite {name} is not registered"))
}

fn fixture_files(suite: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(fixtures_dir(suite))
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|path| path.extension().is_some_and(|ext| ext == "json"));
    files.sort();
    files
}

/// Computes a document's expected part with the suite's reference.
fn with_expected(suite_name: &str, document: &Value) -> Result<Value, String> {
    let suite = suite(suite_name);
    let parts = suite.split(document)?;
    let reference = suite.reference().ok_or("no reference")?;
    let expected = reference(&parts.input, &mut NoTrace)?;
    suite.with_expected(document, &expected)
}

#[test]
fn every_fixture_is_valid_canonical_and_reproduced_by_the_reference() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for suite_name in SUITES {
        let schema: Value = serde_json::from_str(suite(suite_name).schema()).expect("embedded schema parses");
        let validator = jsonschema::validator_for(&schema).expect("embedded schema compiles");
        for path in fixture_files(suite_name) {
            checked += 1;
            let text = fs::read_to_string(&path).expect("fixture readable");
            let id = format!("{suite_name}/{}", path.file_stem().unwrap_or_default().to_string_lossy());
            let document = match parse_document(&text) {
                Ok(parsed) => parsed.value,
                Err(err) => {
                    failures.push(format!("{id}: {err}"));
                    continue;
                }
            };
            for error in validator.iter_errors(&document) {
                failures.push(format!("{id}: schema: {} at {}", error, error.instance_path()));
            }
            if to_canonical_string(&document) != text {
                failures.push(format!("{id}: not in canonical form"));
            }
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            if document.get("name").and_then(Value::as_str) != stem.as_deref() {
                failures.push(format!("{id}: `name` differs from the file name"));
            }
            match with_expected(suite_name, &document) {
                Ok(recomputed) if recomputed == document => {}
                Ok(recomputed) => {
                    let want = to_canonical_string(&document["expected"]);
                    let got = to_canonical_string(&recomputed["expected"]);
                    let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0);
                    failures
                        .push(format!("{id}: the reference differs from the fixture at expected line {}", line + 1));
                }
                Err(err) => failures.push(format!("{id}: the reference failed: {err}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} fixtures failed:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 60, "expected at least 60 agent-runtime fixtures, found {checked}");
}

#[test]
fn event_fold_fixtures_agree_when_replay_rows_are_reshuffled() {
    // The reference fails a case whose live and replay paths disagree, so a
    // passing fixture already agrees for its own `replayOrder`; this checks
    // every other row order the database could return too (reversed and
    // rotated), as long as rows carry distinct (ts, seq) keys.
    for path in fixture_files("event-fold") {
        let document = parse_document(&fs::read_to_string(&path).expect("readable")).expect("parses").value;
        let input = &document["input"];
        let events = input["events"].as_array().cloned().unwrap_or_default();
        let keyed = events.iter().all(|event| event.get("seq").is_some_and(Value::is_number));
        if !keyed {
            continue;
        }
        let n = events.len();
        let mut orders: Vec<Vec<usize>> = vec![(0..n).rev().collect()];
        for shift in [1, n / 2, n.saturating_sub(1)] {
            orders.push((0..n).map(|i| (i + shift) % n.max(1)).collect());
        }
        for order in orders {
            let mut shuffled = input.clone();
            shuffled["replayOrder"] = json!(order);
            let result = event_fold::run(&shuffled, &mut NoTrace);
            assert_eq!(
                result.as_ref().ok(),
                Some(&document["expected"]),
                "{} with replayOrder {order:?}",
                path.display()
            );
        }
    }
}
