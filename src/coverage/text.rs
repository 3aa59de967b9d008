//! The two forms `conform coverage` prints: a text summary for people and a
//! canonical JSON document for tools.

use super::{Coverage, Ranked, UnmeasuredReason};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What the text summary shows beyond the per-suite figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// Every reached rule with the number of fixtures reaching it.
    pub verbose: bool,
    /// The ranked candidates (when candidates were given).
    pub candidates: bool,
}

/// Writes the coverage, the ranked candidates and the candidates that could
/// not be read as JSON (one canonical document).
pub fn write_json(out: &mut dyn Write, coverage: &Coverage, ranked: &[Ranked]) -> io::Result<()> {
    let unreached: BTreeMap<String, Vec<&str>> = coverage.suites.iter().map(|s| (s.label(), s.unreached())).collect();
    let value = serde_json::json!({"coverage": coverage, "unreached": unreached, "candidates": ranked});
    writeln!(out, "{}", crate::json::to_canonical_string(&value).trim_end())
}

/// Writes the coverage as text: per suite (and per fixtureVersion whose rules
/// it lists) the rules reached, the rules no fixture reaches, what was not
/// measured, and the ranked candidates.
pub fn write_text(
    out: &mut dyn Write,
    coverage: &Coverage,
    ranked: &[Ranked],
    problems: &[String],
    options: TextOptions,
) -> io::Result<()> {
    for suite in &coverage.suites {
        let whose = if suite.version == 1 {
            String::new()
        } else {
            format!(" (the rules new in fixtureVersion {0}; fixtures of version {0} or newer)", suite.version)
        };
        let fixtures = match suite.fixtures {
            1 => "1 fixture reaches".to_owned(),
            count => format!("{count} fixtures reach"),
        };
        match suite.ratio() {
            Some((reached, known)) => writeln!(
                out,
                "{}: {fixtures} {reached} of {known} rules ({:.1}%){whose}",
                suite.label(),
                percent(reached, known)
            )?,
            None => writeln!(
                out,
                "{}: {fixtures} {} rules (the suite does not list all its rules){whose}",
                suite.label(),
                suite.reached.len()
            )?,
        }
        if options.verbose {
            for (rule, count) in &suite.reached {
                let fixtures = if *count == 1 { "fixture" } else { "fixtures" };
                writeln!(out, "  reached {rule} ({count} {fixtures})")?;
            }
        }
        let unreached = suite.unreached();
        if !unreached.is_empty() {
            writeln!(out, "  not reached by any fixture ({}):", unreached.len())?;
            for rule in unreached {
                writeln!(out, "    {rule}")?;
            }
        }
    }
    let mut without_reference = BTreeMap::<&str, usize>::new();
    for unmeasured in &coverage.skipped {
        match unmeasured.reason {
            UnmeasuredReason::NoReference => *without_reference.entry(unmeasured.suite).or_default() += 1,
            _ => writeln!(out, "not measured: {unmeasured}")?,
        }
    }
    for (suite, count) in &without_reference {
        writeln!(out, "not measured: {count} {suite} fixtures (suite {suite} has no reference)")?;
    }
    if options.candidates {
        write_candidates(out, ranked, problems)?;
    }
    Ok(())
}

fn write_candidates(out: &mut dyn Write, ranked: &[Ranked], problems: &[String]) -> io::Result<()> {
    writeln!(out, "candidates, ranked by the rules each would add:")?;
    let mut idle = 0;
    for (place, candidate) in ranked.iter().enumerate() {
        if candidate.new_rules.is_empty() {
            idle += 1;
            continue;
        }
        writeln!(
            out,
            "  {:>3}. {} +{}: {}",
            place + 1,
            candidate.path.display(),
            candidate.new_rules.len(),
            candidate.new_rules.join(", ")
        )?;
    }
    if idle > 0 {
        let (candidates, add) = if idle == 1 { ("candidate", "adds") } else { ("candidates", "add") };
        writeln!(out, "  {idle} {candidates} {add} no rule the others do not already reach")?;
    }
    for problem in problems {
        writeln!(out, "  skipped {problem}")?;
    }
    Ok(())
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 100.0 } else { part as f64 * 100.0 / whole as f64 }
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::coverage::{SuiteCoverage, Unmeasured};
    use std::path::PathBuf;

    /// Two suites (one with a version 2 part), a suite that does not list
    /// its rules, every kind of unmeasured fixture, and candidates: one
    /// adding rules, one adding nothing, and one that could not be read.
    fn sample() -> (Coverage, Vec<Ranked>, Vec<String>) {
        let coverage = Coverage {
            suites: vec![
                SuiteCoverage {
                    suite: "chat",
                    version: 1,
                    fixtures: 12,
                    reached: BTreeMap::from([("message.null-dropped", 3), ("tool.result.paired", 12)]),
                    known: Some(vec!["message.null-dropped", "tool.result.paired", "tool.result.orphan-kept"]),
                },
                SuiteCoverage {
                    suite: "chat",
                    version: 2,
                    fixtures: 1,
                    reached: BTreeMap::from([("link.href-kept", 1)]),
                    known: Some(vec!["link.href-kept"]),
                },
                SuiteCoverage {
                    suite: "sse",
                    version: 1,
                    fixtures: 4,
                    reached: BTreeMap::from([("sse.event.kept", 4)]),
                    known: None,
                },
            ],
            skipped: vec![
                Unmeasured { id: "chat/broken".to_owned(), suite: "chat", reason: UnmeasuredReason::Invalid },
                Unmeasured {
                    id: "chat/future".to_owned(),
                    suite: "chat",
                    reason: UnmeasuredReason::UnsupportedVersion(9),
                },
                Unmeasured {
                    id: "chat/throws".to_owned(),
                    suite: "chat",
                    reason: UnmeasuredReason::ReferenceFailed("input is not an object".to_owned()),
                },
                Unmeasured { id: "catalogs/a".to_owned(), suite: "catalogs", reason: UnmeasuredReason::NoReference },
                Unmeasured { id: "catalogs/b".to_owned(), suite: "catalogs", reason: UnmeasuredReason::NoReference },
            ],
        };
        let ranked = vec![
            Ranked {
                path: PathBuf::from("captures/new-session.json"),
                suite: "chat",
                new_rules: vec!["tool.result.orphan-kept"],
            },
            Ranked { path: PathBuf::from("captures/same-again.json"), suite: "chat", new_rules: Vec::new() },
        ];
        let problems = vec!["captures/torn.json: not JSON (line 1, column 9)".to_owned()];
        (coverage, ranked, problems)
    }

    fn rendered(write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&mut out).expect("writing to memory succeeds");
        String::from_utf8(out).expect("coverage is UTF-8")
    }

    #[test]
    fn the_sample_coverage_as_text() {
        let (coverage, ranked, problems) = sample();
        let options = TextOptions { verbose: true, candidates: true };
        insta::assert_snapshot!(rendered(|out| write_text(out, &coverage, &ranked, &problems, options)));
    }

    #[test]
    fn the_sample_coverage_as_text_without_details() {
        let (coverage, ranked, problems) = sample();
        insta::assert_snapshot!(rendered(|out| write_text(out, &coverage, &ranked, &problems, TextOptions::default())));
    }

    #[test]
    fn the_sample_coverage_as_json() {
        let (coverage, ranked, _) = sample();
        insta::assert_snapshot!(rendered(|out| write_json(out, &coverage, &ranked)));
    }
}
