//! `conform explore` end to end: the reference over the subprocess protocol
//! finds no divergence; each planted decoder mutant (tests/adapters/mutants,
//! the reference with one rule wrong that no fixture pins) is found within
//! 20,000 inputs as exactly one cluster named by the rule it breaks (two for
//! the mutant with two bugs), with a reduced example of at most three items
//! that becomes a pending fixture the reference passes, the mutant fails and
//! `conform run` reports as that one rule; an implementation of version 1
//! only gets no seed of version 2 (one line says how many were left out); `--against-cmd` compares two external implementations and
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

/// A planted mutant: its adapter, its suite, the clusters its bugs make
/// (each named by the contract rule it breaks: one per bug, so the cluster
/// found is the planted bug and nothing else), and how many inputs explore
/// makes (seed 7) to find them all: as few as find each bug reliably, since
/// every input runs through a Python relay.
struct Mutant {
    name: &'static str,
    suite: &'static str,
    clusters: &'static [&'static str],
    count: u32,
}

/// The planted mutants (see each adapter's docstring for its bug).
const MUTANTS: &[Mutant] = &[
    // Each cluster is named by the contract rule the reference's provenance
    // ranks first for the differing values (see `report::rules`).
    Mutant { name: "codex_numeric_error", suite: "chat", clusters: &["breaks reduce.tool.result-error"], count: 1000 },
    Mutant {
        name: "fallback_surrogate",
        suite: "chat",
        clusters: &["breaks agent.unknown-payload-type-stringified"],
        count: 300,
    },
    Mutant { name: "user_text_jvm_number", suite: "chat", clusters: &["breaks user.text.stringified"], count: 1500 },
    Mutant {
        name: "exec_stale_error",
        suite: "codex-exec-events",
        clusters: &["breaks exec.turn-failed.error"],
        count: 600,
    },
    Mutant { name: "sse_case_fold", suite: "sse", clusters: &["breaks sse.flat.last-write-wins"], count: 600 },
    Mutant {
        name: "pagination_tie",
        suite: "pagination",
        clusters: &["breaks pagination.order.id-tie-break"],
        count: 100,
    },
    Mutant {
        name: "policy_python_strip",
        suite: "tool-policy",
        clusters: &["breaks policy.not-in-allowlist"],
        count: 1000,
    },
    Mutant {
        name: "claude_error_bool",
        suite: "claude-events",
        clusters: &["breaks claude.block.tool-result"],
        count: 300,
    },
    Mutant { name: "summary_code_points", suite: "event-fold", clusters: &["breaks fold.tool.summary"], count: 300 },
    Mutant {
        name: "answer_null_allowed",
        suite: "codex-app-server-events",
        clusters: &["breaks app-server.approval.answer-unreadable"],
        count: 2200,
    },
    Mutant { name: "empty_error_flag", suite: "chat", clusters: &["breaks reduce.tool.result-completed"], count: 1000 },
];

/// The planted mutant with two bugs, each breaking its own rule (the
/// bugs of codex_numeric_error and user_text_jvm_number together).
const TWO_RULES: Mutant = Mutant {
    name: "chat_two_rules",
    suite: "chat",
    clusters: &["breaks reduce.tool.result-error", "breaks user.text.stringified"],
    count: 1500,
};

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
    for mutant in MUTANTS.iter().chain([&TWO_RULES]) {
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

fn every_planted_mutant_is_found_as_one_cluster_named_by_its_rule_with_a_small_fixture() {
    let Some(python) = python() else { return };
    let mut signatures = BTreeSet::new();
    for mutant in MUTANTS {
        found_as_its_rules(python, mutant);
        for signature in mutant.clusters {
            assert!(signatures.insert((mutant.suite, *signature)), "{} shares `{signature}`", mutant.name);
        }
    }
}

fn a_mutant_breaking_two_rules_is_found_as_exactly_two_clusters() {
    let Some(python) = python() else { return };
    found_as_its_rules(python, &TWO_RULES);
}

/// Explores `mutant` and checks that its divergences make exactly the
/// clusters it plants, each with a reduced example of at most three items
/// whose pending fixture the reference passes and the mutant fails, and that
/// `conform run` over that fixture reports the one rule the cluster names.
fn found_as_its_rules(python: &str, mutant: &Mutant) {
    let (name, suite) = (mutant.name, mutant.suite);
    let dir = tempfile::tempdir().unwrap();
    let (out, pending) = (dir.path().join("reports"), dir.path().join("pending"));
    let command = mutant_cmd(python, name);
    let count = mutant.count.to_string();
    let finished = conform(&[
        "explore",
        "--impl-cmd",
        &command,
        "--suite",
        suite,
        "--count",
        &count,
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
    let found: BTreeSet<&str> = clusters.iter().map(|c| c["signature"].as_str().unwrap()).collect();
    let planted: BTreeSet<&str> = mutant.clusters.iter().copied().collect();
    assert_eq!(found, planted, "{name}: one cluster per planted bug, named by its rule: {clusters:#?}");
    assert_eq!(clusters.len(), mutant.clusters.len(), "{name}: {clusters:#?}");
    for cluster in clusters {
        let signature = cluster["signature"].as_str().unwrap();
        let first: u64 = cluster["first_input"].as_str().unwrap().split('#').nth(1).unwrap().parse().unwrap();
        assert!(first < 20_000, "{name}: first found at input {first}");
        let example = &cluster["example"];
        let items = example["items_after"].as_u64().unwrap();
        assert!(items <= 3, "{name}: {items} items left: {example:#}");
        eprintln!("{name}: found at {suite}#{first}, reduced to {items} items: {signature}");

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
        // The run names the same one rule.
        let run = read_json(&out.join("conform-report.json"));
        let labels: Vec<&str> =
            run["clusters"].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap()).collect();
        assert_eq!(labels, [signature], "{name}: {run:#}");
        std::fs::remove_file(&accepted).unwrap();
    }
}

fn explore_on_a_version_1_only_implementation_spends_no_input_on_unsupported() {
    let Some(python) = python() else { return };
    // version_1_only.py exits when asked for a version 2 case, so a seed of
    // version 2 would show as a crash cluster, not only as unjudged inputs.
    let command = format!("{python} {} {}", common::path_arg("tests/adapters/version_1_only.py"), binary());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    let finished = conform(&[
        "explore",
        "--impl-cmd",
        &command,
        "--suite",
        "chat",
        "--count",
        "300",
        "--seed",
        "3",
        "-j",
        "2",
        "--no-pending",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "pretty",
        "--format",
        "json",
    ]);
    assert_eq!(finished.code, Some(0), "{}", finished.text());
    let report = explore_report(&out);
    let chat = &report["suites"][0];
    assert_eq!(chat["suite"], "chat");
    assert_eq!(chat["generated"], 300, "{chat}");
    assert_eq!(chat["judged"], 300, "every input is judged, none unsupported: {chat}");
    assert_eq!(report["clusters"], Value::Array(Vec::new()));
    // One line says how many seeds were left out and why: the bundled
    // chat fixtures of version 2.
    let version_2 = std::fs::read_dir(common::root().join("fixtures/chat"))
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        // Parsed as the harness reads fixtures (some hold lone surrogates).
        .filter(|text| conform::json::parse_value(text).unwrap()["fixtureVersion"] == 2)
        .count();
    assert!(version_2 > 0, "the corpus has chat fixtures of version 2");
    let line = format!(
        "{version_2} seeds left out: their fixtureVersion is not declared by every implementation under test (chat v2)"
    );
    let notices: Vec<&str> =
        report["notices"].as_array().unwrap().iter().map(|notice| notice["message"].as_str().unwrap()).collect();
    assert_eq!(notices.iter().filter(|message| **message == line).count(), 1, "{notices:?}");
    assert_eq!(finished.stdout.matches(&line).count(), 1, "{}", finished.stdout);
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

/// The reductions start the implementations again: the terminal still
/// names each side once (it named the implementation under test twice).
fn the_implementation_line_is_printed_once_per_side() {
    let Some(python) = python() else { return };
    let mutant = mutant_cmd(python, "policy_python_strip");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    let args = ["explore", "--suite", "tool-policy", "--count", "3000", "--seed", "5", "-j", "2", "--no-pending"];
    for (sides, expected) in [
        (vec!["--impl-cmd", mutant.as_str()], 1),
        (vec!["--impl-cmd", mutant.as_str(), "--against-cmd", "conform adapter"], 2),
    ] {
        let mut args = args.to_vec();
        args.extend_from_slice(&sides);
        args.extend_from_slice(&["--out", out.to_str().unwrap(), "--format", "json"]);
        let finished = conform(&args);
        assert_eq!(finished.code, Some(1), "{}", finished.text());
        // The mutant diverges, so its clusters were reduced with the implementations started again.
        let report = explore_report(&out);
        assert!(!report["clusters"].as_array().unwrap().is_empty(), "{report}");
        let lines = finished.stderr.lines().filter(|line| line.starts_with("implementation: ")).count();
        assert_eq!(lines, expected, "{}", finished.stderr);
    }
}

fn explore_needs_an_implementation_to_compare() {
    let finished = conform(&["explore", "--count", "10"]);
    assert_eq!(finished.code, Some(2));
    assert!(finished.stderr.contains("--impl-cmd"), "{}", finished.stderr);
}

crate::trials![
    the_reference_over_the_protocol_finds_no_divergence,
    every_planted_mutant_passes_every_bundled_fixture_of_its_suite,
    every_planted_mutant_is_found_as_one_cluster_named_by_its_rule_with_a_small_fixture,
    a_mutant_breaking_two_rules_is_found_as_exactly_two_clusters,
    explore_on_a_version_1_only_implementation_spends_no_input_on_unsupported,
    against_cmd_compares_two_external_implementations_and_the_reference_on_either_side,
    inputs_are_reproducible_from_the_seed_and_the_report,
    the_implementation_line_is_printed_once_per_side,
    explore_needs_an_implementation_to_compare
];
