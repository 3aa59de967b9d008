//! Writing a baseline from a run, so adopting the harness is one command:
//! `conform baseline write --from reports/conform-report.json > known-failures.toml`.
//!
//! Every fixture that fails the run (or failed as expected) gets an entry.
//! Entries of the previous baseline survive with their reason, issue and
//! expiry when their fixtures still fail: a glob stays a glob when every
//! fixture it covered still fails as listed, and otherwise is narrowed to the
//! ids that still fail. Fixtures nobody has triaged get an `unreviewed:`
//! reason quoting their first difference.

use super::file::{BASELINE_FORMAT_VERSION, BASELINE_VERDICTS, Baseline, Entry, EntryIndex};
use crate::report::{CaseReport, RunReport, Tally, Verdict, newer_reports_beside, visible_controls};
use std::collections::BTreeMap;
use std::path::Path;

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

/// What to tell before writing a baseline from a run's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRead {
    /// Which run the report is, so that an older report read by mistake
    /// shows at once.
    pub line: String,
    /// Why the report may not be the one meant: newer reports beside it,
    /// or a current baseline written for another implementation.
    pub warnings: Vec<String>,
}

/// What to tell before writing a baseline from the report read at `from`
/// (see [`ReportRead`]); `previous` is the current baseline.
pub fn report_read(report: &RunReport, from: &Path, previous: Option<&Baseline>) -> ReportRead {
    let judged = &report.implementation;
    let line = format!(
        "baseline: from {}: the run of {} at {} ({} cases)",
        from.display(),
        visible_controls(&format!("{} {}", judged.name, judged.version)),
        report.started_at,
        report.summary.total
    );
    let mut warnings = Vec::new();
    let newer = newer_reports_beside(from);
    if !newer.is_empty() {
        let names: Vec<String> = newer.iter().map(|path| path.display().to_string()).collect();
        warnings.push(format!(
            "{} is older than {} beside it: it may be an earlier run's report (a run writes its JSON report last); \
             check that it is the run you mean",
            from.display(),
            names.join(" and ")
        ));
    }
    if let Some(expected) = previous.and_then(|previous| previous.implementation.as_deref())
        && expected != judged.name
    {
        warnings.push(format!(
            "the current baseline was written for `{}`, but the report judged `{}`",
            visible_controls(expected),
            visible_controls(&judged.name)
        ));
    }
    ReportRead { line, warnings }
}

/// Writes a baseline for `report`. Reasons come from the baseline the run
/// applied (recorded in the report) or else from `previous`.
pub fn write_baseline(report: &RunReport, previous: Option<&Baseline>) -> WrittenBaseline {
    let prior = prior_entries(report, previous);
    let index = EntryIndex::new(&prior);
    let mut written = WrittenBaseline::default();
    let expected_verdicts = report.baseline.as_ref().map(|b| b.expected_verdicts()).unwrap_or_default();
    // What each failing fixture should be listed with: its verdict before any baseline.
    let failing: Vec<(&CaseReport, Verdict)> = report
        .cases
        .iter()
        .filter_map(|case| match case.verdict {
            Verdict::Xfail => {
                let verdict = expected_verdicts.get(case.id.as_str()).copied();
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
    // Which entry covers each case, found once per case: the failing cases
    // each entry covers, and how many of the report's cases it covers.
    let covering = |id: &str| index.covering(&prior, id).map(|(at, _)| at);
    let mut covered_failing: Vec<Vec<usize>> = vec![Vec::new(); prior.len()];
    for (at, (case, _)) in failing.iter().enumerate() {
        if let Some(entry) = covering(&case.id) {
            covered_failing[entry].push(at);
        }
    }
    let mut covered_cases: Vec<usize> = vec![0; prior.len()];
    for case in &report.cases {
        if let Some(entry) = covering(&case.id) {
            covered_cases[entry] += 1;
        }
    }
    for (index, entry) in prior.iter().enumerate() {
        let covered = &covered_failing[index];
        if covered.is_empty() {
            written.dropped.push(entry.id.clone());
            continue;
        }
        let glob_still_holds = entry.is_glob()
            && covered_cases[index] == covered.len()
            && covered.iter().all(|&i| failing.get(i).is_some_and(|(_, v)| *v == entry.verdict));
        if glob_still_holds {
            drafts.insert(entry.id.clone(), draft_from(entry, &entry.id, entry.verdict));
        } else {
            for &i in covered {
                if let Some((case, verdict)) = failing.get(i) {
                    drafts.insert(case.id.clone(), draft_from(entry, &case.id, *verdict));
                }
            }
        }
        for &i in covered {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{KnownFixtures, apply};
    use std::path::Path;

    /// A report whose cases have the given verdicts.
    fn report(cases: &[(&str, &str)]) -> RunReport {
        let cases: Vec<serde_json::Value> = cases
            .iter()
            .map(|(id, verdict)| {
                serde_json::json!({
                    "id": id, "suite": "chat", "name": id.trim_start_matches("chat/"), "path": format!("{id}.json"),
                    "verdict": verdict, "duration_ms": 0.0, "message": format!("{verdict} on {id}")
                })
            })
            .collect();
        let text = serde_json::json!({
            "format": "conform-report", "format_version": 1,
            "harness": {"name": "conform", "version": "0.1.0"},
            "implementation": {"name": "swift", "version": "1", "language": "swift", "kind": "subprocess"},
            "started_at": "2026-01-01T00:00:00Z", "duration_ms": 1.0, "paths": [], "notices": [],
            "summary": {"total": 0, "passed": 0, "failed": 0, "skipped": 0, "known_failures": 0, "by_verdict": {}},
            "suites": [], "cases": cases
        })
        .to_string();
        let mut report = crate::report::parse_report(&text, Path::new("r.json")).unwrap();
        report.recount();
        report
    }

    fn baseline(text: &str) -> Baseline {
        Baseline::parse(text, Path::new("b.toml")).unwrap()
    }

    fn applied(cases: &[(&str, &str)], text: &str) -> RunReport {
        let mut run = report(cases);
        let known = KnownFixtures::of_report(&run);
        apply(&mut run, &baseline(text), &known, chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
        run
    }

    const GLOB: &str =
        "[[known-failure]]\nid = \"chat/codex-*\"\nverdict = \"error\"\nreason = \"codex not decoded\"\n";

    #[test]
    fn a_glob_that_still_holds_is_kept_as_a_glob() {
        let run = applied(&[("chat/codex-a", "error"), ("chat/codex-b", "error"), ("chat/other", "fail")], GLOB);
        assert_eq!(run.summary.known_failures, 2);
        let written = write_baseline(&run, None);
        assert!(written.text.contains("id = \"chat/codex-*\"\nverdict = \"error\"\nreason = \"codex not decoded\"\n"));
        assert!(
            written
                .text
                .contains("id = \"chat/other\"\nverdict = \"fail\"\nreason = \"unreviewed: fail on chat/other\"\n")
        );
        assert_eq!((written.kept, written.added), (1, 1));
        // What was written reads back and excuses the same run.
        let rerun =
            applied(&[("chat/codex-a", "error"), ("chat/codex-b", "error"), ("chat/other", "fail")], &written.text);
        assert_eq!((rerun.exit_code(), rerun.summary.known_failures), (0, 3));
    }

    #[test]
    fn a_glob_with_a_fixed_fixture_is_narrowed_to_the_ids_that_still_fail() {
        let run = applied(&[("chat/codex-a", "error"), ("chat/codex-b", "pass")], GLOB);
        assert_eq!(run.cases[1].verdict, Verdict::Xpass);
        assert_eq!(run.exit_code(), 1);
        let written = write_baseline(&run, None);
        assert!(!written.text.contains("codex-*"), "{}", written.text);
        assert!(written.text.contains("id = \"chat/codex-a\"\nverdict = \"error\"\nreason = \"codex not decoded\"\n"));
        assert!(!written.text.contains("chat/codex-b"));
    }

    #[test]
    fn a_listed_fixture_failing_differently_keeps_its_reason_with_the_new_verdict() {
        let run = applied(&[("chat/codex-a", "crash")], GLOB);
        assert_eq!(run.cases[0].verdict, Verdict::Crash);
        assert!(run.cases[0].message.as_deref().unwrap_or("").starts_with("the baseline expects `error`, got `crash`"));
        let written = write_baseline(&run, None);
        assert!(written.text.contains("id = \"chat/codex-a\"\nverdict = \"crash\"\nreason = \"codex not decoded\"\n"));
    }

    #[test]
    fn reasons_come_from_a_previous_file_when_the_run_had_no_baseline() {
        let run = report(&[("chat/codex-a", "error"), ("chat/gone-soon", "pass")]);
        let previous = baseline(GLOB);
        let written = write_baseline(&run, Some(&previous));
        assert!(written.text.contains("reason = \"codex not decoded\""), "{}", written.text);
        assert_eq!(written.kept, 1);
    }
}
