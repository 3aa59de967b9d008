//! The result model of an exploration: one [`ExploreReport`] feeds the
//! terminal, JSON and Markdown writers, and is the JSON report itself
//! (`conform-explore-report`, version 1), so it reads back too.

use crate::compare::DiffHunk;
use crate::error::exit_code;
use crate::explore::judge::Side;
use crate::fixture::Notice;
use crate::implementation::ImplementationInfo;
use crate::report::{DifferenceReport, HarnessInfo};
use crate::suite_api::Contract;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Identifies the JSON explore report.
pub const EXPLORE_REPORT_FORMAT: &str = "conform-explore-report";
/// Version of the JSON explore report.
pub const EXPLORE_REPORT_FORMAT_VERSION: u32 = 1;

/// A whole exploration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreReport {
    /// Always [`EXPLORE_REPORT_FORMAT`].
    pub format: String,
    /// [`EXPLORE_REPORT_FORMAT_VERSION`].
    pub format_version: u32,
    /// The harness.
    pub harness: HarnessInfo,
    /// The implementation under test.
    pub implementation: ImplementationInfo,
    /// What it was judged against.
    pub against: ImplementationInfo,
    /// The seed: with the paths, it determines every input.
    pub seed: u64,
    /// Inputs per suite asked for (`--count`), when counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Time asked for in milliseconds (`--time`), when timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// Whether inputs that are not valid cases were kept (`--any-json`).
    pub any_json: bool,
    /// Whether only inputs in the wire contract were sent (`--in-contract`).
    #[serde(default)]
    pub in_contract: bool,
    /// Worker threads.
    pub jobs: usize,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// Wall time of exploring and reducing, in milliseconds.
    pub duration_ms: f64,
    /// Wall time of exploring alone, in milliseconds.
    pub explore_ms: f64,
    /// The fixture paths the seeds came from.
    pub paths: Vec<String>,
    /// Notes and warnings (corpus problems, early stops).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<Notice>,
    /// Totals over the suites.
    pub summary: ExploreSummary,
    /// Per suite, in registry order.
    pub suites: Vec<SuiteExplored>,
    /// The clusters reduced, by suite, most frequent first.
    pub clusters: Vec<ClusterReport>,
    /// The clusters beyond `--max-pending`: named and counted, not reduced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreduced: Vec<ClusterLine>,
}

/// Totals of an exploration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExploreSummary {
    /// Input numbers taken.
    pub generated: u64,
    /// Numbers with no valid draw.
    pub rejected: u64,
    /// Inputs judged.
    pub judged: u64,
    /// Judged inputs where both sides agree.
    pub agreed: u64,
    /// Judged inputs where they diverge.
    pub diverged: u64,
    /// Inputs a side declined or does not implement.
    pub unjudged: u64,
    /// Judged inputs outside the suites' wire contracts.
    #[serde(default)]
    pub robustness: u64,
    /// Draws outside the wire contracts dropped before being sent
    /// (`--in-contract`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
    /// Distinct clusters.
    pub clusters: usize,
    /// Generated inputs per second of exploring.
    pub inputs_per_second: f64,
}

/// Where one suite's exploring time went, in milliseconds summed over the
/// workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseMillis {
    /// Mutating, the reference on each draw, validity checks.
    pub generate: f64,
    /// The implementation under test.
    pub subject: f64,
    /// The other side when it is an external implementation (the
    /// reference's run is part of `generate`).
    pub against: f64,
    /// Comparing and clustering.
    pub judge: f64,
}

/// One suite's share of an exploration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SuiteExplored {
    /// The suite.
    pub suite: String,
    /// Seed fixtures.
    pub seeds: usize,
    /// Input numbers taken.
    pub generated: u64,
    /// Numbers with no valid draw.
    pub rejected: u64,
    /// Inputs judged.
    pub judged: u64,
    /// Judged inputs where both sides agree.
    pub agreed: u64,
    /// Judged inputs where they diverge.
    pub diverged: u64,
    /// Inputs a side declined or does not implement.
    pub unjudged: u64,
    /// Judged inputs outside the suite's wire contract.
    #[serde(default)]
    pub robustness: u64,
    /// Draws outside the wire contract dropped before being sent
    /// (`--in-contract`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
    /// Divergences beyond the cluster limit, counted only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unclustered: u64,
    /// Distinct clusters.
    pub clusters: usize,
    /// Where the time went.
    pub time_ms: PhaseMillis,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What one side made of a cluster's reduced example, when it was not an
/// output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideOutcome {
    /// `output`, `error`, `crash`, `timeout`, `protocol-error`, `skipped`
    /// or `unsupported`.
    pub outcome: String,
    /// The output, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The message, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One cluster: divergences that share a signature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterReport {
    /// Stable, file-name-safe name (the pending fixture's name).
    pub slug: String,
    /// The suite.
    pub suite: String,
    /// The signature in one line.
    pub signature: String,
    /// The side whose behaviour it is about (a fault's side; the
    /// implementation under test for differences).
    pub side: Side,
    /// `in-contract` when any input that showed it is valid against the
    /// suite's wire schema, `robustness` when none is.
    #[serde(default)]
    pub contract: Contract,
    /// Inputs that showed it.
    pub count: u64,
    /// Of those, the inputs in the wire contract.
    #[serde(default)]
    pub in_contract: u64,
    /// The first input that showed it (`suite#index`).
    pub first_input: String,
    /// The smallest example, reduced.
    pub example: ExampleReport,
    /// The pending fixture written for it, when one could be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
    /// Why no pending fixture was written, when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_fixture: Option<String>,
}

/// A cluster that was not reduced (beyond `--max-pending`): enough to find
/// it again (`--replay` its example), at a bounded size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterLine {
    /// The suite.
    pub suite: String,
    /// The signature in one line.
    pub signature: String,
    /// The side it is about.
    pub side: Side,
    /// `in-contract` or `robustness`, as for a reduced cluster.
    #[serde(default)]
    pub contract: Contract,
    /// Inputs that showed it.
    pub count: u64,
    /// The first input that showed it (`suite#index`).
    pub first_input: String,
    /// Its smallest input (`suite#index`), as generated.
    pub example_input: String,
}

/// A cluster's smallest example: how to make it again, and what it shows
/// once reduced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExampleReport {
    /// `suite#index`: `conform explore --seed S --replay suite#index`
    /// prints the input as generated.
    pub input_id: String,
    /// The seed fixture it was made from.
    pub seed_fixture: String,
    /// The mutations applied to the seed, in order.
    pub mutations: Vec<String>,
    /// The item list that was reduced, when the input has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    /// Items before reduction.
    pub items_before: usize,
    /// Items after reduction.
    pub items_after: usize,
    /// Compact bytes of the input before reduction.
    pub bytes_before: usize,
    /// Compact bytes after.
    pub bytes_after: usize,
    /// Implementation runs the reduction spent.
    pub reduction_runs: usize,
    /// Why the example is not (fully) reduced, when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduction_note: Option<String>,
    /// The reduced input part.
    pub input: Value,
    /// Whether the reduced input is valid against the suite's wire schema.
    #[serde(default)]
    pub contract: Contract,
    /// What the other side made of it.
    pub expected: SideOutcome,
    /// What the implementation under test made of it.
    pub actual: SideOutcome,
    /// Differences of the actual output from the expected one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<DifferenceReport>,
    /// Line diff of the canonical outputs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diff: Vec<DiffHunk>,
}

impl ExploreReport {
    /// 0 when nothing diverged, 1 when something did.
    pub fn exit_code(&self) -> i32 {
        if self.clusters.is_empty() && self.unreduced.is_empty() && self.summary.diverged == 0 {
            exit_code::CONFORMANT
        } else {
            exit_code::FAILURES
        }
    }

    /// `N inputs, N judged, N diverged in N clusters (N/s)`.
    pub fn summary_line(&self) -> String {
        let s = &self.summary;
        let clusters = if s.clusters == 1 { "1 cluster".to_owned() } else { format!("{} clusters", s.clusters) };
        let mut line = format!(
            "{} inputs, {} judged, {} agreed, {} diverged in {clusters} ({:.0} inputs/s)",
            s.generated, s.judged, s.agreed, s.diverged, s.inputs_per_second
        );
        if s.robustness > 0 {
            line.push_str(&format!(", {} judged outside the wire contract (robustness)", s.robustness));
        }
        if s.rejected > 0 {
            line.push_str(&format!(", {} rejected as invalid", s.rejected));
        }
        if s.dropped > 0 {
            line.push_str(&format!(", {} dropped outside the wire contract", s.dropped));
        }
        if s.unjudged > 0 {
            line.push_str(&format!(", {} unjudged", s.unjudged));
        }
        line
    }
}
