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

crate::trials![
    every_suite_holds_at_least_its_minimum_of_fixtures,
    every_fixture_file_is_in_canonical_form,
    chat_descriptions_cite_the_spec_section_of_the_rule_they_pin,
    no_fixture_holds_a_secret_or_a_user_name
];
