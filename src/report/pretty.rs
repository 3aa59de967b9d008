//! The terminal report: each case that did not pass with its differences and
//! diff, a per-suite table, and the summary line `N passed, N failed` last.

use super::cluster::headline;
use super::model::{CaseReport, RunReport, Tally, Verdict};
use super::palette::{Palette, visible_controls};
use super::rules::rules_line;
use crate::compare::{DiffTag, format_line, hunk_header};
use crate::files::one_line;
use std::collections::HashMap;
use std::io;

/// Longest stderr excerpt printed per case.
const MAX_STDERR_LINES: usize = 20;

/// Clusters listed in the terminal; the rest are counted.
const MAX_CLUSTERS: usize = 10;

/// Example case ids listed per cluster.
const MAX_CLUSTER_EXAMPLES: usize = 3;

/// Options of the terminal report.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrettyOptions {
    /// Colors.
    pub palette: Palette,
    /// List every case: passing ones too, and each case the report would fold.
    pub verbose: bool,
    /// Leave out the line diffs (differences by pointer are still shown).
    pub no_diff: bool,
}

/// Writes the terminal report.
///
/// A terminal is read by a person: repeated things are said once. Cases
/// that were not judged (skipped, unsupported) are one line per suite,
/// verdict and reason; a failure whose verdict and message repeat those of
/// an earlier case without differences (a setup mistake crashes every case
/// alike) is folded into one `… and N more cases: the same crash` line
/// after the first. `verbose` lists every case. The report files keep every
/// case whatever this prints.
pub fn write_pretty(report: &RunReport, out: &mut dyn io::Write, options: &PrettyOptions) -> io::Result<()> {
    let p = options.palette;
    let not_judged = groups(report, |case| case.verdict.tally() == Tally::Skipped, |case| case.suite.clone());
    let repeated = groups(report, folds, |_| String::new());
    // Case blocks end with a blank line; one-line entries need one after them.
    let mut needs_blank_line = false;
    for (index, case) in report.cases.iter().enumerate() {
        match case.verdict.tally() {
            Tally::Passed if !options.verbose => {}
            Tally::Passed => {
                writeln!(out, "{} {}", p.good(&label(case.verdict)), one_line(&case.id))?;
                needs_blank_line = true;
            }
            Tally::Skipped => {
                let reason = visible_controls(case.message.as_deref().unwrap_or(""));
                match not_judged.get(&index) {
                    Some(Group::First(n)) if !options.verbose && *n > 1 => {
                        writeln!(out, "{} {} {} cases: {reason}", p.warn(&label(case.verdict)), n, case.suite)?
                    }
                    Some(Group::Folded) if !options.verbose => continue,
                    _ => writeln!(out, "{} {}: {reason}", p.warn(&label(case.verdict)), one_line(&case.id))?,
                }
                needs_blank_line = true;
            }
            _ => {
                let fold = if options.verbose { None } else { repeated.get(&index) };
                if matches!(fold, Some(Group::Folded)) {
                    continue;
                }
                if needs_blank_line {
                    writeln!(out)?;
                }
                let same = match fold {
                    Some(Group::First(n)) => n - 1,
                    _ => 0,
                };
                write_case(case, out, options, same)?;
                needs_blank_line = false;
            }
        }
    }
    if needs_blank_line {
        writeln!(out)?;
    }
    write_clusters(report, out, p)?;
    write_baseline(report, out, p)?;
    if report.suites.len() > 1 {
        let width = report.suites.iter().map(|s| s.suite.len()).max().unwrap_or(0);
        for suite in &report.suites {
            writeln!(out, "{:width$}  {}", suite.suite, breakdown(&suite.counts), width = width)?;
        }
    }
    if report.summary.failed > 0 {
        let failing: Vec<String> = report
            .summary
            .by_verdict
            .iter()
            .filter(|(v, _)| v.tally() == Tally::Failed)
            .map(|(v, n)| format!("{n} {v}"))
            .collect();
        writeln!(out, "failed: {}", failing.join(", "))?;
    }
    let line = report.summary.summary_line();
    let line = if report.exit_code() == 0 { p.good(&line) } else { p.bad(&line) };
    writeln!(out, "{line}")
}

/// One case block; `same` later cases with the same verdict and message are
/// counted at its end.
fn write_case(case: &CaseReport, out: &mut dyn io::Write, options: &PrettyOptions, same: usize) -> io::Result<()> {
    let p = options.palette;
    // Ids and paths come from file names, which may hold a newline.
    let (id, path) = (one_line(&case.id), one_line(&case.path));
    // A fixture whose input no hub sends is labelled, so it can be triaged
    // after the in-contract ones.
    let contract = if case.contract.is_robustness() { format!(" [{}]", case.contract) } else { String::new() };
    writeln!(out, "{} {}{contract}  {}", p.bad(&label(case.verdict)), p.bold(&id), p.dim(&format!("({path})")))?;
    for problem in &case.problems {
        writeln!(out, "  {problem}")?;
    }
    for difference in &case.differences {
        writeln!(out, "  {}", difference.message)?;
        if let Some(rules) = rules_line(&case.suite, &difference.rules) {
            writeln!(out, "    {}", p.dim(&rules))?;
        }
    }
    if case.omitted_differences > 0 {
        writeln!(out, "  … and {} more differences", case.omitted_differences)?;
    }
    if case.problems.is_empty()
        && case.differences.is_empty()
        && let Some(message) = &case.message
    {
        for line in message.lines() {
            writeln!(out, "  {}", visible_controls(line))?;
        }
    }
    if !options.no_diff && !case.diff.is_empty() {
        writeln!(out, "  {}", p.dim("--- expected (canonical)  +++ actual (canonical)"))?;
        for hunk in &case.diff {
            writeln!(out, "  {}", p.dim(&hunk_header(hunk)))?;
            for line in &hunk.lines {
                let text = format_line(line);
                let text = match line.tag {
                    DiffTag::Equal => text,
                    DiffTag::Expected => p.removed(&text),
                    DiffTag::Actual => p.added(&text),
                };
                writeln!(out, "  {text}")?;
            }
        }
    }
    for note in case.diff_note.iter().chain(&case.cut) {
        writeln!(out, "  {}", p.dim(&format!("(cut: {note})")))?;
    }
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        let lines: Vec<&str> = stderr.lines().collect();
        let start = lines.len().saturating_sub(MAX_STDERR_LINES);
        writeln!(out, "  {}", p.dim(&format!("stderr (last {} lines):", lines.len() - start)))?;
        for line in &lines[start..] {
            writeln!(out, "  | {}", visible_controls(line))?;
        }
    }
    if same > 0 {
        writeln!(out, "  {}", p.bold(&format!("… and {same} more {}: the same {}", cases(same), case.verdict)))?;
    }
    writeln!(out)
}

/// Where a case stands in a group of cases the terminal shows once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// The first case of a group of this many.
    First(usize),
    /// A later case of a group (not printed).
    Folded,
}

/// Groups the cases that `member` selects by verdict, message and `key`,
/// indexed by case position.
fn groups(
    report: &RunReport,
    member: impl Fn(&CaseReport) -> bool,
    key: impl Fn(&CaseReport) -> String,
) -> HashMap<usize, Group> {
    let mut first: HashMap<(Verdict, String, &str), usize> = HashMap::new();
    let mut groups = HashMap::new();
    for (index, case) in report.cases.iter().enumerate().filter(|(_, case)| member(case)) {
        let group = (case.verdict, key(case), case.message.as_deref().unwrap_or(""));
        match first.get(&group) {
            Some(head) => {
                groups.insert(index, Group::Folded);
                if let Some(Group::First(n)) = groups.get_mut(head) {
                    *n += 1;
                }
            }
            None => {
                first.insert(group, index);
                groups.insert(index, Group::First(1));
            }
        }
    }
    groups
}

/// Whether a failing case is told by its message alone (no differences or
/// problems of its own), so an identical one can be folded into it.
fn folds(case: &CaseReport) -> bool {
    case.verdict.tally() == Tally::Failed
        && case.verdict != Verdict::Xpass
        && case.differences.is_empty()
        && case.problems.is_empty()
}

fn cases(n: usize) -> &'static str {
    if n == 1 { "case" } else { "cases" }
}

fn label(verdict: Verdict) -> String {
    verdict.as_str().to_uppercase()
}

fn breakdown(counts: &super::model::Counts) -> String {
    counts.by_verdict.iter().map(|(verdict, n)| format!("{n} {verdict}")).collect::<Vec<_>>().join(", ")
}

/// `31 failures, 2 causes:` and one line per cause with example cases.
fn write_clusters(report: &RunReport, out: &mut dyn io::Write, p: Palette) -> io::Result<()> {
    let Some(headline) = headline(&report.cases, &report.clusters) else { return Ok(()) };
    writeln!(out, "{}", p.bold(&format!("{headline}:")))?;
    let width = report.clusters.first().map_or(1, |c| c.cases.len().to_string().len());
    for cluster in report.clusters.iter().take(MAX_CLUSTERS) {
        let examples = cluster.examples(MAX_CLUSTER_EXAMPLES, |id| one_line(id).into_owned());
        let known = cluster.known_note().map(|note| format!(" {note}")).unwrap_or_default();
        writeln!(
            out,
            "  {:>width$}  {}{known}  {}",
            cluster.cases.len(),
            visible_controls(&cluster.label),
            p.dim(&examples),
            width = width
        )?;
    }
    if report.clusters.len() > MAX_CLUSTERS {
        writeln!(out, "  … and {} more causes", report.clusters.len() - MAX_CLUSTERS)?;
    }
    writeln!(out)
}

/// The baseline's effect and every entry that fails the run.
fn write_baseline(report: &RunReport, out: &mut dyn io::Write, p: Palette) -> io::Result<()> {
    let Some(baseline) = &report.baseline else { return Ok(()) };
    let problems = baseline.problems();
    writeln!(
        out,
        "baseline {}: {} entries, {} xfail, {} xpass, {} stale or expired",
        baseline.path,
        baseline.entries.len(),
        report.summary.count(Verdict::Xfail),
        report.summary.count(Verdict::Xpass),
        problems.len()
    )?;
    for problem in problems {
        writeln!(out, "  {}", p.bad(&problem))?;
    }
    writeln!(out)
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_pretty(&sample::run(), out, &PrettyOptions::default()));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    /// 296 crashes alike and 260 unsupported cases, as a missing adapter
    /// jar or a one-suite adapter gives.
    fn repetitive_run() -> crate::report::RunReport {
        let mut report = sample::run();
        report.baseline = None;
        report.cases.clear();
        for i in 0..296 {
            report.cases.push(crate::report::CaseReport {
                stderr: Some("Error: Unable to access jarfile decoder-adapter.jar\n".to_owned()),
                ..sample::case("chat", &format!("c{i:03}"), Verdict::Crash, Some("exit status 1 before the hello"))
            });
        }
        for i in 0..260 {
            let reason = "the implementation does not declare suite `sse`";
            report.cases.push(sample::case("sse", &format!("s{i:03}"), Verdict::Unsupported, Some(reason)));
        }
        report.cases.push(sample::case("sse", "one", Verdict::Skipped, Some("not implemented yet")));
        report.recount();
        report
    }

    #[test]
    fn repeated_messages_and_unjudged_cases_are_told_once() {
        let report = repetitive_run();
        let text = sample::render(|out| write_pretty(&report, out, &PrettyOptions::default()));
        assert_eq!(text.matches("CRASH chat/").count(), 1, "{text}");
        assert!(text.contains("  … and 295 more cases: the same crash\n"), "{text}");
        assert!(
            text.contains("UNSUPPORTED 260 sse cases: the implementation does not declare suite `sse`\n"),
            "{text}"
        );
        assert!(text.contains("SKIPPED sse/one: not implemented yet\n"), "{text}");
        assert!(text.lines().count() < 40, "{text}");
        sample::redactions().bind(|| insta::assert_snapshot!(text));

        let verbose = PrettyOptions { verbose: true, ..Default::default() };
        let every = sample::render(|out| write_pretty(&report, out, &verbose));
        assert_eq!(every.matches("CRASH chat/").count(), 296);
        assert_eq!(every.matches("UNSUPPORTED sse/").count(), 260);
        assert!(!every.contains("more cases: the same"));
    }
}
