//! Diffs between two runs (`conform compare OLD.json NEW.json`): what a pull
//! request changed about conformance.
//!
//! Each fixture is placed on one of three *standings* per run: passing
//! (`pass`, or `xpass`: the output was right), failing (`fail`, `error`,
//! `crash`, `timeout`, `protocol-error`, `xfail`) or not judged (skipped,
//! unsupported, invalid, unsupported-version). A regression is a fixture that
//! was passing and is not any more; a fix is the reverse. Fixtures failing in
//! both runs are listed when the failure itself changed (verdict, differences
//! or message), since "still red, but differently" is often the first sign
//! of a regression hidden behind a known failure. [`render`] writes the diff
//! for a terminal, a PR comment or a machine.

pub mod render;

use crate::report::cluster::message_class;
use crate::report::{CaseReport, Counts, DifferenceReport, RunReport, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where a verdict leaves a fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// The implementation's output was right.
    Passing,
    /// The implementation got it wrong or produced nothing.
    Failing,
    /// Nobody judged it (skipped, unsupported, broken fixture, …).
    NotJudged,
}

impl Standing {
    /// The standing of a verdict.
    pub fn of(verdict: Verdict) -> Self {
        match verdict {
            Verdict::Pass | Verdict::Xpass => Standing::Passing,
            Verdict::Fail
            | Verdict::Error
            | Verdict::Crash
            | Verdict::Timeout
            | Verdict::ProtocolError
            | Verdict::Xfail => Standing::Failing,
            Verdict::Skipped | Verdict::Unsupported | Verdict::Invalid | Verdict::UnsupportedVersion => {
                Standing::NotJudged
            }
        }
    }
}

/// Which run a report diff is about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// The report file, as given.
    pub path: String,
    /// The implementation's name and version.
    pub implementation: String,
    /// The harness version.
    pub harness: String,
    /// When the run started.
    pub started_at: String,
    /// Its verdict counts.
    pub summary: Counts,
}

impl RunIdentity {
    fn of(report: &RunReport, path: &str) -> Self {
        RunIdentity {
            path: path.to_owned(),
            implementation: format!("{} {}", report.implementation.name, report.implementation.version),
            harness: report.harness.version.clone(),
            started_at: report.started_at.clone(),
            summary: report.summary.clone(),
        }
    }
}

/// One side of a changed fixture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseState {
    /// The verdict.
    pub verdict: Verdict,
    /// The main message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Differences by pointer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<DifferenceReport>,
}

impl CaseState {
    fn of(case: &CaseReport) -> Self {
        CaseState { verdict: case.verdict, message: case.message.clone(), differences: case.differences.clone() }
    }

    /// The differences as `pointer kind` signatures, for comparing failures.
    fn signatures(&self) -> Vec<String> {
        self.differences.iter().map(|d| format!("{} {}", d.pointer, d.kind)).collect()
    }
}

/// A fixture whose outcome changed between the runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseChange {
    /// The fixture id.
    pub id: String,
    /// The fixture file (in the new run).
    pub path: String,
    /// Its state in the old run.
    pub old: CaseState,
    /// Its state in the new run.
    pub new: CaseState,
}

/// A fixture present in only one of the runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseOnlyIn {
    /// The fixture id.
    pub id: String,
    /// Its verdict in the run that has it.
    pub verdict: Verdict,
    /// Its message there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Everything that differs between two runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportDiff {
    /// The old run.
    pub old: RunIdentity,
    /// The new run.
    pub new: RunIdentity,
    /// Passing before, not passing now.
    pub regressions: Vec<CaseChange>,
    /// Not passing before, passing now.
    pub fixes: Vec<CaseChange>,
    /// Failing in both runs, but differently.
    pub changed_failures: Vec<CaseChange>,
    /// Other verdict changes (e.g. failing to skipped).
    pub other_changes: Vec<CaseChange>,
    /// Fixtures only the new run has.
    pub added: Vec<CaseOnlyIn>,
    /// Fixtures only the old run has.
    pub removed: Vec<CaseOnlyIn>,
    /// Fixtures with the same outcome in both runs.
    pub unchanged: usize,
}

impl ReportDiff {
    /// The exit code of `conform compare`: 1 when anything regressed.
    pub fn exit_code(&self) -> i32 {
        if self.regressions.is_empty() {
            crate::error::exit_code::CONFORMANT
        } else {
            crate::error::exit_code::FAILURES
        }
    }

    /// `1 regression, 1 fix, 2 new fixtures` (only the non-zero parts;
    /// `no changes` when there are none).
    pub fn headline(&self) -> String {
        let parts: Vec<String> = [
            (self.regressions.len(), "regression", "regressions"),
            (self.fixes.len(), "fix", "fixes"),
            (self.changed_failures.len(), "changed failure", "changed failures"),
            (self.other_changes.len(), "other change", "other changes"),
            (self.added.len(), "new fixture", "new fixtures"),
            (self.removed.len(), "removed fixture", "removed fixtures"),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        if parts.is_empty() { "no changes".to_owned() } else { parts.join(", ") }
    }
}

/// Diffs two reports. `old_path` and `new_path` label the runs.
pub fn diff_reports(old: &RunReport, new: &RunReport, old_path: &str, new_path: &str) -> ReportDiff {
    let old_cases: HashMap<&str, &CaseReport> = old.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let new_ids: HashMap<&str, ()> = new.cases.iter().map(|c| (c.id.as_str(), ())).collect();
    let mut diff = ReportDiff {
        old: RunIdentity::of(old, old_path),
        new: RunIdentity::of(new, new_path),
        regressions: Vec::new(),
        fixes: Vec::new(),
        changed_failures: Vec::new(),
        other_changes: Vec::new(),
        added: Vec::new(),
        removed: Vec::new(),
        unchanged: 0,
    };
    for case in &new.cases {
        let Some(before) = old_cases.get(case.id.as_str()) else {
            diff.added.push(CaseOnlyIn { id: case.id.clone(), verdict: case.verdict, message: case.message.clone() });
            continue;
        };
        let change = CaseChange {
            id: case.id.clone(),
            path: case.path.clone(),
            old: CaseState::of(before),
            new: CaseState::of(case),
        };
        match (Standing::of(before.verdict), Standing::of(case.verdict)) {
            (Standing::Passing, Standing::Passing) => diff.unchanged += 1,
            (Standing::Passing, _) => diff.regressions.push(change),
            (_, Standing::Passing) => diff.fixes.push(change),
            (Standing::Failing, Standing::Failing) => {
                // Message classes, not raw messages: "timed out after 5012 ms"
                // and "… 5031 ms" are the same failure.
                let class = |state: &CaseState| message_class(state.message.as_deref().unwrap_or(""));
                let same = change.old.verdict == change.new.verdict
                    && change.old.signatures() == change.new.signatures()
                    && class(&change.old) == class(&change.new);
                if same {
                    diff.unchanged += 1;
                } else {
                    diff.changed_failures.push(change);
                }
            }
            _ if before.verdict == case.verdict => diff.unchanged += 1,
            _ => diff.other_changes.push(change),
        }
    }
    for case in &old.cases {
        if !new_ids.contains_key(case.id.as_str()) {
            diff.removed.push(CaseOnlyIn { id: case.id.clone(), verdict: case.verdict, message: case.message.clone() });
        }
    }
    diff
}
