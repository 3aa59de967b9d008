//! `report merge` merges only shards that add up to one whole selection:
//! each report records what it selected (fixture tree, `--suite`,
//! `--filter`, partition, fixture count), and a merge of reports of other
//! selections, of an incomplete split, or of a shard whose cases were
//! removed is one line and exit 2. Each of these merged before, to a green
//! report of fewer cases than the selection holds.

use crate::common;

use common::{Finished, assert_valid_report, chat_fixture, conform_in, read_json, write_fixture};
use serde_json::{Value, json};
use std::path::Path;

/// Fixtures of a second suite, copied from the bundled tree: the first two
/// fall in shard 2/2, the last in 1/2.
const SSE_FIXTURES: [&str; 3] = [
    "active-at-threshold-symmetric-strict-and-backward",
    "stale-wrapper-makes-keepalive-relevant",
    "absent-watermark-rejects-version-zero-and-negative",
];

/// `fixtures/` under `root`: 4 passing and 3 failing chat fixtures and
/// three sse fixtures (10 in all).
fn two_suite_tree(root: &Path) {
    let tree = root.join("fixtures");
    for (name, broken) in [
        ("pass-1", false),
        ("pass-2", false),
        ("pass-3", false),
        ("pass-4", false),
        ("broken-1", true),
        ("broken-2", true),
        ("broken-3", true),
    ] {
        let expected = if broken { format!("{name} (as the spec says)") } else { name.to_owned() };
        write_fixture(&tree.join("chat"), &chat_fixture(name, name, &expected));
    }
    std::fs::create_dir_all(tree.join("sse")).unwrap();
    for name in SSE_FIXTURES {
        let file = format!("{name}.json");
        std::fs::copy(common::root().join("fixtures/sse").join(&file), tree.join("sse").join(&file)).unwrap();
    }
}

fn run(dir: &Path, args: &[&str]) -> Finished {
    let output = conform_in(dir, args);
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

/// Runs `conform run` with `args` into `out` (JSON only).
fn shard(dir: &Path, out: &str, args: &[&str]) -> Value {
    let output = run(dir, &[&["run"], args, &["--format", "json", "--out", out]].concat());
    assert!(output.code.is_some_and(|code| code <= 1), "{args:?}: {}", output.stderr);
    read_json(&dir.join(out).join("conform-report.json"))
}

/// Merges the reports and expects a refusal: exit 2 and one line.
fn refused(dir: &Path, reports: &[&str]) -> String {
    let merged = run(dir, &[&["report", "merge"], reports, &["--out", "merged"]].concat());
    assert_eq!(merged.code, Some(2), "{reports:?}: {}{}", merged.stdout, merged.stderr);
    assert_eq!(merged.stderr.trim_end().lines().count(), 1, "one line: {}", merged.stderr);
    assert!(merged.stdout.is_empty(), "{}", merged.stdout);
    assert!(!dir.join("merged").exists(), "nothing is written");
    merged.stderr
}

fn shards_of_other_selections_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    two_suite_tree(dir);
    let first = shard(dir, "whole-1", &["fixtures", "--partition", "1/2"]);
    let second = shard(dir, "whole-2", &["fixtures", "--partition", "2/2"]);
    let selection = &second["selection"];
    assert_eq!(selection["fixtures"], 10, "{selection}");
    assert_eq!(selection["suites"], json!([]));
    assert_eq!(selection["filters"], json!([]));
    let selected = |report: &Value| report["selection"]["selected"].as_u64().unwrap();
    assert_eq!(selected(&first) + selected(&second), 10);
    assert_eq!(first["selection"]["digest"], selection["digest"]);
    let root = std::fs::canonicalize(dir.join("fixtures")).unwrap();
    assert_eq!(selection["roots"], json!([root.display().to_string()]));

    // Shard 2/2 of a narrower selection leaves the sse fixtures of shard 2 out.
    shard(dir, "chat-2", &["fixtures", "--partition", "2/2", "--suite", "chat"]);
    let line = refused(dir, &["whole-1/conform-report.json", "chat-2/conform-report.json"]);
    assert!(line.contains("error: report 2 selected --suite chat, report 1 every suite"), "{line}");
    shard(dir, "filtered-2", &["fixtures", "--partition", "2/2", "--filter", "chat/*"]);
    let line = refused(dir, &["whole-1/conform-report.json", "filtered-2/conform-report.json"]);
    assert!(line.contains("report 2 selected --filter chat/*, report 1 no --filter"), "{line}");
    shard(dir, "narrow-2", &["fixtures/chat", "--partition", "2/2"]);
    let line = refused(dir, &["whole-1/conform-report.json", "narrow-2/conform-report.json"]);
    assert!(
        line.contains("report 2 selected 7 fixtures under fixtures/chat, report 1 10 fixtures under fixtures"),
        "{line}"
    );

    // The same paths, another tree: named by their canonical roots and the ids' digest.
    let elsewhere = dir.join("elsewhere");
    two_suite_tree(&elsewhere);
    std::fs::remove_file(elsewhere.join("fixtures/chat/pass-1.json")).unwrap();
    write_fixture(&elsewhere.join("fixtures/chat"), &chat_fixture("pass-9", "pass-9", "pass-9"));
    shard(&dir.join("elsewhere"), "other-2", &["fixtures", "--partition", "2/2"]);
    let line = refused(dir, &["whole-1/conform-report.json", "elsewhere/other-2/conform-report.json"]);
    assert!(line.contains("report 2 selected 10 fixtures under ") && line.contains("(ids digest "), "{line}");
    assert!(line.contains(&root.display().to_string()), "{line}");

    // A shard whose cases were removed, and one that lost a case.
    let mut emptied = second.clone();
    emptied["cases"] = json!([]);
    std::fs::write(dir.join("emptied.json"), emptied.to_string()).unwrap();
    let line = refused(dir, &["whole-1/conform-report.json", "emptied.json"]);
    let expected = format!("report 2 (shard 2/2) holds 0 of the {} cases it selected", selected(&second));
    assert!(line.contains(&expected), "{line}");
    let mut short = first.clone();
    short["cases"].as_array_mut().unwrap().pop();
    std::fs::write(dir.join("short.json"), short.to_string()).unwrap();
    let line = refused(dir, &["short.json", "whole-2/conform-report.json"]);
    assert!(line.contains(&format!("report 1 (shard 1/2) holds {} of the", selected(&first) - 1)), "{line}");

    // A missing shard, and reports written before reports said what they selected.
    let line = refused(dir, &["whole-1/conform-report.json"]);
    assert!(line.contains("error: shard 2/2 is missing"), "{line}");
    let mut old = second.clone();
    old.as_object_mut().unwrap().remove("selection");
    std::fs::write(dir.join("old.json"), old.to_string()).unwrap();
    let line = refused(dir, &["whole-1/conform-report.json", "old.json"]);
    assert!(line.contains("report 2 does not say which fixtures it selected"), "{line}");
    assert!(line.contains("rerun the shards with this conform"), "{line}");

    // The shards of one selection merge into the whole run.
    let merged =
        run(dir, &["report", "merge", "whole-2/conform-report.json", "whole-1/conform-report.json", "--out", "merged"]);
    assert_eq!(merged.code, Some(1), "{}", merged.stderr);
    assert_eq!(merged.stdout, "7 passed, 3 failed\n");
    let report = read_json(&dir.join("merged/conform-report.json"));
    assert_valid_report(&report);
    assert!(report.get("partition").is_none());
    assert_eq!(report["selection"]["selected"], 10);
    assert_eq!(report["selection"]["digest"], selection["digest"]);
}

/// The merged report is the full run's: the same cases in the same order,
/// counts and selection (times and paths aside).
fn a_merge_of_every_shard_is_the_full_run() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    two_suite_tree(dir);
    let full = shard(dir, "full", &["fixtures"]);
    for k in 1..=3 {
        shard(dir, &format!("shard-{k}"), &["fixtures", "--partition", &format!("{k}/3")]);
    }
    let merged = run(
        dir,
        &[
            "report",
            "merge",
            "shard-3/conform-report.json",
            "shard-1/conform-report.json",
            "shard-2/conform-report.json",
            "--out",
            "merged",
        ],
    );
    assert_eq!(merged.code, Some(1), "{}", merged.stderr);
    let merged = read_json(&dir.join("merged/conform-report.json"));
    for member in ["selection", "summary", "suites", "cases", "clusters"] {
        let strip = |value: &Value| {
            let mut value = value.clone();
            if let Some(cases) = value.as_array_mut() {
                for case in cases {
                    case.as_object_mut().map(|case| case.remove("duration_ms"));
                }
            }
            value
        };
        assert_eq!(strip(&merged[member]), strip(&full[member]), "{member}");
    }
}

crate::trials![shards_of_other_selections_are_refused, a_merge_of_every_shard_is_the_full_run];
