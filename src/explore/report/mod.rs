//! The explore report: its model ([`ExploreReport`]), how it is built from
//! an exploration and its shrunk clusters, and one writer per format
//! (terminal, JSON, Markdown), each a pure function of the report writing
//! to an injected `io::Write`.

mod markdown;
mod model;
mod pretty;

pub use crate::report::rules::name_rules;
use markdown::write_markdown;
pub use model::{
    ClusterLine, ClusterReport, EXPLORE_REPORT_FORMAT, EXPLORE_REPORT_FORMAT_VERSION, ExampleReport, ExploreReport,
    ExploreSummary, PhaseMillis, SideOutcome, SuiteExplored,
};
pub use pretty::write_pretty;

use super::engine::{Budget, Exploration, FoundCluster, PhaseTimes};
use super::seeds::SeedPool;
use super::shrink::ShrunkCluster;
use crate::fixture::Notice;
use crate::implementation::{ImplementationInfo, Outcome};
use crate::report::{DifferenceReport, HarnessInfo, Palette, Verdict};
use std::io;
use std::path::{Path, PathBuf};

/// What the report says about the run besides its results.
#[derive(Clone, Debug)]
pub struct RunFacts {
    /// The implementation under test.
    pub implementation: ImplementationInfo,
    /// What it was judged against.
    pub against: ImplementationInfo,
    /// The seed.
    pub seed: u64,
    /// The budget.
    pub budget: Budget,
    /// `--any-json`.
    pub any_json: bool,
    /// `--in-contract`.
    pub in_contract: bool,
    /// Worker threads.
    pub jobs: usize,
    /// Start time (RFC 3339).
    pub started_at: String,
    /// Wall time of the whole command so far, in milliseconds.
    pub duration_ms: f64,
    /// The fixture paths.
    pub paths: Vec<String>,
    /// Notices to carry.
    pub notices: Vec<Notice>,
}

/// Builds the report. `fixtures` says, per shrunk cluster (same order),
/// where its pending fixture was written or why there is none; `unreduced`
/// are the clusters left out of reduction (`--max-pending`).
pub fn build(
    facts: RunFacts,
    pools: &[SeedPool],
    exploration: &Exploration,
    shrunk: &[ShrunkCluster],
    fixtures: &[Result<String, String>],
    unreduced: &[FoundCluster],
) -> ExploreReport {
    let mut suites = Vec::new();
    let mut summary = ExploreSummary::default();
    for (index, (pool, tally)) in pools.iter().zip(&exploration.tallies).enumerate() {
        let clusters = exploration.clusters.iter().filter(|c| c.pool == index).count();
        summary.generated += tally.generated;
        summary.rejected += tally.rejected;
        summary.judged += tally.judged;
        summary.agreed += tally.agreed;
        summary.diverged += tally.diverged;
        summary.unjudged += tally.unjudged;
        summary.robustness += tally.robustness;
        summary.dropped += tally.dropped;
        suites.push(SuiteExplored {
            suite: pool.suite.name().to_owned(),
            seeds: pool.seeds.len(),
            generated: tally.generated,
            rejected: tally.rejected,
            judged: tally.judged,
            agreed: tally.agreed,
            diverged: tally.diverged,
            unjudged: tally.unjudged,
            robustness: tally.robustness,
            dropped: tally.dropped,
            unclustered: tally.overflow,
            clusters,
            time_ms: millis(&tally.times),
        });
    }
    summary.clusters = exploration.clusters.len();
    let seconds = exploration.duration.as_secs_f64();
    summary.inputs_per_second = if seconds > 0.0 { summary.generated as f64 / seconds } else { 0.0 };
    let clusters = shrunk
        .iter()
        .zip(fixtures.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(cluster, fixture)| cluster_report(pools, cluster, fixture))
        .collect();
    let unreduced = unreduced
        .iter()
        .map(|cluster| {
            let suite = pools[cluster.pool].suite.name();
            ClusterLine {
                suite: suite.to_owned(),
                signature: cluster.key.label(),
                side: cluster.key.side,
                contract: cluster.contract(),
                count: cluster.count,
                first_input: format!("{suite}#{}", cluster.first_index),
                example_input: format!("{suite}#{}", cluster.smallest.index),
            }
        })
        .collect();
    let (count, time_ms) = match facts.budget {
        Budget::Count(count) => (Some(count), None),
        Budget::Time(duration) => (None, Some(duration.as_secs_f64() * 1000.0)),
    };
    ExploreReport {
        format: EXPLORE_REPORT_FORMAT.to_owned(),
        format_version: EXPLORE_REPORT_FORMAT_VERSION,
        harness: HarnessInfo::current(),
        implementation: facts.implementation,
        against: facts.against,
        seed: facts.seed,
        count,
        time_ms,
        any_json: facts.any_json,
        in_contract: facts.in_contract,
        jobs: facts.jobs,
        started_at: facts.started_at,
        duration_ms: facts.duration_ms,
        explore_ms: seconds * 1000.0,
        paths: facts.paths,
        notices: facts.notices,
        summary,
        suites,
        clusters,
        unreduced,
    }
}

fn millis(times: &PhaseTimes) -> PhaseMillis {
    let ms = |ns: u64| ns as f64 / 1e6;
    PhaseMillis {
        generate: ms(times.generate),
        subject: ms(times.subject),
        against: ms(times.against),
        judge: ms(times.judge),
    }
}

/// An outcome as the report shows it.
pub fn side_outcome(outcome: &Outcome) -> SideOutcome {
    let name = Verdict::of(outcome).map_or("output", Verdict::as_str);
    SideOutcome {
        outcome: name.to_owned(),
        output: match outcome {
            Outcome::Output(value) => Some(value.clone()),
            _ => None,
        },
        message: outcome.message().map(str::to_owned),
    }
}

/// The reduced example's differences, each naming the rules behind it.
fn named_differences(pool: &SeedPool, seed: usize, cluster: &ShrunkCluster) -> Vec<DifferenceReport> {
    let mut found: Vec<DifferenceReport> = cluster.differences.iter().map(DifferenceReport::from).collect();
    if let Outcome::Output(expected) = &cluster.against {
        name_rules(pool.suite, pool.seeds[seed].version, &cluster.input, expected, &mut found);
    }
    found
}

fn cluster_report(
    pools: &[SeedPool],
    cluster: &ShrunkCluster,
    fixture: Option<&Result<String, String>>,
) -> ClusterReport {
    let pool = &pools[cluster.found.pool];
    let suite = pool.suite.name();
    let example = &cluster.found.smallest;
    let (list, items_before, items_after) = match &cluster.items {
        Some((list, before, after)) => (Some(list.clone()), *before, *after),
        None => (None, 0, 0),
    };
    let (pending, no_fixture) = match fixture {
        Some(Ok(path)) => (Some(path.clone()), None),
        Some(Err(why)) => (None, Some(why.clone())),
        None => (None, cluster.fixture.as_ref().err().cloned()),
    };
    ClusterReport {
        slug: cluster.slug.clone(),
        suite: suite.to_owned(),
        signature: cluster.found.key.label(),
        side: cluster.found.key.side,
        contract: cluster.found.contract(),
        count: cluster.found.count,
        in_contract: cluster.found.in_contract,
        first_input: format!("{suite}#{}", cluster.found.first_index),
        example: ExampleReport {
            input_id: format!("{suite}#{}", example.index),
            seed_fixture: pool.seeds[example.seed].id.clone(),
            mutations: example.path.clone(),
            list,
            items_before,
            items_after,
            bytes_before: cluster.bytes.0,
            bytes_after: cluster.bytes.1,
            reduction_runs: cluster.tests,
            reduction_note: cluster.reduction_note.clone(),
            input: cluster.input.clone(),
            contract: cluster.contract,
            expected: side_outcome(&cluster.against),
            actual: side_outcome(&cluster.subject),
            differences: named_differences(pool, example.seed, cluster),
            diff: cluster.diff.clone(),
        },
        pending,
        no_fixture,
    }
}

/// A report format of `conform explore`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExploreFormat {
    /// The terminal report (stdout).
    Pretty,
    /// `explore-report.json`.
    Json,
    /// `explore-report.md`.
    Markdown,
}

impl ExploreFormat {
    /// The file a format is written to in the report folder.
    pub fn file_name(self) -> Option<&'static str> {
        match self {
            ExploreFormat::Pretty => None,
            ExploreFormat::Json => Some("explore-report.json"),
            ExploreFormat::Markdown => Some("explore-report.md"),
        }
    }

    /// Writes `report` in this format.
    pub fn write(self, report: &ExploreReport, out: &mut dyn io::Write, palette: Palette) -> io::Result<()> {
        match self {
            ExploreFormat::Pretty => write_pretty(report, out, palette),
            ExploreFormat::Json => write_json(report, out),
            ExploreFormat::Markdown => write_markdown(report, out),
        }
    }
}

/// Writes the report as pretty-printed JSON with a trailing newline.
pub fn write_json(report: &ExploreReport, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// Writes the file formats among `formats` into `dir` (created if needed),
/// atomically, and returns the paths written.
pub fn write_files(report: &ExploreReport, formats: &[ExploreFormat], dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for format in formats {
        let Some(name) = format.file_name() else { continue };
        std::fs::create_dir_all(dir)?;
        let path = dir.join(name);
        let mut buffer = Vec::new();
        format.write(report, &mut buffer, Palette::plain())?;
        crate::files::write_report_atomically(&path, &buffer)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::differences;
    use crate::implementation::ImplementationKind;
    use crate::suite_api::Contract;
    use serde_json::json;

    /// A report with one cluster of each kind, fixed in every member.
    fn sample() -> ExploreReport {
        let expected = json!({"allowed": false, "reason": "`rm -rf` | *danger*"});
        let actual = json!({"allowed": true});
        let diff = crate::compare::text_diff(
            &crate::json::to_canonical_string(&expected),
            &crate::json::to_canonical_string(&actual),
            crate::compare::DIFF_CONTEXT,
        );
        let differences = differences(&expected, &actual).0.iter().map(DifferenceReport::from).collect();
        let info = |name: &str, kind| ImplementationInfo {
            name: name.to_owned(),
            version: "1.2".to_owned(),
            language: "swift".to_owned(),
            kind,
            command: None,
        };
        ExploreReport {
            format: EXPLORE_REPORT_FORMAT.to_owned(),
            format_version: EXPLORE_REPORT_FORMAT_VERSION,
            harness: HarnessInfo { name: "conform".to_owned(), version: "0.0.0".to_owned() },
            implementation: info("ios-decoder", ImplementationKind::Subprocess),
            against: info("conform-reference", ImplementationKind::Reference),
            seed: 42,
            count: Some(1000),
            time_ms: None,
            any_json: false,
            in_contract: false,
            jobs: 2,
            started_at: "2026-01-02T03:04:05Z".to_owned(),
            duration_ms: 1234.5,
            explore_ms: 1000.0,
            paths: vec!["fixtures".to_owned()],
            notices: vec![Notice::warning("stopped early: the implementation under test crashed too often")],
            summary: ExploreSummary {
                generated: 2000,
                rejected: 10,
                judged: 1990,
                agreed: 1970,
                diverged: 20,
                unjudged: 0,
                robustness: 40,
                dropped: 0,
                clusters: 2,
                inputs_per_second: 2000.0,
            },
            suites: vec![SuiteExplored {
                suite: "tool-policy".to_owned(),
                seeds: 36,
                generated: 2000,
                rejected: 10,
                judged: 1990,
                agreed: 1970,
                diverged: 20,
                unjudged: 0,
                robustness: 40,
                dropped: 0,
                unclustered: 0,
                clusters: 2,
                time_ms: PhaseMillis { generate: 100.0, subject: 700.0, against: 0.0, judge: 5.0 },
            }],
            clusters: vec![
                ClusterReport {
                    slug: "explore-allowed-value-changed-reason-missing-member-0a1b2c3d".to_owned(),
                    suite: "tool-policy".to_owned(),
                    signature: "/allowed value-changed, /reason missing-member".to_owned(),
                    side: crate::explore::Side::Subject,
                    contract: Contract::InContract,
                    count: 19,
                    in_contract: 17,
                    first_input: "tool-policy#17".to_owned(),
                    example: ExampleReport {
                        input_id: "tool-policy#301".to_owned(),
                        seed_fixture: "tool-policy/deny-rm".to_owned(),
                        mutations: vec!["edit /command: wrapped in U+001C and U+0085".to_owned()],
                        list: None,
                        items_before: 0,
                        items_after: 0,
                        bytes_before: 60,
                        bytes_after: 60,
                        reduction_runs: 12,
                        reduction_note: None,
                        input: json!({"command": "\u{1c}rm -rf /\u{85}", "mode": "planner", "tool": "Bash"}),
                        contract: Contract::InContract,
                        expected: side_outcome(&Outcome::Output(expected)),
                        actual: side_outcome(&Outcome::Output(actual)),
                        differences,
                        diff,
                    },
                    pending: Some(
                        "fixtures/tool-policy/explore-allowed-value-changed-reason-missing-member-0a1b2c3d.json.new"
                            .to_owned(),
                    ),
                    no_fixture: None,
                },
                ClusterReport {
                    slug: "explore-crash-the-implementation-ended-signal-n-9f8e7d6c".to_owned(),
                    suite: "tool-policy".to_owned(),
                    signature: "crash: the implementation ended (signal N)".to_owned(),
                    side: crate::explore::Side::Subject,
                    contract: Contract::Robustness,
                    count: 1,
                    in_contract: 0,
                    first_input: "tool-policy#977".to_owned(),
                    example: ExampleReport {
                        input_id: "tool-policy#977".to_owned(),
                        seed_fixture: "tool-policy/allow-ls".to_owned(),
                        mutations: vec!["set /command to a string of 10000 characters".to_owned()],
                        list: None,
                        items_before: 0,
                        items_after: 0,
                        bytes_before: 10_040,
                        bytes_after: 70,
                        reduction_runs: 30,
                        reduction_note: Some("the reduction stopped after 30 runs: smaller, not minimal".to_owned()),
                        input: json!({"command": "xxxxxxxxxxxxxxxx", "mode": "planner", "tool": 7}),
                        contract: Contract::Robustness,
                        expected: side_outcome(&Outcome::Output(json!({"allowed": true}))),
                        actual: side_outcome(&Outcome::Crash("the implementation ended (signal 11)".to_owned())),
                        differences: Vec::new(),
                        diff: Vec::new(),
                    },
                    pending: None,
                    no_fixture: Some("not written (--no-pending)".to_owned()),
                },
            ],
            unreduced: vec![ClusterLine {
                suite: "tool-policy".to_owned(),
                signature: "/reason value-changed".to_owned(),
                side: crate::explore::Side::Subject,
                contract: Contract::InContract,
                count: 3,
                first_input: "tool-policy#40".to_owned(),
                example_input: "tool-policy#1200".to_owned(),
            }],
        }
    }

    fn written(format: ExploreFormat, report: &ExploreReport) -> String {
        let mut out = Vec::new();
        format.write(report, &mut out, Palette::plain()).unwrap_or_else(|err| panic!("{err}"));
        String::from_utf8(out).unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn every_writer_matches_its_golden_file() {
        let report = sample();
        insta::assert_snapshot!("report_txt", written(ExploreFormat::Pretty, &report));
        insta::assert_snapshot!("report_md", written(ExploreFormat::Markdown, &report));
        insta::assert_snapshot!("report_json", written(ExploreFormat::Json, &report));
    }

    #[test]
    fn the_json_report_reads_back() {
        let report = sample();
        let text = written(ExploreFormat::Json, &report);
        let back: ExploreReport = serde_json::from_str(&text).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(back, report);
        assert_eq!(back.exit_code(), crate::error::exit_code::FAILURES);
    }
}
