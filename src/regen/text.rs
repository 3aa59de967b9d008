//! What `conform regen` prints of each fixture: portability warnings,
//! drifted expectations with their differences and line diff, fixtures it
//! could not check.

use super::{RegenResult, RegenStatus};
use crate::review::{differences_word, write_fixture_change};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Writes one line (and, for a drift, its differences and, unless
/// `no_diff`, its line diff) per result that has something to say, then one
/// line per suite without a reference.
pub fn write_results(out: &mut dyn Write, results: &[RegenResult], no_diff: bool) -> io::Result<()> {
    let mut without_reference: BTreeMap<&str, usize> = BTreeMap::new();
    let mut on_purpose = Vec::new();
    for result in results {
        if result.acknowledged && !result.notes.is_empty() {
            on_purpose.push(result.id.as_str());
        } else {
            for note in &result.notes {
                writeln!(out, "warning {}: not portable: {note}", result.id)?;
            }
        }
        match &result.status {
            RegenStatus::Clean => {}
            RegenStatus::Drifted(drift) => {
                let count = drift.differences.len() + drift.omitted;
                writeln!(
                    out,
                    "drifted {} ({}): {count} {}",
                    result.id,
                    result.path.display(),
                    differences_word(count)
                )?;
                write_fixture_change(out, &drift.differences, drift.omitted, &drift.hunks, no_diff)?;
            }
            RegenStatus::NoReference => *without_reference.entry(result.suite).or_default() += 1,
            RegenStatus::Unimplemented { found } => {
                writeln!(out, "not checked {}: the reference does not implement fixtureVersion {found}", result.id)?;
            }
            RegenStatus::ReferenceFailed(message) => {
                writeln!(out, "error {}: the reference failed: {message}", result.id)?;
            }
            RegenStatus::Invalid(problems) => {
                for problem in problems {
                    writeln!(out, "invalid {}: {problem}", result.id)?;
                }
            }
            RegenStatus::UnsupportedVersion { found } => {
                writeln!(out, "invalid {}: fixtureVersion {found} is not supported; not regenerated", result.id)?;
            }
        }
    }
    if !on_purpose.is_empty() {
        writeln!(
            out,
            "note: {} {} an expectation that is not portable, on purpose (as {}): {}",
            on_purpose.len(),
            if on_purpose.len() == 1 { "fixture pins" } else { "fixtures pin" },
            if on_purpose.len() == 1 { "its description says" } else { "their descriptions say" },
            on_purpose.join(", ")
        )?;
    }
    for (suite, count) in &without_reference {
        writeln!(out, "not checked: {count} {suite} fixtures (suite {suite} has no reference implementation)")?;
    }
    Ok(())
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::compare::{DIFF_CONTEXT, differences, text_diff};
    use crate::regen::Drift;
    use serde_json::json;
    use std::path::PathBuf;

    fn result(id: &str, status: RegenStatus, notes: &[&str]) -> RegenResult {
        let suite = if id.starts_with("catalogs/") { "catalogs" } else { "chat" };
        RegenResult {
            id: id.to_owned(),
            suite,
            path: PathBuf::from(format!("fixtures/{id}.json")),
            status,
            notes: notes.iter().map(|note| (*note).to_owned()).collect(),
            acknowledged: false,
        }
    }

    /// A drift, every status that prints a line, a portability note and a
    /// suite without a reference.
    fn sample() -> Vec<RegenResult> {
        let stored = json!({"expected": {"blocks": [{"state": "completed", "text": "done"}]}});
        let recomputed = json!({"expected": {"blocks": [{"state": "running", "text": "done"}]}});
        let (found, omitted) = differences(&stored, &recomputed);
        let (old_text, new_text) =
            (crate::json::to_canonical_string(&stored), crate::json::to_canonical_string(&recomputed));
        let drift =
            Drift { differences: found, omitted, hunks: text_diff(&old_text, &new_text, DIFF_CONTEXT), text: new_text };
        vec![
            result("chat/clean", RegenStatus::Clean, &[]),
            RegenResult {
                acknowledged: true,
                ..result(
                    "chat/tie-on-purpose",
                    RegenStatus::Clean,
                    &["rows tied on time are ordered by the engine's sort"],
                )
            },
            result(
                "chat/moved",
                RegenStatus::Drifted(Box::new(drift)),
                &["rows tied on time are ordered by the engine's sort"],
            ),
            result("chat/throws", RegenStatus::ReferenceFailed("input is not an object".to_owned()), &[]),
            result("chat/broken", RegenStatus::Invalid(vec!["/expected: missing member `blocks`".to_owned()]), &[]),
            result("chat/future", RegenStatus::UnsupportedVersion { found: 9 }, &[]),
            result("chat/newer", RegenStatus::Unimplemented { found: 3 }, &[]),
            result("catalogs/a", RegenStatus::NoReference, &[]),
            result("catalogs/b", RegenStatus::NoReference, &[]),
        ]
    }

    fn rendered(no_diff: bool) -> String {
        let mut out = Vec::new();
        write_results(&mut out, &sample(), no_diff).expect("writing to memory succeeds");
        String::from_utf8(out).expect("the text is UTF-8")
    }

    #[test]
    fn the_sample_regeneration() {
        insta::assert_snapshot!(rendered(false));
    }

    #[test]
    fn the_sample_regeneration_without_diffs() {
        insta::assert_snapshot!(rendered(true));
    }
}
