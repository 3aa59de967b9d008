//! Writing a baseline from a run, so adopting the harness is one command:
//! `conform baseline write --from reports/conform-report.json > known-failures.toml`.
//!
//! Every fixture that fails the run (or failed as expected) gets an entry.
//! Entries of the previous baseline survive with their reason, issue and
//! expiry when their fixtures still fail: a glob stays a glob when every
//! fixture it covered still fails as listed, and otherwise is narrowed to the
//! ids that still fail. Fixtures nobody has triaged get an `unreviewed:`
//! reason quoting their first difference.

use super::file::{BASELINE_FORMAT_VERSION, BASELINE_VERDICTS, Baseline, Entry};
use crate::report::{CaseReport, RunReport, Tally, Verdict};
use std::collections::BTreeMap;

/// Longest `unreviewed:` reason, in characters.
const MAX_REASON_CHARS: usize = 160;

/// A written baseline and what changed relative to the previous one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenBaseline {
    /// The TOML text.
    pub text: String,
    /// Entries carried over from the previous baseline.
    pub kept: usize,
    /// Entries added for fixtures without one.
    pub added: usize,
    /// Previous entries left out (their fixtures pass now, or are gone).
    pub dropped: Vec<String>,
    /// Fixtures left out because no baseline may hide them (invalid or
    /// unsupported-version fixtures).
    pub unlisted: Vec<String>,
}

struct Draft {
    id: String,
    verdict: Verdict,
    reason: String,
    issue: Option<String>,
    expires: Option<String>,
    kept: bool,
}

/// Writes a baseline for `report`. Reasons come from the baseline the run
/// applied (recorded in the report) or else from `previous`.
pub fn write_baseline(report: &RunReport, previous: Option<&Baseline>) -> WrittenBaseline {
    let prior = prior_entries(report, previous);
    let mut written = WrittenBaseline::default();
    // What each failing fixture should be listed with: its verdict before any baseline.
    let failing: Vec<(&CaseReport, Verdict)> = report
        .cases
        .iter()
        .filter_map(|case| match case.verdict {
            Verdict::Xfail => {
                let verdict = report.baseline.as_ref().and_then(|b| b.expected_verdict_of(&case.id));
                Some((case, verdict.unwrap_or(Verdict::Fail)))
            }
            Verdict::Invalid | Verdict::UnsupportedVersion => {
                written.unlisted.push(case.id.clone());
                None
            }
            verdict if verdict.tally() == Tally::Failed && BASELINE_VERDICTS.contains(&verdict) => {
                Some((case, verdict))
            }
            _ => None,
        })
        .collect();

    let mut drafts: BTreeMap<String, Draft> = BTreeMap::new();
    let mut claimed: Vec<bool> = vec![false; failing.len()];
    for entry in &prior {
        let covered: Vec<usize> = failing
            .iter()
            .enumerate()
            .filter(|(_, (case, _))| covering(&prior, &case.id).is_some_and(|e| std::ptr::eq(e, entry)))
            .map(|(i, _)| i)
            .collect();
        if covered.is_empty() {
            written.dropped.push(entry.id.clone());
            continue;
        }
        let all_cases_of_entry =
            report.cases.iter().filter(|c| covering(&prior, &c.id).is_some_and(|e| std::ptr::eq(e, entry)));
        let glob_still_holds = entry.is_glob()
            && all_cases_of_entry.clone().count() == covered.len()
            && covered.iter().all(|&i| failing.get(i).is_some_and(|(_, v)| *v == entry.verdict));
        if glob_still_holds {
            drafts.insert(entry.id.clone(), draft_from(entry, &entry.id, entry.verdict));
        } else {
            for &i in &covered {
                if let Some((case, verdict)) = failing.get(i) {
                    drafts.insert(case.id.clone(), draft_from(entry, &case.id, *verdict));
                }
            }
        }
        for &i in &covered {
            if let Some(slot) = claimed.get_mut(i) {
                *slot = true;
            }
        }
    }
    for ((case, verdict), claimed) in failing.iter().zip(&claimed) {
        if !claimed {
            drafts.insert(
                case.id.clone(),
                Draft {
                    id: case.id.clone(),
                    verdict: *verdict,
                    reason: unreviewed_reason(case),
                    issue: None,
                    expires: None,
                    kept: false,
                },
            );
        }
    }
    written.kept = drafts.values().filter(|d| d.kept).count();
    written.added = drafts.len() - written.kept;
    written.text = render(report, drafts.values());
    written
}

/// The entries to carry reasons from, in precedence order of the file.
fn prior_entries(report: &RunReport, previous: Option<&Baseline>) -> Vec<Entry> {
    if let Some(summary) = &report.baseline {
        return summary
            .entries
            .iter()
            .filter_map(|outcome| {
                let mut entry = Entry::new(&outcome.id, outcome.verdict, &outcome.reason).ok()?;
                entry.issue = outcome.issue.clone();
                entry.expires =
                    outcome.expires.as_deref().and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
                entry.line = outcome.line;
                Some(entry)
            })
            .collect();
    }
    previous.map(|b| b.entries.clone()).unwrap_or_default()
}

/// The entry covering `id`, with the same precedence as [`Baseline::entry_for`].
fn covering<'a>(entries: &'a [Entry], id: &str) -> Option<&'a Entry> {
    entries
        .iter()
        .find(|e| !e.is_glob() && e.matches(id))
        .or_else(|| entries.iter().find(|e| e.is_glob() && e.matches(id)))
}

fn draft_from(entry: &Entry, id: &str, verdict: Verdict) -> Draft {
    Draft {
        id: id.to_owned(),
        verdict,
        reason: entry.reason.clone(),
        issue: entry.issue.clone(),
        expires: entry.expires.map(|d| d.format("%Y-%m-%d").to_string()),
        kept: true,
    }
}

fn unreviewed_reason(case: &CaseReport) -> String {
    let first = case
        .differences
        .first()
        .map(|d| d.message.clone())
        .or_else(|| case.message.as_deref().and_then(|m| m.lines().next()).map(str::to_owned))
        .unwrap_or_else(|| case.verdict.to_string());
    let mut reason = format!("unreviewed: {}", first.trim());
    if reason.chars().count() > MAX_REASON_CHARS {
        reason = reason.chars().take(MAX_REASON_CHARS).collect::<String>() + "…";
    }
    reason
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn render<'a>(report: &RunReport, drafts: impl Iterator<Item = &'a Draft>) -> String {
    let mut text = String::new();
    text.push_str("# Known failures: fixtures this implementation does not pass yet.\n");
    text.push_str(
        "# Use with `conform run --baseline FILE`; listed fixtures that fail as listed are `xfail`, listed\n",
    );
    text.push_str("# fixtures that pass are `xpass` and fail the run, so remove an entry when its fixture is fixed.\n");
    text.push_str(&format!(
        "# Written by conform {} from a run of {} {} started {}.\n",
        report.harness.version, report.implementation.name, report.implementation.version, report.started_at
    ));
    text.push_str(&format!("version = {BASELINE_FORMAT_VERSION}\n"));
    text.push_str(&format!("implementation = {}\n", toml_string(&report.implementation.name)));
    for draft in drafts {
        text.push_str("\n[[known-failure]]\n");
        text.push_str(&format!("id = {}\n", toml_string(&draft.id)));
        text.push_str(&format!("verdict = {}\n", toml_string(draft.verdict.as_str())));
        text.push_str(&format!("reason = {}\n", toml_string(&draft.reason)));
        if let Some(issue) = &draft.issue {
            text.push_str(&format!("issue = {}\n", toml_string(issue)));
        }
        if let Some(expires) = &draft.expires {
            text.push_str(&format!("expires = {expires}\n"));
        }
    }
    text
}
