//! Applying a baseline to a run: listed fixtures that fail as expected become
//! `xfail`, listed fixtures that pass become `xpass`, and entries that name
//! nothing or have expired are recorded so the run fails.
//!
//! Whether an entry is stale is judged against every fixture the run
//! *loaded*, not only those it ran, so `--filter` and `--partition` runs do
//! not report the entries of fixtures they left out.

use super::file::Baseline;
use crate::fixture::{Corpus, FixturePlan, Notice};
use crate::report::{BaselineSummary, ChangedCase, EntryOutcome, EntryStatus};
use crate::report::{CaseReport, RunReport, Tally, Verdict};
use chrono::NaiveDate;
use std::collections::BTreeSet;

/// The fixtures a run loaded: what decides whether an entry is stale.
#[derive(Clone, Debug, Default)]
pub struct KnownFixtures {
    ids: Vec<String>,
    suites: BTreeSet<String>,
}

impl KnownFixtures {
    /// Every fixture a streaming run discovered (selected or not).
    pub fn of_plan(plan: &FixturePlan) -> Self {
        KnownFixtures {
            ids: plan.ids().to_vec(),
            suites: plan.files.iter().map(|f| f.suite.name().to_owned()).collect(),
        }
    }

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
    let mut applying = BaselineRun::new(baseline, today);
    for case in &mut report.cases {
        applying.apply_case(case);
    }
    applying.finish(report, known);
    report.recount();
    true
}

/// A baseline being applied to a run one case at a time, in report order, as
/// the cases finish: what [`apply`] does to a whole report, for a runner
/// that keeps no report of passing cases.
#[derive(Debug)]
pub struct BaselineRun<'b> {
    baseline: &'b Baseline,
    today: NaiveDate,
    outcomes: Vec<EntryOutcome>,
}

impl<'b> BaselineRun<'b> {
    /// Starts applying `baseline`, with expiry checked against `today`.
    pub fn new(baseline: &'b Baseline, today: NaiveDate) -> Self {
        let outcomes = baseline
            .entries
            .iter()
            .map(|entry| EntryOutcome {
                id: entry.id.clone(),
                verdict: entry.verdict,
                reason: entry.reason.clone(),
                issue: entry.issue.clone(),
                expires: entry.expires.map(|d| d.format("%Y-%m-%d").to_string()),
                line: entry.line,
                // Whether a live entry names a fixture is known at the end.
                status: if entry.is_expired(today) { EntryStatus::Expired } else { EntryStatus::Active },
                expected: Vec::new(),
                passed: Vec::new(),
                changed: Vec::new(),
            })
            .collect();
        BaselineRun { baseline, today, outcomes }
    }

    /// Reclassifies one case: a listed failure becomes `xfail`, a listed
    /// pass `xpass`, another outcome of a listed case says what the entry
    /// expected. Returns whether the case changed.
    pub fn apply_case(&mut self, case: &mut CaseReport) -> bool {
        let Some((index, entry)) = self.baseline.entry_for(&case.id) else { return false };
        let Some(outcome) = self.outcomes.get_mut(index) else { return false };
        if outcome.status == EntryStatus::Expired {
            return false;
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
                true
            }
            verdict if verdict == entry.verdict => {
                outcome.expected.push(case.id.clone());
                if verdict.tally() == Tally::Failed {
                    case.verdict = Verdict::Xfail;
                    return true;
                }
                false
            }
            // The corpus's own problems are not the implementation's.
            Verdict::Invalid | Verdict::UnsupportedVersion | Verdict::Xfail | Verdict::Xpass => false,
            verdict => {
                let message = case.message.take().unwrap_or_default();
                case.message = Some(format!("the baseline expects `{}`, got `{verdict}`: {message}", entry.verdict));
                outcome.changed.push(ChangedCase { id: case.id.clone(), verdict });
                true
            }
        }
    }

    /// Forgets what [`BaselineRun::apply_case`] recorded about case `id` (its
    /// verdict is about to change: a late fault), so it can be applied again.
    pub fn forget_case(&mut self, id: &str) {
        if let Some((index, _)) = self.baseline.entry_for(id)
            && let Some(outcome) = self.outcomes.get_mut(index)
        {
            outcome.expected.retain(|known| known != id);
            outcome.passed.retain(|known| known != id);
            outcome.changed.retain(|changed| changed.id != id);
        }
    }

    /// Ends the run: which live entries name no fixture `known` holds
    /// (stale) or a suite it does not hold (unchecked), a warning when the
    /// baseline was written for another implementation, and the report's
    /// baseline section. Counts and clusters are the caller's to redo.
    pub fn finish(self, report: &mut RunReport, known: &KnownFixtures) {
        let BaselineRun { baseline, today, mut outcomes } = self;
        // Which entries name a known fixture: each fixture looked up once.
        let mut names_a_fixture = vec![false; baseline.entries.len()];
        let mut matching = Vec::new();
        for id in &known.ids {
            baseline.matching(id, &mut matching);
            for &index in &matching {
                if let Some(slot) = names_a_fixture.get_mut(index) {
                    *slot = true;
                }
            }
        }
        for ((outcome, entry), names_a_fixture) in outcomes.iter_mut().zip(&baseline.entries).zip(names_a_fixture) {
            if outcome.status == EntryStatus::Expired {
                continue;
            }
            outcome.status = if names_a_fixture {
                EntryStatus::Active
            } else if entry.suite().is_some_and(|suite| !known.suites.contains(suite)) {
                EntryStatus::Unchecked
            } else {
                EntryStatus::Stale
            };
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
    }
}
