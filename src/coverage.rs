//! Rule coverage (`conform coverage`): which named decode rules of the
//! references a fixture set exercises, which no fixture reaches, and which
//! candidate captures would add the most.
//!
//! References report the rules that decide their output to a
//! [`RuleTrace`](crate::reference::RuleTrace) (ids such as
//! `user.attachments.invalid-skipped`). Running every fixture's input with a
//! [`RuleSet`] gives the rules a fixture set reaches; the suite's list of
//! every rule it has ([`known_rules`]) gives the ones it does not. Ranking
//! candidates is greedy set cover: the candidate adding the most new rules
//! first, then the one adding the most on top of that, and so on, so the few
//! captures worth keeping come out on top.

use crate::fixture::{Corpus, FixtureStatus};
use crate::json;
use crate::reference::RuleSet;
use crate::suite::{self, Suite};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Every rule id a suite's reference can report, for suites that name them.
pub fn known_rules(suite: &str) -> Option<&'static [&'static str]> {
    match suite {
        "chat" => Some(crate::reference::chat::RULES),
        _ => None,
    }
}

/// The rules one input reaches: `Err` when the suite has no reference or the
/// reference fails.
pub fn rules_of(suite: &dyn Suite, input: &serde_json::Value) -> Result<BTreeSet<&'static str>, String> {
    let reference = suite.reference().ok_or_else(|| format!("suite {} has no reference", suite.name()))?;
    let mut trace = RuleSet::default();
    match catch_unwind(AssertUnwindSafe(|| reference(input, &mut trace))) {
        Ok(Ok(_)) => Ok(trace.0),
        Ok(Err(message)) => Err(format!("the reference failed: {message}")),
        Err(_) => Err("the reference panicked".to_owned()),
    }
}

/// Coverage of one suite.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteCoverage {
    /// The suite.
    pub suite: &'static str,
    /// Fixtures whose rules were collected.
    pub fixtures: usize,
    /// Each rule reached, with the number of fixtures reaching it.
    pub reached: BTreeMap<&'static str, usize>,
    /// Every rule the suite has, when it lists them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<Vec<&'static str>>,
}

impl SuiteCoverage {
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
    /// Per suite with a reference, in suite order.
    pub suites: Vec<SuiteCoverage>,
    /// Fixtures not measured, with the reason (`suite/name: reason`).
    pub skipped: Vec<String>,
}

impl Coverage {
    /// The rules reached in `suite`.
    pub fn reached(&self, suite: &str) -> BTreeSet<&'static str> {
        self.suites.iter().filter(|s| s.suite == suite).flat_map(|s| s.reached.keys().copied()).collect()
    }
}

/// Runs every selected fixture of `corpus` through its reference, tracing rules.
pub fn measure(corpus: &Corpus, selected: &[usize]) -> Coverage {
    let mut by_suite: BTreeMap<&'static str, (usize, BTreeMap<&'static str, usize>)> = BTreeMap::new();
    let mut skipped = Vec::new();
    for fixture in selected.iter().filter_map(|&index| corpus.fixtures.get(index)) {
        let parts = match &fixture.status {
            FixtureStatus::Ready(parts) => parts,
            FixtureStatus::Invalid(_) => {
                skipped.push(format!("{}: invalid fixture", fixture.id));
                continue;
            }
            FixtureStatus::UnsupportedVersion { found, .. } => {
                skipped.push(format!("{}: unsupported fixtureVersion {found}", fixture.id));
                continue;
            }
        };
        match rules_of(fixture.suite, &parts.input) {
            Ok(rules) => {
                let entry = by_suite.entry(fixture.suite.name()).or_default();
                entry.0 += 1;
                for rule in rules {
                    *entry.1.entry(rule).or_default() += 1;
                }
            }
            Err(reason) => skipped.push(format!("{}: {reason}", fixture.id)),
        }
    }
    let suites = suite::all()
        .iter()
        .filter_map(|suite| {
            let (fixtures, reached) = by_suite.remove(suite.name())?;
            Some(SuiteCoverage {
                suite: suite.name(),
                fixtures,
                reached,
                known: known_rules(suite.name()).map(<[&str]>::to_vec),
            })
        })
        .collect();
    Coverage { suites, skipped }
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
/// second part with the reason.
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
            Err(reason) => problems.push(format!("{}: {reason}", file.display())),
        }
    }
    (candidates, problems)
}

fn load_candidate(path: &Path) -> Result<Candidate, String> {
    let suite = path
        .ancestors()
        .skip(1)
        .find_map(|folder| folder.file_name().and_then(|n| n.to_str()).and_then(suite::find))
        .ok_or("not in a suite folder")?;
    let text = std::fs::read_to_string(path).map_err(|err| format!("cannot read: {err}"))?;
    let document = json::parse_value(&text).map_err(|err| format!("not JSON: {err}"))?;
    let parts = suite.split(&document)?;
    let rules = rules_of(suite, &parts.input)?;
    Ok(Candidate { path: path.to_path_buf(), suite: suite.name(), rules })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(name: &str, rules: &[&'static str]) -> Candidate {
        Candidate { path: PathBuf::from(name), suite: "chat", rules: rules.iter().copied().collect() }
    }

    #[test]
    fn ranking_is_greedy_set_cover_over_what_is_not_yet_covered() {
        let mut reached = BTreeMap::new();
        reached.insert("a", 3);
        let coverage = Coverage {
            suites: vec![SuiteCoverage { suite: "chat", fixtures: 3, reached, known: None }],
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
}
