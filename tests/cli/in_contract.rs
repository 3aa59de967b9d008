//! In contract or robustness: `conform explore --in-contract` sends only
//! inputs valid against the suite's wire schema (checked here against chat's
//! strict input schema, compiled on its own from the schema files), drops
//! the others before they are sent and counts them in one line; without it,
//! `--any-json` sends inputs outside the contract and the report counts
//! them as robustness. `conform run` labels the fixtures whose input is
//! outside the wire schema in every report format.

use crate::common;

use common::{assert_valid_report, chat_fixture, conform, conform_in, read_json, write_fixture};
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

/// A tree with chat's bundled robustness fixture (passing), a copy of it
/// whose expected `hasReadyEvent` is wrong (failing) and an in-contract
/// fixture that fails.
fn robustness_tree(dir: &Path) -> std::path::PathBuf {
    let chat = dir.join("fixtures/chat");
    let bundled =
        read_json(&common::root().join("fixtures/chat/robustness-rows-not-objects-and-absent-local-ids.json"));
    write_fixture(&chat, &bundled);
    let mut failing = bundled.clone();
    failing["name"] = json!("robustness-failing");
    failing["expected"]["hasReadyEvent"] = json!(!bundled["expected"]["hasReadyEvent"].as_bool().unwrap());
    write_fixture(&chat, &failing);
    let mut in_contract = chat_fixture("in-contract-failing", "hello", "hello");
    in_contract["expected"]["hasReadyEvent"] = json!(true);
    write_fixture(&chat, &in_contract);
    dir.join("fixtures")
}

fn run_labels_fixtures_whose_input_is_outside_the_wire_schema_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    robustness_tree(dir.path());
    let args = [
        "run",
        "fixtures",
        "--no-progress",
        "--out",
        "out",
        "--format",
        "pretty",
        "--format",
        "json",
        "--format",
        "junit",
        "--format",
        "markdown",
        "--format",
        "html",
    ];
    let finished = conform_in(dir.path(), &args);
    assert_eq!(finished.code, Some(1), "{}", finished.text());
    let out = dir.path().join("out");

    // JSON: a `contract` member on the robustness fixtures only, passing or not.
    let report = read_json(&out.join("conform-report.json"));
    assert_valid_report(&report);
    let contract = |id: &str| {
        let case =
            report["cases"].as_array().unwrap().iter().find(|case| case["id"] == id).unwrap_or_else(|| panic!("{id}"));
        case.get("contract").cloned()
    };
    assert_eq!(contract("chat/robustness-rows-not-objects-and-absent-local-ids"), Some(json!("robustness")));
    assert_eq!(contract("chat/robustness-failing"), Some(json!("robustness")));
    assert_eq!(contract("chat/in-contract-failing"), None);

    // Terminal: the label beside the failing case's id.
    let line = |id: &str| finished.stdout.lines().find(|line| line.contains(id)).map(str::to_owned).unwrap_or_default();
    assert!(line("chat/robustness-failing").contains("chat/robustness-failing [robustness]"), "{}", finished.stdout);
    assert!(!line("chat/in-contract-failing").contains("robustness"), "{}", finished.stdout);

    // JUnit: the label leads the failure message.
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    assert!(junit.contains("message=\"[robustness] "), "{junit}");
    assert_eq!(junit.matches("[robustness]").count(), 1, "only the failing robustness case: {junit}");

    // Markdown: a badge in the failing case's summary.
    let markdown = std::fs::read_to_string(out.join("conform-report.md")).unwrap();
    let summary = |id: &str| {
        let head = format!("<details><summary><code>{id}</code>");
        markdown.lines().find(|line| line.starts_with(&head)).unwrap_or_default().to_owned()
    };
    assert!(summary("chat/robustness-failing").contains("· <i>robustness</i>"), "{markdown}");
    assert!(!summary("chat/in-contract-failing").is_empty(), "{markdown}");
    assert!(!summary("chat/in-contract-failing").contains("robustness"), "{markdown}");

    // HTML, as rendered: a badge on both robustness fixtures' rows.
    let html_path = out.join("conform-report.html");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert_eq!(html.matches("class=\"badge contract-robustness\"").count(), 2, "{html}");
    let Some(chromium) = common::chromium() else { return };
    let profile = dir.path().join("chromium-profile");
    let dump = std::process::Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--virtual-time-budget=5000", "--dump-dom", &format!("file://{}", html_path.display())])
        .output()
        .expect("chromium runs");
    assert!(dump.status.success(), "{}", String::from_utf8_lossy(&dump.stderr));
    let dom = String::from_utf8_lossy(&dump.stdout);
    assert!(dom.contains("data-ready=\"1\""), "the inline script ran");
    for id in ["chat/robustness-failing", "chat/robustness-rows-not-objects-and-absent-local-ids"] {
        let at = dom.find(&format!("<code class=\"id\">{id}</code>")).unwrap_or_else(|| panic!("{id} is rendered"));
        let row = &dom[..at];
        let badge = row.rfind("class=\"badge contract-robustness\"").unwrap_or(0);
        assert!(badge > row.rfind("class=\"case").unwrap_or(usize::MAX), "{id} has its badge");
    }
    assert!(!dom.contains("contract-robustness\" title=\"the input is outside the suite's wire schema: no real hub sends it\">robustness</span><code class=\"id\">chat/in-contract-failing"));
}

crate::trials![
    explore_in_contract_sends_only_inputs_valid_against_the_wire_schema,
    run_labels_fixtures_whose_input_is_outside_the_wire_schema_in_every_format
];
