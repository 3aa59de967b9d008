//! Every suite's rule list (`Suite::rules`, what `conform coverage` measures
//! against) names exactly the rule ids its reference's sources use: an id
//! reported but not listed would never show as unreached, and a listed id no
//! source reports would always show as unreached.

mod common;

use common::root;
use std::collections::BTreeSet;
use std::path::Path;

/// Each suite, the source folders of its reference, and the families
/// (first dotted segment) of its rule ids.
const SOURCES: &[(&str, &[&str], &[&str])] = &[
    (
        "chat",
        &["src/reference/chat"],
        &["message", "envelope", "user", "agent", "output", "event", "codex", "input", "reduce", "group"],
    ),
    ("sse", &["src/reference/sse"], &["sse"]),
    ("pagination", &["src/reference/pagination"], &["pagination"]),
    ("catalogs", &["src/reference/catalogs.rs"], &["catalogs"]),
    ("claude-display", &["src/reference/claude_display"], &["claude-display"]),
    ("claude-events", &["src/reference/claude_events"], &["claude"]),
    (
        "codex-app-server-events",
        &["src/reference/codex_app_server_events", "src/reference/agent_events"],
        &["app-server", "codex-item"],
    ),
    ("codex-exec-events", &["src/reference/codex_exec_events", "src/reference/agent_events"], &["exec", "codex-item"]),
    ("event-fold", &["src/reference/event_fold"], &["fold"]),
    ("tool-policy", &["src/reference/tool_policy"], &["policy"]),
];

/// String literals shaped like rule ids of one of `families` in a source text.
fn rule_literals<'t>(source: &'t str, families: &[&str]) -> Vec<&'t str> {
    source
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|literal| {
            let family = literal.split('.').next().unwrap_or_default();
            families.contains(&family)
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
        let is_rule_list = path.ends_with("rule_ids.rs") || path.ends_with("chat/rules.rs");
        if !is_rule_list {
            out.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn every_suite_lists_exactly_the_rule_ids_its_reference_uses() {
    let known: BTreeSet<&str> = conform::suite::all().iter().map(|suite| suite.name()).collect();
    let covered: BTreeSet<&str> = SOURCES.iter().map(|(suite, _, _)| *suite).collect();
    assert_eq!(covered, known, "every suite with a reference is checked");

    for (name, folders, families) in SOURCES {
        let suite = conform::suite::find(name).unwrap_or_else(|| panic!("no suite {name}"));
        let listed: BTreeSet<&str> = suite.rules().iter().copied().collect();
        assert_eq!(listed.len(), suite.rules().len(), "{name}: the rule list has duplicates");
        assert!(!listed.is_empty(), "{name}: no rules listed");

        let mut files = Vec::new();
        for folder in *folders {
            sources(&root().join(folder), &mut files);
        }
        assert!(!files.is_empty(), "{name}: the sources were not found");
        let mut used = BTreeSet::new();
        for (path, text) in &files {
            for literal in rule_literals(text, families) {
                assert!(listed.contains(literal), "{path} uses rule id {literal:?}, which {name}'s list lacks");
                used.insert(literal.to_owned());
            }
        }
        for rule in &listed {
            assert!(used.contains(*rule), "{name} lists {rule:?}, which no source file uses");
        }
    }
}
