//! Runs every fixture in `fixtures/claude-display` through the reference and
//! compares canonical text; checks each document against the suite schema,
//! its file name and its canonical form.

use conform::json::{parse_document, to_canonical_string};
use conform::reference::NoTrace;
use conform::suite::{Suite, claude_display::ClaudeDisplay};
use serde_json::Value;
use std::path::PathBuf;

const FOLDER: &str = "fixtures/claude-display";

fn fixture_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(FOLDER)
        .expect("the fixture folder exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
}

fn expected_for(input: &Value) -> Value {
    ClaudeDisplay.reference().expect("the suite has a reference")(input, &mut NoTrace).expect("the input is an object")
}

#[test]
fn every_fixture_passes_the_reference() {
    let schema: Value = serde_json::from_str(ClaudeDisplay.schema()).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let paths = fixture_paths();
    assert!(paths.len() >= 40, "only {} fixtures", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable fixture");
        let document = parse_document(&text).expect("fixture is JSON").value;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if document.get("name").and_then(Value::as_str) != Some(stem) {
            failures.push(format!("{}: name differs from the file name", path.display()));
        }
        for error in validator.iter_errors(&document) {
            failures.push(format!("{}: schema: {} at {}", path.display(), error, error.instance_path()));
        }
        if to_canonical_string(&document) != text {
            failures.push(format!("{}: not in canonical form", path.display()));
        }
        let parts = ClaudeDisplay.split(&document).expect("the document splits");
        let actual = to_canonical_string(&expected_for(&parts.input));
        let expected = to_canonical_string(&parts.expected);
        if actual != expected {
            let diff = similar::TextDiff::from_lines(&expected, &actual);
            let shown = diff.unified_diff().context_radius(3).header("expected", "actual").to_string();
            failures.push(format!("{}: differs\n{}", path.display(), shown));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}
