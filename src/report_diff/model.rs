//! What a report diff is made of: each fixture's standing in a run, the
//! runs compared, and the fixtures that changed between them.

use crate::report::{CaseReport, Counts, DifferenceReport, RunReport, Verdict};
use serde::{Deserialize, Serialize};

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
    pub(super) fn of(report: &RunReport, path: &str) -> Self {
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
    pub(super) fn of(case: &CaseReport) -> Self {
        CaseState { verdict: case.verdict, message: case.message.clone(), differences: case.differences.clone() }
    }

    /// The differences as `pointer kind` signatures, for comparing failures.
    pub(super) fn signatures(&self) -> Vec<String> {
        self.differences.iter().map(|d| format!("{} {}", d.pointer, d.kind)).collect()
    }
}

/// A fixture whose outcome changed between the runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseChange {
    /// The fixture id.
    pub id: String,
    /// Its suite (whose README states the rules its differences name).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub suite: String,
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
