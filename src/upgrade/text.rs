//! What `conform upgrade` prints of each fixture: expectations a new
//! fixtureVersion recomputes, with their differences, and fixtures it did
//! not upgrade (whole suites on one line).

use super::{NotUpgraded, UpgradeResult, UpgradeStatus};
use crate::review::{differences_word, write_fixture_change};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Writes one line (with the differences of a recomputed expectation) per
/// result that has something to say about the upgrade to `target`.
pub fn write_results(out: &mut dyn Write, results: &[UpgradeResult], target: u32) -> io::Result<()> {
    // Whole suites that cannot move are one line each, not one per fixture.
    let mut per_suite: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for result in results {
        match &result.status {
            UpgradeStatus::Upgraded { .. } => {}
            UpgradeStatus::Recomputed { differences, omitted, .. } => {
                let count = differences.len() + omitted;
                writeln!(
                    out,
                    "recomputed {} ({}): fixtureVersion {target} changes its expectation, {count} {} \
                     (the description notes it)",
                    result.id,
                    result.path.display(),
                    differences_word(count)
                )?;
                write_fixture_change(out, differences, *omitted, &[], true)?;
            }
            UpgradeStatus::NotUpgraded(
                reason @ (NotUpgraded::NoShape | NotUpgraded::NoReference | NotUpgraded::Unimplemented),
            ) => *per_suite.entry((result.suite, reason.to_string())).or_default() += 1,
            UpgradeStatus::NotUpgraded(NotUpgraded::AlreadyCurrent { .. }) => {}
            UpgradeStatus::NotUpgraded(reason) => {
                writeln!(out, "not upgraded {}: {reason}", result.id)?;
            }
        }
    }
    for ((suite, reason), count) in &per_suite {
        writeln!(out, "not upgraded: {count} {suite} fixtures: {reason} (fixtureVersion {target})")?;
    }
    Ok(())
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::compare::differences;
    use serde_json::json;
    use std::path::PathBuf;

    fn result(id: &str, status: UpgradeStatus) -> UpgradeResult {
        let suite = id.split('/').next().map_or("chat", |suite| if suite == "sse" { "sse" } else { "chat" });
        UpgradeResult {
            id: id.to_owned(),
            suite,
            path: PathBuf::from(format!("fixtures/{id}.json")),
            from: Some(1),
            status,
        }
    }

    /// Every status: upgraded and current ones say nothing, a recomputed
    /// one lists its differences, whole suites that cannot move are one line.
    fn sample() -> Vec<UpgradeResult> {
        let (found, omitted) = differences(
            &json!({"expected": {"blocks": [{"text": "a"}]}}),
            &json!({"expected": {"blocks": [{"text": "a", "links": []}]}}),
        );
        vec![
            result("chat/plain", UpgradeStatus::Upgraded { text: "{}".to_owned() }),
            result("chat/links", UpgradeStatus::Recomputed { differences: found, omitted, text: "{}".to_owned() }),
            result("chat/current", UpgradeStatus::NotUpgraded(NotUpgraded::AlreadyCurrent { found: 2 })),
            result("chat/torn", UpgradeStatus::NotUpgraded(NotUpgraded::Invalid(vec!["not JSON".to_owned()]))),
            result(
                "chat/throws",
                UpgradeStatus::NotUpgraded(NotUpgraded::ReferenceFailed("input is not an object".to_owned())),
            ),
            result("sse/a", UpgradeStatus::NotUpgraded(NotUpgraded::NoShape)),
            result("sse/b", UpgradeStatus::NotUpgraded(NotUpgraded::NoShape)),
        ]
    }

    #[test]
    fn the_sample_upgrade() {
        let mut out = Vec::new();
        write_results(&mut out, &sample(), 2).expect("writing to memory succeeds");
        insta::assert_snapshot!(String::from_utf8(out).expect("the text is UTF-8"));
    }
}
