//! `conform explore` end to end: the reference over the subprocess protocol
//! finds no divergence; each planted decoder mutant (tests/adapters/mutants,
//! the reference with one rule wrong that no fixture pins) is found within
//! 20,000 inputs, in a cluster of its own, with a reduced example of at most
//! three items that becomes a pending fixture the reference passes and the
//! mutant fails; `--against-cmd` compares two external implementations and
//! the reference on either side; inputs are reproducible from the seed.

use crate::common;

use common::{conform, python, read_json};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_conform")
}

/// `python3 tests/adapters/mutants/NAME.py <conform>`.
fn mutant_cmd(python: &str, name: &str) -> String {
    format!("{python} {} {}", common::path_arg(&format!("tests/adapters/mutants/{name}.py")), binary())
}

fn explore_report(out: &Path) -> Value {
    read_json(&out.join("explore-report.json"))
}

/// A planted mutant: its adapter, its suite, and a fragment of the signature
/// of the cluster its bug makes (so the cluster found is the planted bug, not
/// noise).
struct Mutant {
    name: &'static str,
    suite: &'static str,
    signature: &'static str,
}

/// The planted mutants (see each adapter's docstring for its bug).
const MUTANTS: &[Mutant] = &[
    // Each cluster is named by the contract rule the reference's provenance
    // ranks first for the differing values (see `report::rules`).
    Mutant { name: "codex_numeric_error", suite: "chat", signature: "breaks reduce.tool.result-error" },
    Mutant { name: "fallback_surrogate", suite: "chat", signature: "breaks agent.unknown-payload-type-stringified" },
    Mutant { name: "exec_stale_error", suite: "codex-exec-events", signature: "breaks exec.turn-failed.done" },
    Mutant { name: "sse_case_fold", suite: "sse", signature: "breaks sse.flat.last-write-wins" },
    Mutant { name: "pagination_tie", suite: "pagination", signature: "breaks pagination.trim.queued-never-trimmed" },
    Mutant { name: "policy_python_strip", suite: "tool-policy", signature: "breaks policy.not-in-allowlist" },
    Mutant { name: "claude_error_bool", suite: "claude-events", signature: "breaks claude.block.tool-result" },
    Mutant { name: "summary_code_points", suite: "event-fold", signature: "breaks fold.delta.new-text-block" },
];

fn the_reference_over_the_protocol_finds_no_divergence() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    let finished = conform(&[
        "explore",
        "--impl-cmd",
        "conform adapter",
        "--count",
        "200",
        "--seed",
        "11",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
        "--format",
        "markdown",
    ]);
    assert_eq!(finished.code, Some(0), "{}", finished.text());
    let report = explore_report(&out);
    let explored: Vec<Value> = report["suites"].as_array().unwrap().clone();
    // Every suite of the registry with an input part is explored.
    let names: BTreeSet<&str> = explored.iter().map(|suite| suite["suite"].as_str().unwrap()).collect();
    let explorable: BTreeSet<&str> =
        conform::suites::all().iter().filter(|suite| !suite.is_table()).map(|suite| suite.name()).collect();
    assert_eq!(names, explorable);
    for suite in &explored {
        assert_eq!(suite["generated"], 200, "{suite}");
        assert_eq!(suite["diverged"], 0, "{suite}");
        let judged = suite["judged"].as_u64().unwrap();
        assert!(judged >= 180, "most inputs are valid cases: {suite}");
    }
    assert_eq!(report["clusters"], Value::Array(Vec::new()));
    let markdown = std::fs::read_to_string(out.join("explore-report.md")).unwrap();
    assert!(markdown.starts_with("## ✅ conform explore: "), "{markdown}");
}

fn every_planted_mutant_passes_every_bundled_fixture_of_its_suite() {
    let Some(python) = python() else { return };
    for mutant in MUTANTS {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        let command = mutant_cmd(python, mutant.name);
        // A mutant relays every other suite untouched, so its own suite's
        // fixtures are the ones that could pin its bug.
        let args = [
            "run",
            "fixtures",
            "--suite",
            mutant.suite,
            "--impl-cmd",
            &command,
            "-j",
            "2",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ];
        let finished = conform(&args);
        assert_eq!(finished.code, Some(0), "{}: a fixture pins this bug: {}", mutant.name, finished.text());
    }
}

fn every_planted_mutant_is_found_in_a_cluster_of_its_own_with_a_small_fixture() {
    let Some(python) = python() else { return };
    let mut signatures = BTreeSet::new();
    for mutant in MUTANTS {
        let (name, suite) = (mutant.name, mutant.suite);
        let dir = tempfile::tempdir().unwrap();
        let (out, pending) = (dir.path().join("reports"), dir.path().join("pending"));
        let command = mutant_cmd(python, name);
        let finished = conform(&[
            "explore",
            "--impl-cmd",
            &command,
            "--suite",
            suite,
            "--count",
            "20000",
            "--max-clusters",
            "1",
            "--seed",
            "7",
            "-j",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--pending-dir",
            pending.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(finished.code, Some(1), "{name}: {}", finished.text());
        let report = explore_report(&out);
        let clusters = report["clusters"].as_array().unwrap();
        // --max-clusters 1 stops at the first divergence; its causes are
        // the clusters (one input may show one bug in two places).
        assert!(!clusters.is_empty() && clusters.len() <= 2, "{name}: {clusters:#?}");
        let cluster = clusters
            .iter()
            .find(|c| c["signature"].as_str().unwrap().contains(mutant.signature))
            .unwrap_or_else(|| panic!("{name}: no cluster signed `{}`: {clusters:#?}", mutant.signature));
        let first: u64 = cluster["first_input"].as_str().unwrap().split('#').nth(1).unwrap().parse().unwrap();
        assert!(first < 20_000, "{name}: first found at input {first}");
        let example = &cluster["example"];
        let items = example["items_after"].as_u64().unwrap();
        assert!(items <= 3, "{name}: {items} items left: {example:#}");
        for other in clusters {
            let signature = other["signature"].as_str().unwrap().to_owned();
            assert!(signatures.insert((suite.to_owned(), signature.clone())), "{name} shares `{signature}`");
        }
        eprintln!("{name}: found at {suite}#{first}, reduced to {items} items: {}", cluster["signature"]);

        // The pending fixture is a valid case the reference passes and the
        // mutant fails.
        let written = PathBuf::from(cluster["pending"].as_str().unwrap());
        assert!(written.to_str().unwrap().ends_with(".json.new"), "{written:?}");
        // Its input is the canonical input both sides computed on.
        let text = std::fs::read_to_string(&written).unwrap();
        let document = conform::json::parse_value(&text).unwrap();
        assert!(conform::json::is_canonical(&document["input"]), "{name}: {text}");
        assert_eq!(text, conform::json::to_canonical_string(&document), "{name}");
        let tree = dir.path().join("tree").join(suite);
        std::fs::create_dir_all(&tree).unwrap();
        let accepted = tree.join(written.file_name().unwrap().to_str().unwrap().trim_end_matches(".new"));
        std::fs::copy(&written, &accepted).unwrap();
        let reference =
            conform(&["run", accepted.to_str().unwrap(), "--format", "json", "--out", out.to_str().unwrap()]);
        assert_eq!(reference.code, Some(0), "{name}: {}", reference.text());
        let failing = conform(&[
            "run",
            accepted.to_str().unwrap(),
            "--impl-cmd",
            &command,
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(failing.code, Some(1), "{name}: {}", failing.text());
    }
}

/// Runs explore on tool-policy with the given sides; the report.
fn policy_run(dir: &Path, sides: &[&str]) -> (Option<i32>, Value) {
    let out = dir.join("reports");
    let mut args =
        vec!["explore", "--suite", "tool-policy", "--count", "3000", "--seed", "5", "-j", "2", "--no-pending"];
    args.extend_from_slice(sides);
    let out_text = out.to_str().unwrap().to_owned();
    args.extend_from_slice(&["--out", &out_text, "--format", "json"]);
    let finished = conform(&args);
    assert!(matches!(finished.code, Some(0 | 1)), "{}", finished.text());
    (finished.code, explore_report(&out))
}

fn against_cmd_compares_two_external_implementations_and_the_reference_on_either_side() {
    let Some(python) = python() else { return };
    let mutant = mutant_cmd(python, "policy_python_strip");

    // Two external implementations that agree.
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = policy_run(dir.path(), &["--impl-cmd", "conform adapter", "--against-cmd", "conform adapter"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["against"]["kind"], "subprocess");

    // Two external implementations that do not: no reference in the loop.
    let dir = tempfile::tempdir().unwrap();
    let (code, both) = policy_run(dir.path(), &["--impl-cmd", &mutant, "--against-cmd", "conform adapter"]);
    assert_eq!(code, Some(1));
    assert_eq!(both["implementation"]["name"], "mutant-policy-python-strip");
    assert_eq!(both["against"]["name"], "conform-reference");

    // The reference under test, judged against an external implementation.
    let dir = tempfile::tempdir().unwrap();
    let (code, reversed) = policy_run(dir.path(), &["--against-cmd", &mutant]);
    assert_eq!(code, Some(1));
    assert_eq!(reversed["implementation"]["kind"], "reference");
    assert_eq!(reversed["against"]["name"], "mutant-policy-python-strip");

    // The reference as the judge of an external implementation.
    let dir = tempfile::tempdir().unwrap();
    let (code, judged) = policy_run(dir.path(), &["--impl-cmd", &mutant]);
    assert_eq!(code, Some(1));
    assert_eq!(judged["against"]["kind"], "reference");

    // The same inputs diverge whichever way round.
    let count = |report: &Value| report["summary"]["diverged"].as_u64().unwrap();
    assert!(count(&both) > 0);
    assert_eq!(count(&both), count(&reversed));
    assert_eq!(count(&both), count(&judged));
}

fn inputs_are_reproducible_from_the_seed_and_the_report() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = policy_run(dir.path(), &["--impl-cmd", &mutant_cmd(python, "policy_python_strip")]);
    let cluster = &report["clusters"][0];
    let input_id = cluster["example"]["input_id"].as_str().unwrap();
    let replay = |seed: &str| conform(&["explore", "--suite", "tool-policy", "--seed", seed, "--replay", input_id]);
    let (first, second) = (replay("5"), replay("5"));
    assert!(first.success(), "{}", first.text());
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(first.stderr, second.stderr);
    // The mutation path printed is the one the report gives.
    for mutation in cluster["example"]["mutations"].as_array().unwrap() {
        assert!(first.stderr.contains(mutation.as_str().unwrap()), "{mutation} not in {}", first.stderr);
    }
    // Another seed makes another input.
    assert_ne!(replay("6").stderr, first.stderr);
    let bad = conform(&["explore", "--replay", "tool-policy"]);
    assert_eq!(bad.code, Some(2), "{}", bad.text());
}

fn explore_needs_an_implementation_to_compare() {
    let finished = conform(&["explore", "--count", "10"]);
    assert_eq!(finished.code, Some(2));
    assert!(finished.stderr.contains("--impl-cmd"), "{}", finished.stderr);
}

crate::trials![
    the_reference_over_the_protocol_finds_no_divergence,
    every_planted_mutant_passes_every_bundled_fixture_of_its_suite,
    every_planted_mutant_is_found_in_a_cluster_of_its_own_with_a_small_fixture,
    against_cmd_compares_two_external_implementations_and_the_reference_on_either_side,
    inputs_are_reproducible_from_the_seed_and_the_report,
    explore_needs_an_implementation_to_compare
];
