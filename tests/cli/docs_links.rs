//! The documentation cannot drift from the tree: every relative link in the
//! README, the manual (`docs/`), the suite READMEs (`src/suites/*/`) and the
//! adapter kits' READMEs reaches an existing file and heading, every project path quoted in them
//! exists, the README stays a short front door that starts with the two
//! commands a fresh machine runs first, every suite's README names each
//! rule id its reference lists and every ignore reason its fixtures pin, the
//! examples of the suite READMEs are what the references give, and the
//! redaction table lists every built-in rule.

use crate::common;

use common::root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The two commands the README must open with, in this order.
const FIRST_COMMANDS: [&str; 2] = ["cargo run -- run fixtures", "cargo test"];

/// The README's line budget: the manual lives in `docs/`.
const README_MAX_LINES: usize = 200;

/// Top-level folders whose paths the docs may quote in code spans.
const PROJECT_FOLDERS: [&str; 8] =
    ["src/", "tests/", "benches/", "schemas/", "fixtures/", "examples/", "docs/", "fuzz/"];

/// README.md, docs/*.md, src/suites/*/README.md and the other READMEs a
/// reader is sent to (the adapter kits', the reports folder's), relative to
/// the root.
fn documentation_files() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    for other in ["examples/adapters/README.md", "examples/adapters/jvm/README.md", "reports/README.md"] {
        assert!(root().join(other).is_file(), "{other} is gone: update this list");
        files.push(PathBuf::from(other));
    }
    for (folder, keep) in [("docs", None), ("src/suites", Some("README.md"))] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
            .unwrap_or_else(|err| panic!("{folder}: {err}"))
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        for entry in entries {
            let file = match keep {
                Some(name) => entry.join(name),
                None => entry,
            };
            if file.is_file() && file.extension().is_some_and(|e| e == "md") {
                files.push(file.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    files
}

fn read(relative: &Path) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|err| panic!("{}: {err}", relative.display()))
}

/// The lines of `text` outside fenced code blocks, with their 1-based
/// numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// The targets of the inline links `[text](target)` on a line.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        match after.find(')') {
            Some(end) => {
                targets.push(&after[..end]);
                rest = &after[end..];
            }
            None => break,
        }
    }
    targets
}

/// The code spans (`` `…` ``) on a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// GitHub's heading anchor: lowercase, spaces to `-`, punctuation other than
/// `-` and `_` dropped (code-span backticks included).
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a Markdown file defines through its headings (repeated
/// headings get `-1`, `-2`, … as on GitHub).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = anchor_of(&line[hashes + 1..]);
            let mut anchor = base.clone();
            let mut n = 0;
            while found.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            found.insert(anchor);
        }
    }
    found
}

/// Why a relative link from `file` to `target` is broken, if it is.
fn broken_link(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let resolved = if path.is_empty() { file.to_path_buf() } else { file.parent().unwrap().join(path) };
    let absolute = root().join(&resolved);
    if !absolute.exists() {
        return Some(format!("{} does not exist", resolved.display()));
    }
    let anchor = anchor?;
    if absolute.extension().is_none_or(|e| e != "md") {
        return Some(format!("an anchor into {}, which is not Markdown", resolved.display()));
    }
    let defined = anchors(&std::fs::read_to_string(&absolute).unwrap());
    (!defined.contains(anchor)).then(|| format!("{} has no heading #{anchor}", resolved.display()))
}

fn every_relative_link_reaches_an_existing_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in documentation_files() {
        let text = read(&file);
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                checked += 1;
                if let Some(why) = broken_link(&file, target) {
                    broken.push(format!("{}:{number}: ({target}): {why}", file.display()));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} links found: is the link scanner broken?");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

fn every_project_path_the_docs_quote_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in documentation_files() {
        let text = read(&file);
        for (number, line) in prose_lines(&text) {
            for span in code_spans(line) {
                let is_path = PROJECT_FOLDERS.iter().any(|folder| span.starts_with(folder))
                    && span.chars().all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c));
                checked += usize::from(is_path);
                // A kit's README may quote the kit's own files from its folder.
                let beside = file.starts_with("examples") && root().join(&file).with_file_name(span).exists();
                if is_path && !root().join(span).exists() && !beside {
                    missing.push(format!("{}:{number}: `{span}`", file.display()));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} paths found: is the path scanner broken?");
    assert!(missing.is_empty(), "paths that do not exist:\n{}", missing.join("\n"));
}

fn the_readme_is_a_short_front_door_that_starts_with_the_two_commands() {
    let readme = read(Path::new("README.md"));
    let lines = readme.lines().count();
    assert!(lines < README_MAX_LINES, "README.md has {lines} lines; the manual belongs in docs/");
    let mut body = readme.lines().skip_while(|line| line.starts_with('#') || line.trim().is_empty());
    assert_eq!(body.next(), Some("```sh"), "README.md must open with a shell block");
    for expected in FIRST_COMMANDS {
        let line = body.next().unwrap_or_default();
        let command = line.split(" #").next().unwrap_or_default().trim();
        assert_eq!(command, expected, "README.md's first commands, in order");
    }
    // The examples call `conform`: the README says how it gets on PATH.
    let install = readme.split("\n## ").find(|section| section.starts_with("Install")).expect("an Install section");
    for command in ["cargo install --path .", "cargo install --path . --locked"] {
        assert!(install.lines().any(|line| line.starts_with(command)), "the Install section lacks `{command}`");
    }
}

/// The cells of a Markdown table row (`|` escaped as `\|` stays in its cell,
/// unescaped).
fn table_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => cells.last_mut().unwrap().push(chars.next().unwrap()),
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    Some(cells.into_iter().map(|cell| cell.trim().to_owned()).collect())
}

/// A cell holding one code span with a JSON value.
fn json_cell(cell: &str) -> Option<serde_json::Value> {
    let span = cell.strip_prefix('`')?.strip_suffix('`')?;
    serde_json::from_str(span).ok()
}

/// Every row of a table under an `Examples` heading of a suite README whose
/// first two cells are JSON (an input part and its expected part) is what
/// the suite's reference gives for that input.
fn every_example_row_of_a_suite_readme_is_what_the_reference_gives() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for suite in conform::suites::all() {
        let readme = PathBuf::from("src/suites").join(suite.name().replace('-', "_")).join("README.md");
        let (Ok(text), Some(reference)) = (std::fs::read_to_string(root().join(&readme)), suite.reference()) else {
            continue;
        };
        let mut in_examples = false;
        for (number, line) in prose_lines(&text) {
            if line.starts_with('#') {
                in_examples = line.contains("Examples");
                continue;
            }
            let Some(cells) = table_cells(line).filter(|_| in_examples) else { continue };
            let (Some(input), Some(expected)) = (json_cell(&cells[0]), cells.get(1).and_then(|c| json_cell(c))) else {
                continue;
            };
            checked += 1;
            let actual = conform::suite_api::call_reference(reference, &input, &mut conform::suite_api::NoTrace);
            if actual.as_ref() != Ok(&expected) {
                problems.push(format!("{}:{number}: the reference gives {actual:?}", readme.display()));
            }
        }
    }
    assert!(checked >= 10, "only {checked} example rows found: is the table scanner broken?");
    assert!(problems.is_empty(), "examples that do not hold:\n{}", problems.join("\n"));
}

/// Every string value of a member named `ignored` anywhere in `value`.
fn ignore_reasons<'v>(value: &'v serde_json::Value, out: &mut BTreeSet<&'v str>) {
    match value {
        serde_json::Value::Object(object) => {
            for (key, member) in object {
                match member {
                    serde_json::Value::String(reason) if key == "ignored" => {
                        out.insert(reason);
                    }
                    other => ignore_reasons(other, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| ignore_reasons(item, out)),
        _ => {}
    }
}

/// The reasons of ignored items are part of the expected output and compared
/// exactly, so a suite's README must state each one its fixtures pin, word
/// for word: a reason that held more (a parser's position and message) would
/// be one no port could write from the README.
fn every_ignore_reason_the_fixtures_pin_is_in_the_suite_readme() {
    let collapse = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut missing = Vec::new();
    let mut checked = 0;
    for suite in conform::suites::all() {
        let folder = root().join("fixtures").join(suite.name());
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        let documents: Vec<serde_json::Value> = entries
            .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
            // The crate's parser: fixtures may hold lone surrogates (JavaScript strings).
            .map(|text| conform::json::parse_value(&text).unwrap())
            .collect();
        let mut reasons = BTreeSet::new();
        for document in &documents {
            ignore_reasons(document.get("expected").unwrap_or(document), &mut reasons);
        }
        if reasons.is_empty() {
            continue;
        }
        let readme = PathBuf::from("src/suites").join(suite.name().replace('-', "_")).join("README.md");
        let text = collapse(&std::fs::read_to_string(root().join(&readme)).unwrap_or_default());
        for reason in reasons {
            checked += 1;
            if !text.contains(&collapse(reason)) {
                missing.push(format!("{}: {reason:?}", readme.display()));
            }
        }
    }
    assert!(checked > 50, "only {checked} reasons found: is the fixture scan broken?");
    assert!(missing.is_empty(), "ignore reasons the READMEs do not state:\n{}", missing.join("\n"));
}

fn every_suite_readme_names_each_rule_id_of_its_reference() {
    let mut problems = Vec::new();
    for suite in conform::suites::all() {
        let readme = PathBuf::from("src/suites").join(suite.name().replace('-', "_")).join("README.md");
        let Ok(text) = std::fs::read_to_string(root().join(&readme)) else {
            problems.push(format!("{}: no README at {}", suite.name(), readme.display()));
            continue;
        };
        let named: BTreeSet<&str> = text.lines().flat_map(code_spans).collect();
        for rule in suite.rules() {
            if !named.contains(rule) {
                problems.push(format!("{}: `{rule}` is not named in {}", suite.name(), readme.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Reports link each rule id to its anchor in its suite's README: every
/// rule of every suite has an anchored table row there (`<a
/// id="rule-<id>"></a>`), exactly once, stating the rule in a sentence.
fn every_rule_id_has_its_anchor_and_a_sentence() {
    let mut problems = Vec::new();
    for suite in conform::suites::all() {
        let readme = PathBuf::from("src/suites").join(suite.name().replace('-', "_")).join("README.md");
        let text = std::fs::read_to_string(root().join(&readme)).unwrap_or_default();
        for rule in suite.rules() {
            let doc = conform::suites::rule_doc(suite.name(), rule).expect("a registered suite");
            let anchor = format!("<a id=\"{}\"></a>", conform::suites::rule_anchor(rule));
            let count = text.matches(&anchor).count();
            if count != 1 {
                problems.push(format!("{}: `{rule}` has {count} anchors in {}", suite.name(), readme.display()));
            }
            if !doc.link.starts_with(&readme.display().to_string()) {
                problems.push(format!("{}: `{rule}` links to {}", suite.name(), doc.link));
            }
            let words = doc.sentence.split_whitespace().count();
            if words < 3 {
                problems.push(format!("{}: `{rule}` has no sentence ({:?})", suite.name(), doc.sentence));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn the_anchor_rules_match_github() {
    assert_eq!(anchor_of("Importers (capture → suite inputs)"), "importers-capture--suite-inputs");
    assert_eq!(anchor_of("Classification of `user` frames"), "classification-of-user-frames");
    assert_eq!(anchor_of("conform adapter and check-adapter"), "conform-adapter-and-check-adapter");
    let repeated = anchors("# A\n## Rules\n```\n# not a heading\n```\n## Rules\n");
    assert_eq!(repeated, BTreeSet::from(["a".to_owned(), "rules".to_owned(), "rules-1".to_owned()]));
    assert_eq!(link_targets("see [a](x.md#b) and [`c`](../d/)"), ["x.md#b", "../d/"]);
    assert_eq!(table_cells(r"| `a \| b` | c |"), Some(vec!["`a | b`".to_owned(), "c".to_owned()]));
}

/// The capture page's redaction table lists every built-in rule with its
/// placeholder label, in priority order.
fn the_redaction_table_matches_the_rules() {
    use conform::redact::rules::BUILTIN_RULES;
    let page = read(Path::new("docs/captures.md"));
    let rows: Vec<(String, String)> = page
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let id = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let label = cells.get(2)?.strip_prefix('`')?.strip_suffix('`')?;
            (label.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c == 'N'))
                .then(|| (id.to_owned(), label.to_owned()))
        })
        .collect();
    let listed: Vec<(String, String)> =
        BUILTIN_RULES.iter().map(|rule| (rule.id.to_owned(), rule.label.to_owned())).collect();
    let in_table: Vec<(String, String)> = rows.iter().filter(|row| listed.contains(row)).cloned().collect();
    assert_eq!(in_table, listed, "docs/captures.md rows (rule, label) in priority order");
    assert!(rows.iter().any(|(id, label)| id == conform::redact::SECRET_MEMBER_RULE && label == "SECRET"));
}

crate::trials![
    every_relative_link_reaches_an_existing_file_and_heading,
    every_project_path_the_docs_quote_exists,
    the_readme_is_a_short_front_door_that_starts_with_the_two_commands,
    every_example_row_of_a_suite_readme_is_what_the_reference_gives,
    every_ignore_reason_the_fixtures_pin_is_in_the_suite_readme,
    every_suite_readme_names_each_rule_id_of_its_reference,
    every_rule_id_has_its_anchor_and_a_sentence,
    the_anchor_rules_match_github,
    the_redaction_table_matches_the_rules
];
