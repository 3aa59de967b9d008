//! A small hand-made run for the writers' golden tests: one case of every
//! verdict a run usually shows (pass, fail, error, crash, timeout, skipped,
//! unsupported, xfail, xpass) over three suites, with a baseline, a corpus
//! warning, stderr and a line diff. Timings, paths and dates vary on
//! purpose and are redacted by [`redactions`].
#![cfg(test)]

use super::baseline_summary::{BaselineSummary, EntryOutcome, EntryStatus};
use super::model::{
    CaseReport, DifferenceReport, HarnessInfo, REPORT_FORMAT, REPORT_FORMAT_VERSION, RunReport, Verdict,
};
use crate::compare::{DIFF_CONTEXT, differences, text_diff};
use crate::fixture::Notice;
use crate::implementation::{ImplementationInfo, ImplementationKind};
use crate::json::to_canonical_string;
use serde_json::{Value, json};

/// Where the sample's fixtures live (redacted in snapshots).
pub const CORPUS: &str = "/home/dev/corpus";

/// A case of `suite`, read from `CORPUS/suite/name.json`.
pub fn case(suite: &str, name: &str, verdict: Verdict, message: Option<&str>) -> CaseReport {
    CaseReport {
        fixture_version: Some(1),
        duration_ms: 3.25 + name.len() as f64,
        message: message.map(str::to_owned),
        ..CaseReport::new(
            format!("{suite}/{name}"),
            suite,
            name.to_owned(),
            format!("{CORPUS}/{suite}/{name}.json"),
            verdict,
        )
    }
}

/// A failing case whose output differs from `expected`: differences, line
/// diff, input, expected and actual, as the judge records them.
pub fn failing(suite: &str, name: &str, input: Value, expected: Value, actual: Value) -> CaseReport {
    let (found, omitted) = differences(&expected, &actual);
    let differences: Vec<DifferenceReport> = found.iter().map(DifferenceReport::from).collect();
    let message = differences.first().map(|d| d.message.clone());
    CaseReport {
        diff: text_diff(&to_canonical_string(&expected), &to_canonical_string(&actual), DIFF_CONTEXT),
        differences,
        omitted_differences: omitted,
        input: Some(input),
        expected: Some(expected),
        actual: Some(actual),
        ..case(suite, name, Verdict::Fail, message.as_deref())
    }
}

/// `case` with `rules` named for each of its differences (as the judge
/// names them from the reference's provenance).
pub fn with_rules(mut case: CaseReport, rules: &[&str]) -> CaseReport {
    for difference in &mut case.differences {
        difference.rules = rules.iter().map(|rule| (*rule).to_owned()).collect();
    }
    case
}

/// The chat output of one tool call in `state`, seen in `blocks` and in the
/// derived `visibleBlocks` (a tool group).
pub fn tool_output(state: &str) -> Value {
    let block = json!({"kind": "tool-call", "id": "t1", "tool": {"name": "Bash", "state": state}});
    json!({"blocks": [block], "visibleBlocks": [{"kind": "tool-group", "tools": [block]}]})
}

/// The sample run.
pub fn run() -> RunReport {
    let input = json!({"messages": [{"type": "tool_result", "is_error": true, "content": "exit 2"}]});
    let mut cases = vec![
        case("chat", "passes", Verdict::Pass, None),
        with_rules(
            failing("chat", "tool-error-state", input, tool_output("error"), tool_output("completed")),
            &["reduce.tool.result-error", "output.claude.tool-result.is-error"],
        ),
        CaseReport {
            contract: crate::suite_api::Contract::Robustness,
            ..case(
                "chat",
                "throws",
                Verdict::Error,
                Some("decoder threw: TypeError: cannot read \"blocks\" of undefined"),
            )
        },
        CaseReport {
            stderr: Some("thread 'main' panicked at src/decode.rs:41:9:\nindex out of bounds\n".to_owned()),
            ..case(
                "chat",
                "crashes",
                Verdict::Crash,
                Some("the implementation exited (exit status 101) during the case"),
            )
        },
        case("sse", "slow-stream", Verdict::Timeout, Some("no answer within 10 s")),
        case("sse", "declined", Verdict::Skipped, Some("not implemented yet")),
        case("pagination", "paged", Verdict::Unsupported, Some("suite pagination is not implemented")),
        case("pagination", "known-gap", Verdict::Xfail, Some("/items: 2 missing elements")),
        case(
            "pagination",
            "fixed-gap",
            Verdict::Xpass,
            Some("listed in the baseline as fail (entry `pagination/fixed-gap`), but passed"),
        ),
    ];
    for case in &mut cases {
        if case.verdict != Verdict::Pass && case.input.is_none() {
            case.input = Some(json!({"lines": ["data: {}"]}));
            case.expected = Some(json!({"items": []}));
        }
    }
    let mut report = RunReport {
        format: REPORT_FORMAT.to_owned(),
        format_version: REPORT_FORMAT_VERSION,
        harness: HarnessInfo { name: "conform".to_owned(), version: "0.1.0".to_owned() },
        implementation: ImplementationInfo {
            name: "sample-decoder".to_owned(),
            version: "2.3.1".to_owned(),
            language: "typescript".to_owned(),
            kind: ImplementationKind::Subprocess,
            command: Some("node adapter.js".to_owned()),
        },
        started_at: "2026-03-04T05:06:07.890Z".to_owned(),
        duration_ms: 1234.5,
        paths: vec![CORPUS.to_owned()],
        partition: None,
        selection: None,
        notices: vec![Notice::warning(format!("{CORPUS}/chat/old.json: fixture name `old` repeats another file's"))],
        summary: Default::default(),
        suites: Vec::new(),
        cases,
        clusters: Vec::new(),
        baseline: Some(BaselineSummary {
            path: "conform-baseline.toml".to_owned(),
            today: "2026-03-04".to_owned(),
            implementation: Some("sample-decoder".to_owned()),
            entries: vec![
                entry("pagination/known-gap", EntryStatus::Active, 3, |e| e.expected = vec![e.id.clone()]),
                entry("pagination/fixed-gap", EntryStatus::Active, 7, |e| e.passed = vec![e.id.clone()]),
                entry("sse/gone", EntryStatus::Stale, 11, |_| {}),
            ],
        }),
        limits: Some(crate::report::limits::ARTIFACT_LIMITS),
    };
    report.recount();
    report
}

fn entry(id: &str, status: EntryStatus, line: usize, fill: impl FnOnce(&mut EntryOutcome)) -> EntryOutcome {
    let mut entry = EntryOutcome {
        id: id.to_owned(),
        verdict: Verdict::Fail,
        reason: "older pages are not merged yet".to_owned(),
        issue: Some("https://example.test/issues/7".to_owned()),
        expires: Some("2026-12-31".to_owned()),
        line,
        status,
        expected: Vec::new(),
        passed: Vec::new(),
        changed: Vec::new(),
    };
    fill(&mut entry);
    entry
}

/// insta settings that redact what varies between runs and machines:
/// timings, dates and the corpus path.
pub fn redactions() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(CORPUS), "[CORPUS]");
    settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", "[DATE]");
    settings.add_filter(r#""duration_ms": [0-9.e+-]+"#, "\"duration_ms\": [MS]");
    settings.add_filter(r#"time="[0-9.]+""#, "time=\"[S]\"");
    settings.add_filter(r"\d+\.\d+ ms\b", "[MS] ms");
    settings.add_filter(r"\d+\.\d+ s\b", "[S] s");
    settings
}

fn regex_escape(text: &str) -> String {
    regex::escape(text)
}

/// Runs `write` into a string.
pub fn render(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).expect("writing to memory succeeds");
    String::from_utf8(out).expect("reports are UTF-8")
}
