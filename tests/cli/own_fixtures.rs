//! The project's own fixture tree (`fixtures/`) beyond each fixture passing,
//! which tests/fixtures.rs judges: every suite holds at least the fixtures
//! its rules need, every file is in canonical bytes, and every chat
//! description cites the spec section of the rule it pins.

use crate::common;

use common::{own_fixtures, read_document, root};
use conform::fixture::{SuiteFilter, discover, load_corpus};
use conform::fmt::{FmtStatus, format_files};
use conform::redact::Redactor;
use std::collections::BTreeMap;

/// Every suite with a reference holds at least this many own fixtures.
const DEFAULT_MINIMUM: usize = 10;

/// Suites whose issues asked for more.
const RAISED_MINIMUMS: &[(&str, usize)] = &[("chat", 40), ("claude-display", 40)];

fn every_suite_holds_at_least_its_minimum_of_fixtures() {
    let corpus = load_corpus(&[root().join("fixtures")], &SuiteFilter::default()).expect("fixtures/ loads");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for fixture in &corpus.fixtures {
        *counts.entry(fixture.suite.name()).or_default() += 1;
    }
    for (name, _) in RAISED_MINIMUMS {
        assert!(conform::suites::find(name).is_some(), "{name} is not a registered suite");
    }
    // Table suites (catalogs) are upstream reference tables: the project has no own copy.
    for suite in conform::suites::all().iter().filter(|suite| suite.reference().is_some() && !suite.is_table()) {
        let name = suite.name();
        let minimum =
            RAISED_MINIMUMS.iter().find(|(raised, _)| *raised == name).map_or(DEFAULT_MINIMUM, |(_, minimum)| *minimum);
        let count = counts.get(name).copied().unwrap_or(0);
        assert!(count >= minimum, "expected at least {minimum} {name} fixtures, found {count}");
    }
}

fn every_fixture_file_is_in_canonical_form() {
    let discovery = discover(&[root().join("fixtures")], &SuiteFilter::default()).expect("fixtures/ is discovered");
    let results = format_files(&discovery.files, true);
    assert!(!results.is_empty(), "no fixture files found");
    let problems: Vec<String> = results
        .iter()
        .filter(|result| !matches!(result.status, FmtStatus::Canonical))
        .map(|result| format!("{}: {:?}", result.path.display(), result.status))
        .collect();
    assert!(problems.is_empty(), "not canonical (run `conform fmt fixtures`):\n{}", problems.join("\n"));
}

fn chat_descriptions_cite_the_spec_section_of_the_rule_they_pin() {
    for path in own_fixtures("chat") {
        let description = read_document(&path)["description"].as_str().unwrap_or_default().to_owned();
        // A version 2 rule is cited by its number in v2.md: `v2 P2`, `v2 D1-D8`.
        let cites_v2_rule = description.match_indices("v2 ").any(|(at, _)| {
            let mut rest = description[at + 3..].chars();
            rest.next().is_some_and(|c| c.is_ascii_uppercase()) && rest.next().is_some_and(|c| c.is_ascii_digit())
        });
        assert!(
            description.contains('§') || description.contains("contract") || cites_v2_rule,
            "{}: the description should cite the spec section of the rule it pins",
            path.display()
        );
    }
}

/// Every bundled fixture would pass the capture lint: no secret-looking value
/// and no user name that a home-directory path anywhere in it reveals. The
/// hand-written fixtures that plant secrets on purpose use placeholders.
fn no_fixture_holds_a_secret_or_a_user_name() {
    let discovery = discover(&[root().join("fixtures")], &SuiteFilter::default()).expect("fixtures/ is discovered");
    assert!(!discovery.files.is_empty(), "no fixture files found");
    let mut leaks = Vec::new();
    for file in &discovery.files {
        let text = std::fs::read_to_string(&file.path).unwrap_or_default();
        let document = read_document(&file.path);
        let mut redactor = Redactor::new(&[]).unwrap_or_else(|err| panic!("{err}"));
        redactor.learn_user_names(&document);
        for finding in redactor.lint(&text, &document) {
            leaks.push(format!("{}: {finding}", file.path.display()));
        }
    }
    assert!(leaks.is_empty(), "{} findings:\n{}", leaks.len(), leaks.join("\n"));
}

/// The messages conform's own JSON parser gives for broken texts of every
/// kind it tells apart (serde_json's wording, and conform's own for the
/// empty text and a number beyond a double).
fn own_parser_messages() -> Vec<String> {
    let broken = [
        "",
        "   ",
        "{",
        "[1,",
        "{\"a\"",
        "{\"a\" 1}",
        "{1:2}",
        "tru",
        "[1]x",
        "\"a",
        "\"\\x\"",
        "\"\u{1}\"",
        "1e400",
        "-",
        "[1,]",
        "01",
    ];
    let mut messages: Vec<String> =
        broken.iter().filter_map(|text| conform::json::parse_value(text).err()).map(|err| err.message).collect();
    messages.sort();
    messages.dedup();
    messages
}

/// An expected output holds only what a port in any language can produce
/// from its suite's README: no text of conform's own libraries, such as the
/// wording of its JSON parser's errors, which no other parser shares. The
/// project's fixtures and, when ../shared is here, the HAPI corpus.
fn no_expected_output_holds_a_message_of_conforms_own_json_parser() {
    let messages = own_parser_messages();
    assert!(messages.len() >= 8, "too few distinct parser messages to look for: {messages:?}");
    let mut trees = vec![root().join("fixtures")];
    trees.extend(common::hapi_corpus());
    let mut pinned = Vec::new();
    for tree in trees {
        let discovery = discover(&[tree], &SuiteFilter::default()).expect("the tree is discovered");
        for file in &discovery.files {
            let document = read_document(&file.path);
            let mut strings = Vec::new();
            strings_of(document.get("expected").unwrap_or(&serde_json::Value::Null), &mut strings);
            for text in strings {
                if let Some(message) = messages.iter().find(|message| text.contains(message.as_str())) {
                    pinned.push(format!("{}: {text:?} holds the parser's {message:?}", file.path.display()));
                }
            }
        }
    }
    assert!(pinned.is_empty(), "expected outputs that pin conform's parser:\n{}", pinned.join("\n"));
}

fn strings_of<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match value {
        serde_json::Value::String(text) => out.push(text),
        serde_json::Value::Array(items) => items.iter().for_each(|item| strings_of(item, out)),
        serde_json::Value::Object(members) => members.values().for_each(|member| strings_of(member, out)),
        _ => {}
    }
}

crate::trials![
    no_expected_output_holds_a_message_of_conforms_own_json_parser,
    every_suite_holds_at_least_its_minimum_of_fixtures,
    every_fixture_file_is_in_canonical_form,
    chat_descriptions_cite_the_spec_section_of_the_rule_they_pin,
    no_fixture_holds_a_secret_or_a_user_name
];
