//! `conform coverage`: rules reached and unreached per suite, and candidate
//! fixtures ranked by the rules they would add.

mod common;

use common::{conform, hapi_suite, root};
use serde_json::Value;
use std::collections::BTreeSet;

fn coverage_json(args: &[&str]) -> Value {
    let mut all = vec!["coverage", "--json"];
    all.extend_from_slice(args);
    let output = conform(&all);
    assert!(output.success(), "{}", output.stderr);
    conform::json::parse_value(&output.stdout).unwrap_or(Value::Null)
}

fn strings(value: &Value) -> BTreeSet<String> {
    value.as_array().into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)).collect()
}

fn chat(report: &Value) -> &Value {
    report["coverage"]["suites"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["suite"] == "chat"))
        .unwrap_or(&Value::Null)
}

#[test]
fn reached_and_unreached_partition_the_chat_rules() {
    let report = coverage_json(&["fixtures"]);
    let suite = chat(&report);
    let known = strings(&suite["known"]);
    let reached: BTreeSet<String> =
        suite["reached"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default();
    let unreached = strings(&report["unreached"]["chat"]);
    assert_eq!(known.len(), conform::suites::chat::reference::RULES.len());
    assert!(reached.is_subset(&known), "every rule the reference reports is listed");
    assert_eq!(reached.union(&unreached).cloned().collect::<BTreeSet<_>>(), known);
    assert!(reached.is_disjoint(&unreached));
    // The project's own fixtures exist to pin what the corpus leaves open.
    assert!(reached.len() * 10 >= known.len() * 9, "{} of {} rules reached", reached.len(), known.len());

    let text = conform(&["coverage", "fixtures"]).stdout;
    let line = format!("chat: {} fixtures reach {} of {} rules", suite["fixtures"], reached.len(), known.len());
    assert!(text.contains(&line), "{text}");
    for rule in &unreached {
        assert!(text.contains(&format!("    {rule}\n")), "{rule} listed as unreached: {text}");
    }
}

#[test]
fn candidates_are_ranked_by_the_rules_they_add() {
    let Some(corpus) = hapi_suite("chat") else { return };
    let corpus = corpus.to_str().unwrap();
    let alone = coverage_json(&[corpus]);
    let corpus_rules: BTreeSet<String> =
        chat(&alone)["reached"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default();
    let both = coverage_json(&[corpus, "fixtures/chat"]);
    let all_rules: BTreeSet<String> =
        chat(&both)["reached"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default();

    let ranked = coverage_json(&[corpus, "--candidates", "fixtures/chat"]);
    let candidates = ranked["candidates"].as_array().cloned().unwrap_or_default();
    assert_eq!(candidates.len(), std::fs::read_dir(root().join("fixtures/chat")).map(|d| d.count()).unwrap_or(0));
    let gains: Vec<usize> = candidates.iter().map(|c| c["new_rules"].as_array().map_or(0, Vec::len)).collect();
    assert!(gains.windows(2).all(|pair| pair[0] >= pair[1]), "greedy gains never grow: {gains:?}");
    assert!(gains[0] > 1);
    // Together the candidates add exactly what the project's fixtures reach
    // beyond the corpus, each new rule credited once.
    let mut added = BTreeSet::new();
    for candidate in &candidates {
        for rule in strings(&candidate["new_rules"]) {
            assert!(added.insert(rule.clone()), "{rule} credited twice");
            assert!(!corpus_rules.contains(&rule), "{rule} is reached by the corpus already");
        }
    }
    assert_eq!(added, all_rules.difference(&corpus_rules).cloned().collect::<BTreeSet<_>>());
    eprintln!(
        "chat rules: HAPI corpus {} of {}, corpus + project fixtures {} of {}",
        corpus_rules.len(),
        conform::suites::chat::reference::RULES.len(),
        all_rules.len(),
        conform::suites::chat::reference::RULES.len()
    );
}

/// Outside chat (whose three unfixturable rules `tests/chat_invariants.rs`
/// names), the project's fixtures reach every rule each suite lists.
#[test]
fn own_fixtures_reach_every_listed_rule_of_the_other_suites() {
    let report = coverage_json(&["fixtures"]);
    let suites = report["coverage"]["suites"].as_array().cloned().unwrap_or_default();
    let names: BTreeSet<String> = suites.iter().filter_map(|s| s["suite"].as_str().map(str::to_owned)).collect();
    // The catalogs suite is one table, pinned by the HAPI corpus's fixture.
    let expected: BTreeSet<String> =
        conform::suites::all().iter().map(|s| s.name().to_owned()).filter(|name| name != "catalogs").collect();
    assert_eq!(names, expected, "every suite but catalogs has fixtures in fixtures/");
    for suite in suites.iter().filter(|s| s["suite"] != "chat") {
        let name = suite["suite"].as_str().unwrap_or_default();
        let known = strings(&suite["known"]);
        assert!(!known.is_empty(), "{name} lists its rules");
        let unreached = strings(&report["unreached"][name]);
        assert!(unreached.is_empty(), "{name}: no fixture reaches {unreached:?}");
    }
}
