//! The terminal report: each case that did not pass with its differences and
//! diff, a per-suite table, and the summary line `N passed, N failed` last.

use super::cluster::headline;
use super::model::{CaseReport, RunReport, Tally, Verdict};
use super::palette::{Palette, visible_controls};
use crate::compare::{DiffTag, format_line, hunk_header};
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
    /// Also list passing cases.
    pub verbose: bool,
    /// Leave out the line diffs (differences by pointer are still shown).
    pub no_diff: bool,
}

/// Writes the terminal report.
pub fn write_pretty(report: &RunReport, out: &mut dyn io::Write, options: &PrettyOptions) -> io::Result<()> {
    let p = options.palette;
    // Case blocks end with a blank line; one-line entries need one after them.
    let mut needs_blank_line = false;
    for case in &report.cases {
        match case.verdict.tally() {
            Tally::Passed if !options.verbose => {}
            Tally::Passed => {
                writeln!(out, "{} {}", p.good(&label(case.verdict)), case.id)?;
                needs_blank_line = true;
            }
            Tally::Skipped => {
                let reason = visible_controls(case.message.as_deref().unwrap_or(""));
                writeln!(out, "{} {}: {reason}", p.warn(&label(case.verdict)), case.id)?;
                needs_blank_line = true;
            }
            _ => {
                if needs_blank_line {
                    writeln!(out)?;
                }
                write_case(case, out, options)?;
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

fn write_case(case: &CaseReport, out: &mut dyn io::Write, options: &PrettyOptions) -> io::Result<()> {
    let p = options.palette;
    writeln!(out, "{} {}  {}", p.bad(&label(case.verdict)), p.bold(&case.id), p.dim(&format!("({})", case.path)))?;
    for problem in &case.problems {
        writeln!(out, "  {problem}")?;
    }
    for difference in &case.differences {
        writeln!(out, "  {}", difference.message)?;
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
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        let lines: Vec<&str> = stderr.lines().collect();
        let start = lines.len().saturating_sub(MAX_STDERR_LINES);
        writeln!(out, "  {}", p.dim(&format!("stderr (last {} lines):", lines.len() - start)))?;
        for line in &lines[start..] {
            writeln!(out, "  | {}", visible_controls(line))?;
        }
    }
    writeln!(out)
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
        let examples = cluster.examples(MAX_CLUSTER_EXAMPLES, str::to_owned);
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
