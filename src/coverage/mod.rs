//! Rule coverage (`conform coverage`): which named decode rules of the
//! references a fixture set exercises, which no fixture reaches, and which
//! candidate captures would add the most.
//!
//! References report the rules that decide their output to a
//! [`RuleTrace`](crate::suite_api::RuleTrace) (ids such as
//! `user.attachments.invalid-skipped`). Running every fixture's input with a
//! [`RuleSet`] gives the rules a fixture set reaches; the suite's list of
//! every rule it has ([`Suite::rules`]) gives the ones it does not. Ranking
//! candidates is greedy set cover: the candidate adding the most new rules
//! first, then the one adding the most on top of that, and so on, so the few
//! captures worth keeping come out on top.
//!
//! Rules are reported per suite and per the fixtureVersion that introduced
//! them ([`introduced_in`]): the version 1 rules against every fixture of the
//! suite, the rules a later version added against the fixtures of that
//! version or newer (a version 1 fixture can never reach them).

mod text;

pub use text::{TextOptions, write_json, write_text};

use crate::fixture::{Corpus, FixtureStatus, enclosing_suite, read_document};
use crate::suite_api::RuleSet;
use crate::suite_api::{ReferenceFailure, Suite, call_reference, introduced_in};
use crate::suites;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The rules one input reaches: `Err` when the suite has no reference or the
/// reference fails.
pub fn rules_of(suite: &dyn Suite, version: u32, input: &serde_json::Value) -> Result<BTreeSet<&'static str>, String> {
    let reference =
        suite.reference_for(version).ok_or_else(|| crate::implementation::unimplemented_version(suite, version))?;
    let mut trace = RuleSet::default();
    match call_reference(reference, input, &mut trace) {
        Ok(_) => Ok(trace.0),
        Err(ReferenceFailure::Rejected(message)) => Err(format!("the reference failed: {message}")),
        Err(panicked @ ReferenceFailure::Panicked(_)) => Err(panicked.to_string()),
    }
}

/// Coverage of the rules one fixtureVersion introduced in one suite.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteCoverage {
    /// The suite.
    pub suite: &'static str,
    /// The fixtureVersion that introduced these rules (1 for the original
    /// ones).
    pub version: u32,
    /// Fixtures whose rules were collected that can reach these rules (those
    /// of `version` or newer).
    pub fixtures: usize,
    /// Each rule reached, with the number of fixtures reaching it.
    pub reached: BTreeMap<&'static str, usize>,
    /// Every rule of this version the suite has, when it lists them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<Vec<&'static str>>,
}

impl SuiteCoverage {
    /// `chat` for the version 1 rules, `chat v2` for the rules version 2
    /// introduced: how the text and JSON forms name this part.
    pub fn label(&self) -> String {
        if self.version == 1 { self.suite.to_owned() } else { format!("{} v{}", self.suite, self.version) }
    }

    /// Listed rules no fixture reaches.
    pub fn unreached(&self) -> Vec<&'static str> {
        match &self.known {
            Some(known) => known.iter().copied().filter(|rule| !self.reached.contains_key(rule)).collect(),
            None => Vec::new(),
        }
    }

    /// Listed rules reached, and how many are listed.
    pub fn ratio(&self) -> Option<(usize, usize)> {
        let known = self.known.as_ref()?;
        let reached = known.iter().filter(|rule| self.reached.contains_key(*rule)).count();
        Some((reached, known.len()))
    }
}

/// Coverage of a fixture set.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    /// Per suite with a reference, in suite order, and within a suite per
    /// rule version, ascending.
    pub suites: Vec<SuiteCoverage>,
    /// Fixtures not measured, with the reason.
    pub skipped: Vec<Unmeasured>,
}

impl Coverage {
    /// The rules reached in `suite`.
    pub fn reached(&self, suite: &str) -> BTreeSet<&'static str> {
        self.suites.iter().filter(|s| s.suite == suite).flat_map(|s| s.reached.keys().copied()).collect()
    }
}

/// A fixture whose rules could not be collected. It serializes as one line,
/// `suite/name: reason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub struct Unmeasured {
    /// The fixture id.
    pub id: String,
    /// Its suite.
    pub suite: &'static str,
    /// Why it was not measured.
    pub reason: UnmeasuredReason,
}

/// Why a fixture was not measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnmeasuredReason {
    /// The fixture document is broken.
    Invalid,
    /// The fixture's version is one the harness cannot judge.
    UnsupportedVersion(u32),
    /// The suite has no reference to trace.
    NoReference,
    /// The reference failed on the fixture's input.
    ReferenceFailed(String),
}

impl fmt::Display for Unmeasured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            UnmeasuredReason::Invalid => write!(f, "{}: invalid fixture", self.id),
            UnmeasuredReason::UnsupportedVersion(found) => {
                write!(f, "{}: unsupported fixtureVersion {found}", self.id)
            }
            UnmeasuredReason::NoReference => write!(f, "{}: suite {} has no reference", self.id, self.suite),
            UnmeasuredReason::ReferenceFailed(message) => write!(f, "{}: {message}", self.id),
        }
    }
}

impl From<Unmeasured> for String {
    fn from(unmeasured: Unmeasured) -> String {
        unmeasured.to_string()
    }
}

/// What was measured in one suite: fixtures per fixtureVersion, and each rule
/// reached with the number of fixtures reaching it.
#[derive(Default)]
struct Measured {
    fixtures_by_version: BTreeMap<u32, usize>,
    reached: BTreeMap<&'static str, usize>,
}

/// Runs every selected fixture of `corpus` through its reference, tracing rules.
pub fn measure(corpus: &Corpus, selected: &[usize]) -> Coverage {
    let mut by_suite: BTreeMap<&'static str, Measured> = BTreeMap::new();
    let mut skipped = Vec::new();
    for fixture in selected.iter().filter_map(|&index| corpus.fixtures.get(index)) {
        let unmeasured = |reason| Unmeasured { id: fixture.id.clone(), suite: fixture.suite.name(), reason };
        let parts = match &fixture.status {
            FixtureStatus::Ready(parts) => parts,
            FixtureStatus::Invalid(_) => {
                skipped.push(unmeasured(UnmeasuredReason::Invalid));
                continue;
            }
            FixtureStatus::UnsupportedVersion { found, .. } => {
                skipped.push(unmeasured(UnmeasuredReason::UnsupportedVersion(*found)));
                continue;
            }
        };
        if fixture.suite.reference().is_none() {
            skipped.push(unmeasured(UnmeasuredReason::NoReference));
            continue;
        }
        let version = fixture.version.unwrap_or(1);
        match rules_of(fixture.suite, version, &parts.input) {
            Ok(rules) => {
                let entry = by_suite.entry(fixture.suite.name()).or_default();
                *entry.fixtures_by_version.entry(version).or_default() += 1;
                for rule in rules {
                    *entry.reached.entry(rule).or_default() += 1;
                }
            }
            Err(reason) => skipped.push(unmeasured(UnmeasuredReason::ReferenceFailed(reason))),
        }
    }
    let mut suites = Vec::new();
    for suite in suites::all() {
        let Some(measured) = by_suite.remove(suite.name()) else { continue };
        suites.extend(by_rule_version(*suite, measured));
    }
    Coverage { suites, skipped }
}

/// Splits one suite's measurement by the version that introduced each rule.
/// A later version's part is there when the suite lists rules of it or a
/// fixture reached one.
fn by_rule_version(suite: &'static dyn Suite, measured: Measured) -> Vec<SuiteCoverage> {
    let listed = suite.rules();
    let mut versions: BTreeSet<u32> = listed.iter().map(|rule| introduced_in(rule)).collect();
    versions.extend(measured.reached.keys().map(|rule| introduced_in(rule)));
    versions.insert(1);
    versions
        .into_iter()
        .map(|version| SuiteCoverage {
            suite: suite.name(),
            version,
            fixtures: measured.fixtures_by_version.range(version..).map(|(_, count)| count).sum(),
            reached: measured
                .reached
                .iter()
                .filter(|(rule, _)| introduced_in(rule) == version)
                .map(|(rule, count)| (*rule, *count))
                .collect(),
            known: Some(listed.iter().copied().filter(|rule| introduced_in(rule) == version).collect::<Vec<_>>())
                .filter(|rules| !rules.is_empty()),
        })
        .collect()
}

/// A candidate fixture (for example a pending capture) and its rules.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// Its file.
    pub path: PathBuf,
    /// Its suite.
    pub suite: &'static str,
    /// The rules its input reaches.
    pub rules: BTreeSet<&'static str>,
}

/// A candidate's place in the ranking.
#[derive(Clone, Debug, Serialize)]
pub struct Ranked {
    /// The candidate's file.
    pub path: PathBuf,
    /// Its suite.
    pub suite: &'static str,
    /// Rules it reaches that neither the fixture set nor a higher-ranked
    /// candidate reaches.
    pub new_rules: Vec<&'static str>,
}

/// Ranks candidates by the rules they add (greedy set cover; ties keep the
/// given order). Candidates that add nothing come last, with no new rules.
pub fn rank(coverage: &Coverage, candidates: &[Candidate]) -> Vec<Ranked> {
    let mut covered: BTreeMap<&'static str, BTreeSet<&'static str>> = BTreeMap::new();
    for candidate in candidates {
        covered.entry(candidate.suite).or_insert_with(|| coverage.reached(candidate.suite));
    }
    let mut left: Vec<&Candidate> = candidates.iter().collect();
    let mut ranked = Vec::new();
    while !left.is_empty() {
        let gain = |c: &Candidate, covered: &BTreeMap<&str, BTreeSet<&str>>| {
            let seen = covered.get(c.suite);
            c.rules.iter().filter(|rule| seen.is_none_or(|s| !s.contains(*rule))).count()
        };
        let (best, _) = left.iter().enumerate().fold((0, 0), |(best, most), (index, c)| {
            let g = gain(c, &covered);
            if g > most { (index, g) } else { (best, most) }
        });
        let chosen = left.remove(best);
        let seen = covered.entry(chosen.suite).or_default();
        let new_rules: Vec<&'static str> = chosen.rules.iter().copied().filter(|rule| !seen.contains(rule)).collect();
        seen.extend(new_rules.iter().copied());
        ranked.push(Ranked { path: chosen.path.clone(), suite: chosen.suite, new_rules });
    }
    ranked
}

/// Reads candidate fixture files: `*.json` and pending `*.json.new` files in
/// suite folders, found under `paths` (files or folders, sorted). Files that
/// cannot be read as a case of a suite with a reference are listed in the
/// second part, one line each naming the file and the reason.
pub fn load_candidates(paths: &[PathBuf]) -> (Vec<Candidate>, Vec<String>) {
    let mut files = Vec::new();
    for path in paths {
        if path.is_file() {
            files.push(path.clone());
        } else {
            for entry in walkdir::WalkDir::new(path).sort_by_file_name().into_iter().filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy();
                if entry.file_type().is_file() && (name.ends_with(".json") || name.ends_with(".json.new")) {
                    files.push(entry.path().to_path_buf());
                }
            }
        }
    }
    let mut candidates = Vec::new();
    let mut problems = Vec::new();
    for file in files {
        match load_candidate(&file) {
            Ok(candidate) => candidates.push(candidate),
            Err(problem) => problems.push(problem),
        }
    }
    (candidates, problems)
}

fn load_candidate(path: &Path) -> Result<Candidate, String> {
    let problem = |reason: String| format!("{}: {reason}", path.display());
    let (suite, _) = enclosing_suite(path).ok_or_else(|| problem("not in a suite folder".to_owned()))?;
    let (text, parsed) = read_document(path).map_err(|err| err.to_string())?;
    let parts = suite.split(&parsed.value).map_err(problem)?;
    // A candidate is measured at its own version (a capture writes the
    // reference's newest one).
    let version = match parsed.value.get("fixtureVersion").map(|value| crate::fixture::document_version(&text, value)) {
        Some(Ok(version)) => version,
        // `2.0` or `1e3` is no version at all, never another one.
        Some(Err(found)) => return Err(problem(format!("{found} is not a fixtureVersion"))),
        None => suite.newest_reference_version(),
    };
    let rules = rules_of(suite, version, &parts.input).map_err(problem)?;
    Ok(Candidate { path: path.to_path_buf(), suite: suite.name(), rules })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(name: &str, rules: &[&'static str]) -> Candidate {
        Candidate { path: PathBuf::from(name), suite: "chat", rules: rules.iter().copied().collect() }
    }

    #[test]
    fn unmeasured_fixtures_serialize_as_one_line_each() {
        let coverage = Coverage {
            suites: Vec::new(),
            skipped: vec![
                Unmeasured { id: "sse/x".to_owned(), suite: "sse", reason: UnmeasuredReason::NoReference },
                Unmeasured { id: "chat/y".to_owned(), suite: "chat", reason: UnmeasuredReason::UnsupportedVersion(2) },
            ],
        };
        let value = serde_json::to_value(&coverage).unwrap_or_default();
        assert_eq!(
            value["skipped"],
            serde_json::json!(["sse/x: suite sse has no reference", "chat/y: unsupported fixtureVersion 2"])
        );
    }

    #[test]
    fn ranking_is_greedy_set_cover_over_what_is_not_yet_covered() {
        let mut reached = BTreeMap::new();
        reached.insert("a", 3);
        let coverage = Coverage {
            suites: vec![SuiteCoverage { suite: "chat", version: 1, fixtures: 3, reached, known: None }],
            skipped: Vec::new(),
        };
        let candidates = [
            candidate("x", &["a", "b"]),
            candidate("y", &["b", "c", "d"]),
            candidate("z", &["a", "e"]),
            candidate("w", &["a"]),
        ];
        let ranked = rank(&coverage, &candidates);
        let order: Vec<(String, Vec<&str>)> =
            ranked.iter().map(|r| (r.path.display().to_string(), r.new_rules.clone())).collect();
        assert_eq!(
            order,
            [
                ("y".to_owned(), vec!["b", "c", "d"]),
                ("z".to_owned(), vec!["e"]),
                ("x".to_owned(), vec![]),
                ("w".to_owned(), vec![]),
            ]
        );
    }

    #[test]
    fn a_candidate_whose_version_is_not_an_integer_is_a_problem_not_the_newest_version() {
        let dir = tempfile::tempdir().unwrap();
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/chat");
        let first = std::fs::read_dir(&bundled).unwrap().flatten().map(|e| e.path()).min().unwrap();
        let text = std::fs::read_to_string(&first).unwrap();
        std::fs::create_dir(dir.path().join("chat")).unwrap();
        let candidate = dir.path().join("chat").join(first.file_name().unwrap());
        std::fs::write(&candidate, text.replacen("\"fixtureVersion\": 1,", "\"fixtureVersion\": 2.0,", 1)).unwrap();
        let (candidates, problems) = load_candidates(&[candidate]);
        assert!(candidates.is_empty());
        assert!(problems.len() == 1 && problems[0].ends_with("2.0 is not a fixtureVersion"), "{problems:?}");
    }
}
