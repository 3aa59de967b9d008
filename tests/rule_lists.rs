//! Every suite's rule list (`Suite::rules`, what `conform coverage` measures
//! against) names exactly the rule ids its reference's sources use: an id
//! reported but not listed would never show as unreached, and a listed id no
//! source reports would always show as unreached.
//!
//! And no source outside `src/suites/` names a suite: the tools ask the
//! registry and the suite contract, so adding a suite touches its folder and
//! one registry line only.
//!
//! Everything is derived from the registry: a suite's sources are its folder
//! `src/suites/<name>/` (dashes become underscores), its rule families are
//! the first dotted segments of the ids it lists, and code shared by several
//! suites (`src/suites/*.rs` and folders no suite owns, such as
//! `agent_events/`) may use the ids of any suite that lists them.

mod common;

use common::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// String literals shaped like rule ids of one of `families` in a source text.
fn rule_literals<'t>(source: &'t str, families: &BTreeSet<&str>) -> Vec<&'t str> {
    source
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|literal| {
            let family = literal.split('.').next().unwrap_or_default();
            families.contains(family)
                && literal.contains('.')
                && literal.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
        })
        .collect()
}

/// The `.rs` files at or below `path`, except the rule lists themselves.
fn sources(path: &Path, out: &mut Vec<(String, String)>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path).unwrap().map(|entry| entry.unwrap().path()).collect();
        entries.sort();
        for entry in entries {
            sources(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        let text = std::fs::read_to_string(path).unwrap();
        let is_rule_list = path.ends_with("rule_ids.rs") || path.ends_with("rules.rs");
        if !is_rule_list {
            out.push((path.display().to_string(), text));
        }
    }
}

fn suite_folder(name: &str) -> PathBuf {
    root().join("src/suites").join(name.replace('-', "_"))
}

/// Sources under `src/suites/` that belong to no single suite.
fn shared_sources() -> Vec<(String, String)> {
    let owned: BTreeSet<PathBuf> = conform::suites::all().iter().map(|suite| suite_folder(suite.name())).collect();
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(root().join("src/suites")).unwrap().map(|entry| entry.unwrap().path()).collect();
    entries.sort();
    let mut files = Vec::new();
    for entry in entries.into_iter().filter(|entry| !owned.contains(entry)) {
        sources(&entry, &mut files);
    }
    files.retain(|(path, _)| !path.ends_with("suites/mod.rs"));
    files
}

#[test]
fn every_suite_lists_exactly_the_rule_ids_its_reference_uses() {
    let shared = shared_sources();
    let mut used_anywhere: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for suite in conform::suites::all() {
        let name = suite.name();
        let listed: BTreeSet<&str> = suite.rules().iter().copied().collect();
        assert_eq!(listed.len(), suite.rules().len(), "{name}: the rule list has duplicates");
        if suite.reference().is_none() {
            continue;
        }
        assert!(!listed.is_empty(), "{name}: no rules listed");
        let families: BTreeSet<&str> = listed.iter().filter_map(|rule| rule.split('.').next()).collect();

        let folder = suite_folder(name);
        assert!(folder.is_dir(), "{name}: no folder {}", folder.display());
        let mut files = Vec::new();
        sources(&folder, &mut files);
        assert!(!files.is_empty(), "{name}: the sources were not found");
        let mut used = BTreeSet::new();
        for (path, text) in &files {
            for literal in rule_literals(text, &families) {
                assert!(listed.contains(literal), "{path} uses rule id {literal:?}, which {name}'s list lacks");
                used.insert(literal.to_owned());
            }
        }
        for (path, text) in &shared {
            for literal in rule_literals(text, &families).into_iter().filter(|literal| listed.contains(literal)) {
                used.insert(literal.to_owned());
                used_anywhere.entry(path.clone()).or_default().insert(name);
            }
        }
        for rule in &listed {
            assert!(used.contains(*rule), "{name} lists {rule:?}, which no source file uses");
        }
    }
    // Shared code that reports rule ids does so for suites that list them.
    let all_listed: BTreeSet<&str> =
        conform::suites::all().iter().flat_map(|suite| suite.rules().iter().copied()).collect();
    let all_families: BTreeSet<&str> = all_listed.iter().filter_map(|rule| rule.split('.').next()).collect();
    for (path, text) in &shared {
        for literal in rule_literals(text, &all_families) {
            assert!(all_listed.contains(literal), "{path} uses rule id {literal:?}, which no suite lists");
        }
    }
    assert!(!used_anywhere.is_empty(), "the shared agent-event code reports rule ids of the runtime suites");
}

/// The code of a Rust source without its comments and its `#[cfg(test)]`
/// modules (unit tests may use a suite name as data).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    if text.lines().any(|line| line.trim() == "#![cfg(test)]") {
        return code;
    }
    let mut skipping_tests = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(") && trimmed.contains("test") {
            skipping_tests = true;
        }
        if skipping_tests || trimmed.starts_with("//") {
            continue;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

#[test]
fn no_source_outside_the_suite_folders_names_a_suite() {
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let suites_dir = root().join("src/suites").display().to_string();
    let mut found = Vec::new();
    for (path, text) in files.iter().filter(|(path, _)| !path.starts_with(&suites_dir)) {
        let code = code_of(text);
        for suite in conform::suites::all() {
            let name = suite.name();
            let module = name.replace('-', "_");
            for needle in [format!("\"{name}\""), format!("\"{name}/"), format!("suites::{module}")] {
                if code.contains(&needle) {
                    found.push(format!("{path}: {needle}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "sources outside src/suites/ that name a suite:\n{}", found.join("\n"));
}
