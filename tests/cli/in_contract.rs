//! In contract or robustness: `conform explore --in-contract` sends only
//! inputs valid against the suite's wire schema (checked here against chat's
//! strict input schema, compiled on its own from the schema files), drops
//! the others before they are sent and counts them in one line; without it,
//! `--any-json` sends inputs outside the contract and the report counts
//! them as robustness.

use crate::common;

use common::{conform, read_json};
use serde_json::{Value, json};
use std::path::Path;

/// Chat's wire schema for `version`, built by hand: the strict input of a
/// document not marked `robustness`.
fn chat_wire_schema(version: u64) -> jsonschema::Validator {
    let file = if version == 2 { "schemas/chat.v2.schema.json" } else { "schemas/chat.schema.json" };
    let document = read_json(&common::root().join(file));
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": document["$defs"].clone(),
        "$ref": "#/$defs/input",
    });
    jsonschema::draft202012::new(&schema).unwrap_or_else(|err| panic!("{file}: {err}"))
}

/// Explores chat with `--any-json` (and the extra flags) through the
/// recording relay; the report and the (version, input) of every run line
/// the adapter received.
fn explore_recorded(dir: &Path, python: &str, extra: &[&str]) -> (common::Finished, Value, Vec<(u64, Value)>) {
    let record = dir.join("record.jsonl");
    let out = dir.join("reports");
    let adapter = format!(
        "{python} {} {} {}",
        common::path_arg("tests/adapters/recording.py"),
        env!("CARGO_BIN_EXE_conform"),
        record.display()
    );
    let mut args = vec![
        "explore",
        "--suite",
        "chat",
        "--impl-cmd",
        &adapter,
        "--any-json",
        "--count",
        "150",
        "--seed",
        "7",
        "-j",
        "1",
        "--no-pending",
        "--format",
        "json",
        "--format",
        "pretty",
        "--out",
    ];
    let out_arg = out.display().to_string();
    args.push(&out_arg);
    args.extend_from_slice(extra);
    let finished = conform(&args);
    let report = read_json(&out.join("explore-report.json"));
    let lines = std::fs::read_to_string(&record).unwrap_or_default();
    let inputs = lines
        .lines()
        .map(|line| {
            // The project's parser: inputs may hold lone surrogates.
            let run: Value = conform::json::parse_value(line).unwrap_or_else(|err| panic!("{err}: {line}"));
            (run["fixtureVersion"].as_u64().unwrap_or(1), run["input"].clone())
        })
        .collect();
    std::fs::remove_file(&record).ok();
    (finished, report, inputs)
}

fn explore_in_contract_sends_only_inputs_valid_against_the_wire_schema() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let schemas = [chat_wire_schema(1), chat_wire_schema(2)];
    let outside = |inputs: &[(u64, Value)]| {
        inputs.iter().filter(|(version, input)| !schemas[usize::from(*version == 2)].is_valid(input)).count()
    };
    let dir = tempfile::tempdir().unwrap();

    // Without --in-contract, --any-json sends inputs no hub sends, and the
    // report counts them.
    let (finished, report, inputs) = explore_recorded(dir.path(), python, &[]);
    assert!(matches!(finished.code, Some(0 | 1)), "{}", finished.text());
    assert!(!inputs.is_empty(), "{}", finished.text());
    let robustness = outside(&inputs);
    assert!(robustness > 0, "--any-json sends inputs outside the wire contract");
    assert_eq!(report["in_contract"], false);
    assert_eq!(report["summary"]["robustness"].as_u64(), Some(robustness as u64), "{}", report["summary"]);

    // With it, every input sent is valid against the wire schema, and the
    // dropped draws are counted in one line.
    let (finished, report, inputs) = explore_recorded(dir.path(), python, &["--in-contract"]);
    assert!(matches!(finished.code, Some(0 | 1)), "{}", finished.text());
    assert!(!inputs.is_empty(), "{}", finished.text());
    assert_eq!(outside(&inputs), 0, "--in-contract sent an input outside the wire schema");
    assert_eq!(report["in_contract"], true);
    assert_eq!(report["summary"]["robustness"], 0);
    let dropped = report["summary"]["dropped"].as_u64().unwrap_or(0);
    assert!(dropped > 0, "{}", report["summary"]);
    let line = format!("--in-contract: {dropped} generated inputs outside the wire contract dropped before being sent");
    let lines: Vec<&str> = finished.stdout.lines().filter(|text| text.contains("--in-contract:")).collect();
    assert_eq!(lines.len(), 1, "{}", finished.stdout);
    assert!(lines[0].contains(&line), "{} does not say {line}", lines[0]);
}

crate::trials![explore_in_contract_sends_only_inputs_valid_against_the_wire_schema];
