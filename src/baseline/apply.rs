//! Applying a baseline to a run: listed fixtures that fail as expected become
//! `xfail`, listed fixtures that pass become `xpass`, and entries that name
//! nothing or have expired are recorded so the run fails.
//!
//! Whether an entry is stale is judged against every fixture the run
//! *loaded*, not only those it ran, so `--filter` and `--partition` runs do
//! not report the entries of fixtures they left out.

use super::file::Baseline;
use crate::fixture::{Corpus, Notice};
use crate::report::{BaselineSummary, ChangedCase, EntryOutcome, EntryStatus};
use crate::report::{RunReport, Tally, Verdict};
use chrono::NaiveDate;
use std::collections::BTreeSet;

/// The fixtures a run loaded: what decides whether an entry is stale.
#[derive(Clone, Debug, Default)]
pub struct KnownFixtures {
    ids: Vec<String>,
    suites: BTreeSet<String>,
}

impl KnownFixtures {
    /// Every fixture of a loaded corpus.
    pub fn of_corpus(corpus: &Corpus) -> Self {
        KnownFixtures {
            ids: corpus.fixtures.iter().map(|f| f.id.clone()).collect(),
            suites: corpus.fixtures.iter().map(|f| f.suite.name().to_owned()).collect(),
        }
    }

    /// The fixtures of a report (when the corpus is not at hand).
    pub fn of_report(report: &RunReport) -> Self {
        KnownFixtures {
            ids: report.cases.iter().map(|c| c.id.clone()).collect(),
            suites: report.cases.iter().map(|c| c.suite.clone()).collect(),
        }
    }
}

/// Applies `baseline` to `report` (verdicts, the baseline section, counts and
/// clusters). Expiry is checked against `today`, passed in so runs are
/// reproducible. A report that already carries a baseline is left as is and
/// `false` is returned.
pub fn apply(report: &mut RunReport, baseline: &Baseline, known: &KnownFixtures, today: NaiveDate) -> bool {
    if report.baseline.is_some() {
        return false;
    }
    let mut outcomes: Vec<EntryOutcome> = baseline
        .entries
        .iter()
        .map(|entry| {
            let status = if entry.is_expired(today) {
                EntryStatus::Expired
            } else if known.ids.iter().any(|id| entry.matches(id)) {
                EntryStatus::Active
            } else if entry.suite().is_some_and(|suite| !known.suites.contains(suite)) {
                EntryStatus::Unchecked
            } else {
                EntryStatus::Stale
            };
            EntryOutcome {
                id: entry.id.clone(),
                verdict: entry.verdict,
                reason: entry.reason.clone(),
                issue: entry.issue.clone(),
                expires: entry.expires.map(|d| d.format("%Y-%m-%d").to_string()),
                line: entry.line,
                status,
                expected: Vec::new(),
                passed: Vec::new(),
                changed: Vec::new(),
            }
        })
        .collect();

    for case in &mut report.cases {
        let Some((index, entry)) = baseline.entry_for(&case.id) else { continue };
        let Some(outcome) = outcomes.get_mut(index) else { continue };
        if outcome.status == EntryStatus::Expired {
            continue;
        }
        match case.verdict {
            Verdict::Pass => {
                case.verdict = Verdict::Xpass;
                case.message = Some(format!(
                    "passed, but the baseline lists it as a known `{}` ({}): remove the entry `{}`{}",
                    entry.verdict,
                    entry.reason,
                    entry.id,
                    if entry.is_glob() { " or narrow the glob" } else { "" }
                ));
                outcome.passed.push(case.id.clone());
            }
            verdict if verdict == entry.verdict => {
                if verdict.tally() == Tally::Failed {
                    case.verdict = Verdict::Xfail;
                }
                outcome.expected.push(case.id.clone());
            }
            // The corpus's own problems are not the implementation's.
            Verdict::Invalid | Verdict::UnsupportedVersion | Verdict::Xfail | Verdict::Xpass => {}
            verdict => {
                let message = case.message.take().unwrap_or_default();
                case.message = Some(format!("the baseline expects `{}`, got `{verdict}`: {message}", entry.verdict));
                outcome.changed.push(ChangedCase { id: case.id.clone(), verdict });
            }
        }
    }

    if let Some(expected) = &baseline.implementation
        && *expected != report.implementation.name
    {
        report.notices.push(Notice::warning(format!(
            "{}: the baseline was written for `{expected}`, this run judged `{}`",
            baseline.path.display(),
            report.implementation.name
        )));
    }
    report.baseline = Some(BaselineSummary {
        path: baseline.path.display().to_string(),
        today: today.format("%Y-%m-%d").to_string(),
        implementation: baseline.implementation.clone(),
        entries: outcomes,
    });
    report.recount();
    true
}
