//! The result model of a run: one [`RunReport`] feeds every writer.
//!
//! It is also the JSON report's schema (`schemas/report.schema.json`), so it
//! deserializes too: report diffs, baselines and merges read it back.

use super::baseline_summary::BaselineSummary;
use super::cluster::{Cluster, cluster};
use super::limits::ArtifactLimits;
use crate::compare::{DiffHunk, Difference, DifferenceKind};
use crate::error::exit_code;
use crate::fixture::Notice;
use crate::implementation::{ImplementationInfo, Outcome};
use crate::suite_api::Contract;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Identifies the JSON report format.
pub const REPORT_FORMAT: &str = "conform-report";
/// Version of the JSON report format.
pub const REPORT_FORMAT_VERSION: u32 = 1;

/// The verdict on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Output canonically equal to the expectation.
    Pass,
    /// Output differs from the expectation.
    Fail,
    /// The implementation could not produce an output.
    Error,
    /// The fixture document itself is broken.
    Invalid,
    /// The fixture's version is one the harness cannot judge.
    UnsupportedVersion,
    /// The implementation declined the case.
    Skipped,
    /// The implementation does not implement this suite or version.
    Unsupported,
    /// The implementation's process died during the case.
    Crash,
    /// The implementation did not answer in time.
    Timeout,
    /// The implementation broke the protocol.
    ProtocolError,
    /// Failed as a baseline entry expected.
    Xfail,
    /// Listed as a known failure in the baseline, but passed.
    Xpass,
}

/// How a verdict counts in the summary line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// Counts as passed.
    Passed,
    /// Counts as failed.
    Failed,
    /// Counts as skipped (does not fail the run).
    Skipped,
    /// An expected failure (does not fail the run).
    KnownFailure,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 12] = [
        Verdict::Pass,
        Verdict::Fail,
        Verdict::Error,
        Verdict::Crash,
        Verdict::Timeout,
        Verdict::ProtocolError,
        Verdict::Xpass,
        Verdict::Invalid,
        Verdict::UnsupportedVersion,
        Verdict::Xfail,
        Verdict::Skipped,
        Verdict::Unsupported,
    ];

    /// The verdict an outcome without an output earns on its own (`error`,
    /// `skipped`, `crash`, …); `None` for an output, whose verdict comes
    /// from comparing it with the expectation.
    pub fn of(outcome: &Outcome) -> Option<Verdict> {
        Some(match outcome {
            Outcome::Output(_) => return None,
            Outcome::Error(_) => Verdict::Error,
            Outcome::Skipped(_) => Verdict::Skipped,
            Outcome::Unsupported(_) => Verdict::Unsupported,
            Outcome::Crash(_) => Verdict::Crash,
            Outcome::Timeout(_) => Verdict::Timeout,
            Outcome::ProtocolError(_) => Verdict::ProtocolError,
        })
    }

    /// Whether the implementation itself broke down (crash, timeout,
    /// protocol error) rather than answering.
    pub fn is_fault(self) -> bool {
        matches!(self, Verdict::Crash | Verdict::Timeout | Verdict::ProtocolError)
    }

    /// The kebab-case name used in every report.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Error => "error",
            Verdict::Invalid => "invalid",
            Verdict::UnsupportedVersion => "unsupported-version",
            Verdict::Skipped => "skipped",
            Verdict::Unsupported => "unsupported",
            Verdict::Crash => "crash",
            Verdict::Timeout => "timeout",
            Verdict::ProtocolError => "protocol-error",
            Verdict::Xfail => "xfail",
            Verdict::Xpass => "xpass",
        }
    }

    /// How the verdict counts in the summary line.
    pub fn tally(self) -> Tally {
        match self {
            Verdict::Pass => Tally::Passed,
            Verdict::Skipped | Verdict::Unsupported => Tally::Skipped,
            Verdict::Xfail => Tally::KnownFailure,
            _ => Tally::Failed,
        }
    }

    /// The exit code this verdict alone would give the run.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Invalid | Verdict::UnsupportedVersion => exit_code::CANNOT_JUDGE,
            _ if self.tally() == Tally::Failed => exit_code::FAILURES,
            _ => exit_code::CONFORMANT,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference as reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DifferenceReport {
    /// JSON pointer into the expected part.
    pub pointer: String,
    /// The pointer with indices replaced by `*` (for clustering).
    pub pattern: String,
    /// What differs.
    pub kind: DifferenceKind,
    /// One line for humans.
    pub message: String,
    /// The expected value, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The actual value, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// Number of elements, for element differences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// The contract rules that decided the expected value here, by the
    /// reference's provenance (for the first differences of a case; see
    /// `report::rules`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

impl From<&Difference> for DifferenceReport {
    fn from(difference: &Difference) -> Self {
        DifferenceReport {
            pointer: difference.pointer.clone(),
            pattern: difference.pointer_pattern(),
            kind: difference.kind,
            message: difference.message(),
            expected: difference.expected.clone(),
            actual: difference.actual.clone(),
            count: difference.count,
            rules: Vec::new(),
        }
    }
}

/// The verdict and evidence for one fixture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseReport {
    /// `suite/name`.
    pub id: String,
    /// Suite name.
    pub suite: String,
    /// Fixture name.
    pub name: String,
    /// The fixture file.
    pub path: String,
    /// The fixture's version, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture_version: Option<u32>,
    /// `robustness` when the fixture's input is outside its suite's wire
    /// schema (an input no real hub sends, pinned on purpose); left out when
    /// it is in the contract or the fixture could not be read.
    #[serde(default, skip_serializing_if = "Contract::is_in_contract")]
    pub contract: Contract,
    /// The verdict.
    pub verdict: Verdict,
    /// Time the implementation spent on the case, in milliseconds.
    pub duration_ms: f64,
    /// The main message: first difference, error text, reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Problems with the fixture document (verdict `invalid`), one line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Differences by pointer (verdict `fail`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<DifferenceReport>,
    /// Differences found beyond those listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted_differences: usize,
    /// Line diff of the canonical expected and actual texts (within the
    /// run's diff budget).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diff: Vec<DiffHunk>,
    /// What the diff budget cut from `diff`, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_note: Option<String>,
    /// Values left out of this case by the caps on kept values, one line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<String>,
    /// What the implementation wrote to stderr during the case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// The case input (kept for cases that did not pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// The expected part (kept for cases that did not pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The implementation's output (kept for cases that did not pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
}

impl CaseReport {
    /// A report on the case `id` (`suite/name`, read from `path`) with its
    /// verdict and no evidence yet.
    pub fn new(id: String, suite: &str, name: String, path: String, verdict: Verdict) -> Self {
        CaseReport {
            id,
            suite: suite.to_owned(),
            name,
            path,
            fixture_version: None,
            contract: Contract::InContract,
            verdict,
            duration_ms: 0.0,
            message: None,
            problems: Vec::new(),
            differences: Vec::new(),
            omitted_differences: 0,
            diff: Vec::new(),
            diff_note: None,
            cut: Vec::new(),
            stderr: None,
            input: None,
            expected: None,
            actual: None,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Harness identity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarnessInfo {
    /// Always `conform`.
    pub name: String,
    /// The harness version.
    pub version: String,
}

impl HarnessInfo {
    /// This build of the harness.
    pub fn current() -> Self {
        HarnessInfo { name: "conform".to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() }
    }
}

/// Counts of verdicts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// All cases.
    pub total: usize,
    /// Cases that passed.
    pub passed: usize,
    /// Cases that count as failed (see [`Verdict::tally`]).
    pub failed: usize,
    /// Cases skipped by the implementation or unsupported by it.
    pub skipped: usize,
    /// Expected failures from a baseline.
    pub known_failures: usize,
    /// Count per verdict (only verdicts that occurred).
    pub by_verdict: BTreeMap<Verdict, usize>,
}

impl Counts {
    /// Counts the verdicts of `cases`.
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a CaseReport>) -> Self {
        let mut counts = Counts::default();
        for case in cases {
            counts.add(case.verdict);
        }
        counts
    }

    fn add(&mut self, verdict: Verdict) {
        self.total += 1;
        *self.by_verdict.entry(verdict).or_default() += 1;
        match verdict.tally() {
            Tally::Passed => self.passed += 1,
            Tally::Failed => self.failed += 1,
            Tally::Skipped => self.skipped += 1,
            Tally::KnownFailure => self.known_failures += 1,
        }
    }

    /// The verdicts that occurred, in report order ([`Verdict::ALL`]).
    pub fn verdicts(&self) -> Vec<Verdict> {
        Verdict::ALL.into_iter().filter(|verdict| self.by_verdict.contains_key(verdict)).collect()
    }

    /// How many cases got `verdict`.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.by_verdict.get(&verdict).copied().unwrap_or(0)
    }

    /// The headline counts with their names, in display order: passed,
    /// failed, known failures, skipped, total.
    pub fn named(&self) -> [(&'static str, usize); 5] {
        [
            ("passed", self.passed),
            ("failed", self.failed),
            ("known failures", self.known_failures),
            ("skipped", self.skipped),
            ("total", self.total),
        ]
    }

    /// `N passed, N failed` plus `, N skipped` / `, N known failures` when
    /// there are any: the last line of the terminal report.
    pub fn summary_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        if self.known_failures > 0 {
            line.push_str(&format!(", {} known failures", self.known_failures));
        }
        line
    }
}

/// Counts for one suite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteCounts {
    /// Suite name.
    pub suite: String,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
}

/// Which share of the corpus a sharded run covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    /// 1-based shard index.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

/// What a run selected, so that `conform report merge` can tell shards of
/// one selection from reports that do not add up to one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionSummary {
    /// The fixture paths of [`RunReport::paths`] made absolute with symlinks
    /// resolved (as given when that fails), in the same order.
    pub roots: Vec<String>,
    /// `--suite` values, sorted, without repeats (empty: every suite).
    pub suites: Vec<String>,
    /// `--filter` globs, sorted, without repeats (empty: no filter).
    pub filters: Vec<String>,
    /// Fixtures of the whole selection, every shard together (the suites an
    /// implementation did not declare already left out).
    pub fixtures: usize,
    /// Fixtures this report's share selected: its shard's, or `fixtures`.
    pub selected: usize,
    /// 64-bit FNV-1a, in hexadecimal, of the whole selection's fixture ids,
    /// sorted, each followed by a newline: shards of one selection agree on
    /// it whatever their paths, and two trees of the same size do not.
    pub digest: String,
}

/// Everything about one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// Always [`REPORT_FORMAT`].
    pub format: String,
    /// Always [`REPORT_FORMAT_VERSION`].
    pub format_version: u32,
    /// The harness that ran.
    pub harness: HarnessInfo,
    /// The implementation judged.
    pub implementation: ImplementationInfo,
    /// When the run started (RFC 3339, UTC).
    pub started_at: String,
    /// Wall time of the run, in milliseconds.
    pub duration_ms: f64,
    /// Fixture paths as given.
    pub paths: Vec<String>,
    /// The shard, for partitioned runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// What the run selected (reports of conform before this member have
    /// none, and `report merge` refuses them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionSummary>,
    /// Notes, warnings and errors about the corpus.
    pub notices: Vec<Notice>,
    /// Verdict counts over all cases.
    pub summary: Counts,
    /// Verdict counts per suite, in suite order.
    pub suites: Vec<SuiteCounts>,
    /// One entry per fixture, in discovery order.
    pub cases: Vec<CaseReport>,
    /// Failures grouped by signature, largest group first.
    #[serde(default)]
    pub clusters: Vec<Cluster>,
    /// What the known-failures baseline did, when the run used one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineSummary>,
    /// The bounds the run applied to diffs and kept values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<ArtifactLimits>,
}

impl RunReport {
    /// Recomputes `summary`, `suites` and `clusters` from `cases` (after
    /// cases changed, e.g. when a baseline reclassifies them).
    pub fn recount(&mut self) {
        let verdicts: Vec<(String, Verdict)> = self.cases.iter().map(|c| (c.suite.clone(), c.verdict)).collect();
        self.recount_over(verdicts.iter().map(|(suite, verdict)| (suite.as_str(), *verdict)));
    }

    /// Recomputes `summary` and `suites` from the suite and verdict of every
    /// case of the run, and `clusters` from `cases`: for a report that keeps
    /// only the cases that did not pass (clusters are made of those alone).
    pub fn recount_over<'a>(&mut self, verdicts: impl IntoIterator<Item = (&'a str, Verdict)>) {
        self.summary = Counts::default();
        self.clusters = cluster(&self.cases, self.baseline.as_ref());
        let mut suites: Vec<SuiteCounts> = Vec::new();
        for (suite, verdict) in verdicts {
            self.summary.add(verdict);
            match suites.iter_mut().find(|s| s.suite == suite) {
                Some(entry) => entry.counts.add(verdict),
                None => {
                    let mut counts = Counts::default();
                    counts.add(verdict);
                    suites.push(SuiteCounts { suite: suite.to_owned(), counts });
                }
            }
        }
        let order = |name: &str| crate::suites::all().iter().position(|s| s.name() == name).unwrap_or(usize::MAX);
        suites.sort_by_key(|s| order(&s.suite));
        self.suites = suites;
    }

    /// Why the run judged nothing, when every case was skipped or
    /// unsupported (a misspelt suite in an adapter's hello, a one-suite
    /// adapter on another suite's fixtures): one line for the terminal.
    /// `None` when some case was judged, when there were no cases (an empty
    /// shard), or when a baseline lists every one of those cases (the team
    /// said so on purpose).
    pub fn nothing_judged(&self) -> Option<String> {
        let not_judged = self.summary.skipped;
        if self.summary.total == 0 || not_judged < self.summary.total {
            return None;
        }
        let listed = self.baseline.as_ref().map(BaselineSummary::listed_cases).unwrap_or_default();
        if self.cases.iter().all(|case| listed.contains(case.id.as_str())) {
            return None;
        }
        let unsupported = self.summary.count(Verdict::Unsupported);
        let why = if unsupported == not_judged {
            "the implementation declares none of the selected suites and fixtureVersions"
        } else if unsupported == 0 {
            "the implementation skipped every case"
        } else {
            "the implementation skipped the cases it supports"
        };
        Some(format!(
            "no case was judged: {} skipped, {unsupported} unsupported of {} ({why}); \
             pass --allow-no-judged or list them in a baseline if that is intended",
            not_judged - unsupported,
            self.summary.total
        ))
    }

    /// The process exit code for this run: 2 when anything could not be
    /// judged (invalid fixtures, unsupported versions, corpus errors), else 1
    /// when anything failed or a baseline entry is stale or expired, else 0.
    pub fn exit_code(&self) -> i32 {
        let corpus_errors = self.notices.iter().any(Notice::is_error);
        let baseline = match &self.baseline {
            Some(summary) if summary.fails_run() => exit_code::FAILURES,
            _ => exit_code::CONFORMANT,
        };
        let worst = self.cases.iter().map(|c| c.verdict.exit_code()).fold(baseline, i32::max);
        if corpus_errors { exit_code::CANNOT_JUDGE } else { worst }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outcome_without_output_has_the_verdict_of_its_own_name() {
        let said = |message: &str| message.to_owned();
        let outcomes = [
            (Outcome::Error(said("e")), "error"),
            (Outcome::Skipped(said("s")), "skipped"),
            (Outcome::Unsupported(said("u")), "unsupported"),
            (Outcome::Crash(said("c")), "crash"),
            (Outcome::Timeout(said("t")), "timeout"),
            (Outcome::ProtocolError(said("p")), "protocol-error"),
        ];
        for (outcome, name) in outcomes {
            assert_eq!(Verdict::of(&outcome).map(Verdict::as_str), Some(name), "{outcome:?}");
        }
        assert_eq!(Verdict::of(&Outcome::Output(Value::Null)), None, "an output is judged against the expectation");
    }

    #[test]
    fn only_a_breakdown_of_the_implementation_is_a_fault() {
        let faults: Vec<Verdict> = Verdict::ALL.into_iter().filter(|verdict| verdict.is_fault()).collect();
        assert_eq!(faults, [Verdict::Crash, Verdict::Timeout, Verdict::ProtocolError]);
    }
}
