//! `conform coverage`: rules reached and unreached per suite, and candidate
//! fixtures ranked by the rules they would add.

use crate::common;

use common::{conform, hapi_suite, root};
use conform::suite_api::introduced_in;
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

/// The coverage of one suite's rules of one fixtureVersion.
fn part<'r>(report: &'r Value, suite: &str, version: u64) -> &'r Value {
    report["coverage"]["suites"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["suite"] == suite && s["version"] == version))
        .unwrap_or(&Value::Null)
}

/// The chat reference's version 1 rules.
fn chat(report: &Value) -> &Value {
    part(report, "chat", 1)
}

/// Listed rules of fixtureVersion 2 no schema-valid fixture can reach (unit
/// tests cover them).
const V2_RULES_WITHOUT_FIXTURES: [&str; 2] = [
    // The schema requires a numeric seq, and JSON numbers are finite.
    "v2.c3.watermark-without-seq-is-0",
    // See RULES_WITHOUT_FIXTURES in tests/references/chat_invariants.rs.
    "v2.p1.non-string-tool-call-id-correlates-with-nothing",
];

fn reached_and_unreached_partition_the_chat_rules() {
    let report = coverage_json(&["fixtures"]);
    let suite = chat(&report);
    let known = strings(&suite["known"]);
    let reached: BTreeSet<String> =
        suite["reached"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default();
    let unreached = strings(&report["unreached"]["chat"]);
    let version_1_rules = conform::suites::chat::reference::RULES.iter().filter(|rule| introduced_in(rule) == 1);
    assert_eq!(known.len(), version_1_rules.count());
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

fn candidates_are_ranked_by_the_rules_they_add() {
    let Some(corpus) = hapi_suite("chat") else { return };
    let corpus = corpus.to_str().unwrap();
    let alone = coverage_json(&[corpus]);
    let corpus_rules: BTreeSet<String> =
        chat(&alone)["reached"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default();
    let both = coverage_json(&[corpus, "fixtures/chat"]);
    // Both parts: the project's fixtures reach version 2 rules too.
    let all_rules: BTreeSet<String> = [chat(&both), part(&both, "chat", 2)]
        .iter()
        .flat_map(|part| part["reached"].as_object().map(|r| r.keys().cloned().collect::<Vec<_>>()).unwrap_or_default())
        .collect();

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

/// Outside chat (whose three unfixturable rules `tests/references/chat_invariants.rs`
/// names), the project's fixtures reach every rule each suite lists.
fn own_fixtures_reach_every_listed_rule_of_the_other_suites() {
    let report = coverage_json(&["fixtures"]);
    let suites = report["coverage"]["suites"].as_array().cloned().unwrap_or_default();
    let names: BTreeSet<String> = suites.iter().filter_map(|s| s["suite"].as_str().map(str::to_owned)).collect();
    let expected: BTreeSet<String> = conform::suites::all().iter().map(|s| s.name().to_owned()).collect();
    assert_eq!(names, expected, "every suite has fixtures in fixtures/");
    for suite in suites.iter().filter(|s| s["suite"] != "chat" || s["version"] != 1) {
        let label = if suite["version"] == 1 {
            suite["suite"].as_str().unwrap_or_default().to_owned()
        } else {
            format!("{} v{}", suite["suite"].as_str().unwrap_or_default(), suite["version"])
        };
        let known = strings(&suite["known"]);
        assert!(!known.is_empty(), "{label} lists its rules");
        let unreached: BTreeSet<String> = strings(&report["unreached"][label.as_str()])
            .into_iter()
            .filter(|rule| !V2_RULES_WITHOUT_FIXTURES.contains(&rule.as_str()))
            .collect();
        assert!(unreached.is_empty(), "{label}: no fixture reaches {unreached:?}");
    }
}

/// The rules fixtureVersion 2 introduced are reported apart, per suite, and
/// only version 2 fixtures count toward them.
fn the_rules_of_version_2_are_reported_apart() {
    let report = coverage_json(&["fixtures"]);
    let text = conform(&["coverage", "fixtures"]).stdout;
    for suite in ["chat", "sse", "pagination", "catalogs"] {
        let listed: BTreeSet<String> = conform::suites::find(suite)
            .map(|s| s.rules().iter().filter(|rule| introduced_in(rule) == 2).map(|rule| (*rule).to_owned()).collect())
            .unwrap_or_default();
        assert!(!listed.is_empty(), "{suite} lists version 2 rules");
        let v2 = part(&report, suite, 2);
        assert_eq!(strings(&v2["known"]), listed, "{suite} v2 knows exactly its v2 rules");
        let v1 = part(&report, suite, 1);
        assert!(strings(&v1["known"]).is_disjoint(&listed), "{suite}: a v2 rule is not a v1 rule");
        let own_v2 = std::fs::read_dir(root().join("fixtures").join(suite))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|entry| {
                        let path = entry.path();
                        suite == "catalogs" || common::read_document(&path)["fixtureVersion"] == 2
                    })
                    .count()
            })
            .unwrap_or(0);
        assert_eq!(v2["fixtures"].as_u64(), Some(own_v2 as u64), "{suite}: only version 2 fixtures count");
        let reached = v2["reached"].as_object().map_or(0, serde_json::Map::len);
        let fixtures = if own_v2 == 1 { "1 fixture reaches".to_owned() } else { format!("{own_v2} fixtures reach") };
        assert!(text.contains(&format!("{suite} v2: {fixtures} {reached} of {} rules", listed.len())), "{text}");
    }
    // A version 1 corpus reaches none of them, yet sees them listed.
    let Some(corpus) = hapi_suite("chat") else { return };
    let alone = coverage_json(&[corpus.to_str().unwrap_or_default()]);
    let v2 = part(&alone, "chat", 2);
    assert_eq!(v2["fixtures"].as_u64(), Some(0));
    assert_eq!(v2["reached"], serde_json::json!({}));
    assert_eq!(strings(&alone["unreached"]["chat v2"]).len(), strings(&v2["known"]).len());
}

crate::trials![
    reached_and_unreached_partition_the_chat_rules,
    candidates_are_ranked_by_the_rules_they_add,
    own_fixtures_reach_every_listed_rule_of_the_other_suites,
    the_rules_of_version_2_are_reported_apart
];
