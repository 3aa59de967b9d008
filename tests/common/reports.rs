//! Reading what a run wrote: JSON files, the JSON report and its verdicts,
//! checked against the report schema.

use serde_json::Value;
use std::path::Path;

/// A JSON file, parsed.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The JSON report written into `out`.
pub fn report(out: &Path) -> Value {
    read_json(&out.join("conform-report.json"))
}

/// `(id, verdict)` of every case, in report order.
pub fn verdict_list(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .expect("the report lists its cases")
        .iter()
        .map(|case| (case["id"].as_str().unwrap().to_owned(), case["verdict"].as_str().unwrap().to_owned()))
        .collect()
}

/// Asserts that `report` satisfies `schemas/report.schema.json`.
pub fn assert_valid_report(report: &Value) {
    let schema: Value = serde_json::from_str(conform::report::REPORT_SCHEMA).expect("the report schema parses");
    let validator = jsonschema::draft202012::new(&schema).expect("the report schema compiles");
    let errors: Vec<String> = validator.iter_errors(report).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
