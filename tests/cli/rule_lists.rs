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

use crate::common;

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

/// The code of a Rust source without its comments and its test-only items
/// (unit tests may use a suite name as data): an item under `#[cfg(test)]`
/// (or `#[cfg(all(test, …))]`) is left out up to its end, a line ending in
/// `;` or the `}` at its own indentation (rustfmt's layout).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    if text.lines().any(|line| line.trim() == "#![cfg(test)]") {
        return code;
    }
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") || trimmed.starts_with("#[cfg(all(test,") {
            // Further attributes, then the item itself.
            while lines.peek().is_some_and(|next| next.trim_start().starts_with("#[")) {
                lines.next();
            }
            let Some(item) = lines.next() else { break };
            if !item.trim_end().ends_with(';') {
                let end = format!("{}}}", &item[..item.len() - item.trim_start().len()]);
                for inner in lines.by_ref() {
                    if inner.trim_end() == end {
                        break;
                    }
                }
            }
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The string literals of `code` (plain and raw), with their escapes as written.
fn string_literals(code: &str) -> Vec<&str> {
    let mut literals = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // A char literal such as '"' is not the start of a string.
            b'\'' if bytes.get(i + 2) == Some(&b'\'') || bytes.get(i + 1) == Some(&b'\\') => {
                let close = code[i + 2..].find('\'').map_or(bytes.len(), |at| i + 2 + at);
                i = close + 1;
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'#' | b'"'))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let hashes = code[i + 1..].bytes().take_while(|b| *b == b'#').count();
                if bytes.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let body = i + 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = code[body..].find(&close).map_or(bytes.len(), |at| body + at);
                literals.push(&code[body..end]);
                i = end + close.len();
            }
            b'"' => {
                let mut end = i + 1;
                while end < bytes.len() && bytes[end] != b'"' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(bytes.len());
                literals.push(&code[i + 1..end]);
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    literals
}

/// Whether `name` occurs in `text` as a word of its own (not inside
/// `agent-chat` or `chats`).
fn names_word(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(is_word)
            && !text[at + name.len()..].chars().next().is_some_and(is_word)
    })
}

/// Where a source outside `src/suites/` names a suite: in a string literal
/// (as a word, dashed or with underscores) or in a path into a suite's
/// module (`suites::chat`, `suites::{chat, …}`).
fn suite_names_in(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let literals = string_literals(code);
    let braced: Vec<&str> =
        code.match_indices("suites::{").map(|(at, _)| &code[at..]).filter_map(|rest| rest.split('}').next()).collect();
    for suite in conform::suites::all() {
        let name = suite.name();
        let module = name.replace('-', "_");
        for literal in &literals {
            if names_word(literal, name) || names_word(literal, &module) {
                found.push(format!("{name:?} in the string {:?}", literal.chars().take(80).collect::<String>()));
            }
        }
        if code.contains(&format!("suites::{module}")) || braced.iter().any(|list| names_word(list, &module)) {
            found.push(format!("the module path suites::{module}"));
        }
    }
    found
}

fn the_suite_name_scan_sees_what_it_must() {
    let code = code_of(concat!(
        "use crate::suites::{js, chat};\n",
        "#[cfg(test)]\n",
        "mod sample;\n",
        "const A: &str = \"fixtures/sse/x.json\";\n",
        "const B: &str = \"an agent-chat decoder, chats\";\n",
        "const C: char = '\"';\n",
        "const D: &str = r#\"{\"suite\": \"tool-policy\"}\"#;\n",
        "// a comment about chat\n",
        "#[cfg(test)]\n",
        "mod tests {\n",
        "    const E: &str = \"pagination\";\n",
        "}\n",
        "fn after() -> &'static str { \"event_fold\" }\n",
    ));
    let found = suite_names_in(&code).join("\n");
    for expected in ["suites::chat", "\"sse\" in", "\"tool-policy\" in", "\"event-fold\" in"] {
        assert!(found.contains(expected), "{expected} not found in:\n{found}");
    }
    for unexpected in ["pagination", "\"chat\" in"] {
        assert!(!found.contains(unexpected), "{unexpected} found in:\n{found}");
    }
}

/// Every file at or below `path` but the suite folders and the golden
/// snapshots (test data).
fn files_outside_the_suites(path: &Path, out: &mut Vec<PathBuf>) {
    if path == root().join("src/suites") || path.file_name().is_some_and(|name| name == "snapshots") {
        return;
    }
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            files_outside_the_suites(&entry.unwrap().path(), out);
        }
    } else {
        out.push(path.to_owned());
    }
}

fn no_source_outside_the_suite_folders_names_a_suite() {
    let mut files = Vec::new();
    files_outside_the_suites(&root().join("src"), &mut files);
    files.sort();
    assert!(files.iter().any(|path| path.ends_with("src/capture/pipeline.rs")), "{files:?}");
    // The long help's examples are documentation, like docs/: they may name suites.
    let help = root().join("src/cli/help.rs");
    let mut found = Vec::new();
    for path in files.iter().filter(|path| **path != help) {
        let text = std::fs::read_to_string(path).unwrap();
        // Rust without comments and tests; the report's script and style sheet whole.
        let places = if path.extension().is_some_and(|e| e == "rs") {
            suite_names_in(&code_of(&text))
        } else {
            conform::suites::names().into_iter().filter(|name| names_word(&text, name)).map(str::to_owned).collect()
        };
        for place in places {
            found.push(format!("{}: {place}", path.display()));
        }
    }
    assert!(found.is_empty(), "sources outside src/suites/ that name a suite:\n{}", found.join("\n"));
}

crate::trials![
    every_suite_lists_exactly_the_rule_ids_its_reference_uses,
    the_suite_name_scan_sees_what_it_must,
    no_source_outside_the_suite_folders_names_a_suite
];
