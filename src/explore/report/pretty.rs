//! The terminal explore report: who was compared, a table per suite, each
//! cluster (labelled in contract or robustness) with its reduced example
//! and diff, where the time went, and the summary line last.

use super::model::{ClusterReport, ExploreReport, SideOutcome};
use crate::compare::{DiffTag, format_line, hunk_header};
use crate::report::{Palette, visible_controls};
use std::io;

/// Longest excerpt of a reduced input shown, in characters.
const MAX_INPUT_CHARS: usize = 600;

/// Diff lines shown per cluster.
const MAX_DIFF_LINES: usize = 40;

/// Differences listed per cluster.
const MAX_DIFFERENCES: usize = 8;

/// Unreduced clusters listed.
const MAX_UNREDUCED: usize = 20;

/// Writes the terminal report.
pub fn write_pretty(report: &ExploreReport, out: &mut dyn io::Write, p: Palette) -> io::Result<()> {
    let subject = &report.implementation;
    let against = &report.against;
    writeln!(
        out,
        "explore: {} {} ({}) against {} {} ({}), seed {}",
        visible_controls(&subject.name),
        visible_controls(&subject.version),
        visible_controls(&subject.language),
        visible_controls(&against.name),
        visible_controls(&against.version),
        visible_controls(&against.language),
        report.seed
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "  {:<24} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "suite", "seeds", "inputs", "judged", "agreed", "diverged", "clusters", "rejected", "robustness"
    )?;
    for suite in &report.suites {
        let diverged = suite.diverged.to_string();
        let diverged = if suite.diverged > 0 { p.bad(&format!("{diverged:>9}")) } else { format!("{diverged:>9}") };
        writeln!(
            out,
            "  {:<24} {:>6} {:>9} {:>9} {:>9} {diverged} {:>9} {:>9} {:>10}",
            suite.suite,
            suite.seeds,
            suite.generated,
            suite.judged,
            suite.agreed,
            suite.clusters,
            suite.rejected,
            suite.robustness
        )?;
    }
    writeln!(out)?;
    let total = report.clusters.len();
    for (number, cluster) in report.clusters.iter().enumerate() {
        write_cluster(cluster, number + 1, total, out, p)?;
    }
    if !report.unreduced.is_empty() {
        let n = report.unreduced.len();
        writeln!(out, "{n} more {}, not reduced (--max-pending):", if n == 1 { "cluster" } else { "clusters" })?;
        for line in report.unreduced.iter().take(MAX_UNREDUCED) {
            writeln!(
                out,
                "  {} [{}] {}  ({} {}, example {})",
                line.suite,
                line.contract,
                visible_controls(&line.signature),
                line.count,
                if line.count == 1 { "input" } else { "inputs" },
                line.example_input
            )?;
        }
        if report.unreduced.len() > MAX_UNREDUCED {
            writeln!(out, "  … and {} more (the JSON report lists every one)", report.unreduced.len() - MAX_UNREDUCED)?;
        }
        writeln!(out)?;
    }
    for notice in &report.notices {
        writeln!(out, "{}", p.warn(&visible_controls(&notice.to_string())))?;
    }
    if !report.notices.is_empty() {
        writeln!(out)?;
    }
    let times: Vec<String> = report
        .suites
        .iter()
        .map(|s| {
            format!(
                "{} {:.0}/{:.0}/{:.0}/{:.0}",
                s.suite, s.time_ms.generate, s.time_ms.subject, s.time_ms.against, s.time_ms.judge
            )
        })
        .collect();
    writeln!(
        out,
        "{}",
        p.dim(&format!(
            "time in ms summed over {} workers (generate/implementation/against/judge): {}",
            report.jobs,
            times.join(", ")
        ))
    )?;
    let line = report.summary_line();
    let line = if report.exit_code() == 0 { p.good(&line) } else { p.bad(&line) };
    writeln!(out, "{line}")
}

fn write_cluster(
    cluster: &ClusterReport,
    number: usize,
    total: usize,
    out: &mut dyn io::Write,
    p: Palette,
) -> io::Result<()> {
    let example = &cluster.example;
    writeln!(
        out,
        "{} {} [{}]  {}  ({} {}{}, first {})",
        p.bad(&format!("cluster {number}/{total}")),
        cluster.suite,
        cluster.contract,
        p.bold(&cluster.slug),
        cluster.count,
        if cluster.count == 1 { "input" } else { "inputs" },
        in_contract_share(cluster),
        cluster.first_input
    )?;
    writeln!(out, "  signature: {}", visible_controls(&cluster.signature))?;
    writeln!(
        out,
        "  example:   {} ({}) from {}: {}",
        example.input_id,
        example.contract,
        example.seed_fixture,
        visible_controls(&example.mutations.join("; "))
    )?;
    let items = match &example.list {
        Some(list) => format!("{list} {} → {}, ", example.items_before, example.items_after),
        None => String::new(),
    };
    writeln!(
        out,
        "  reduced:   {items}{} → {} bytes ({} runs)",
        example.bytes_before, example.bytes_after, example.reduction_runs
    )?;
    if let Some(note) = &example.reduction_note {
        writeln!(out, "  {}", p.warn(&format!("note: {}", visible_controls(note))))?;
    }
    writeln!(out, "  input:     {}", visible_controls(&excerpt(&crate::json::to_compact_string(&example.input))))?;
    for (label, side) in [("expected", &example.expected), ("actual", &example.actual)] {
        if side.outcome != "output" {
            writeln!(out, "  {label}:{} {}", " ".repeat(10 - label.len()), visible_controls(&describe(side)))?;
        }
    }
    if !example.differences.is_empty() {
        writeln!(out, "  differences:")?;
        for difference in example.differences.iter().take(MAX_DIFFERENCES) {
            writeln!(out, "    {}", visible_controls(&difference.message))?;
        }
        if example.differences.len() > MAX_DIFFERENCES {
            writeln!(out, "    … and {} more", example.differences.len() - MAX_DIFFERENCES)?;
        }
    }
    let mut shown = 0;
    for hunk in &example.diff {
        if shown >= MAX_DIFF_LINES {
            writeln!(out, "    {}", p.dim("… (diff cut; the JSON report has all of it)"))?;
            break;
        }
        writeln!(out, "    {}", p.dim(&hunk_header(hunk)))?;
        for line in &hunk.lines {
            let text = visible_controls(&format_line(line)).into_owned();
            let text = match line.tag {
                DiffTag::Equal => text,
                DiffTag::Expected => p.removed(&text),
                DiffTag::Actual => p.added(&text),
            };
            writeln!(out, "    {text}")?;
            shown += 1;
        }
    }
    match (&cluster.pending, &cluster.no_fixture) {
        (Some(path), _) => writeln!(out, "  pending:   {}", visible_controls(path))?,
        (None, Some(why)) => writeln!(out, "  no fixture: {}", visible_controls(why))?,
        (None, None) => {}
    }
    writeln!(out)
}

/// `, N in contract` when a cluster's inputs are some in contract and some
/// not (a cluster labelled robustness has none in contract).
pub(super) fn in_contract_share(cluster: &ClusterReport) -> String {
    if cluster.in_contract > 0 && cluster.in_contract < cluster.count {
        format!(", {} in contract", cluster.in_contract)
    } else {
        String::new()
    }
}

fn describe(side: &SideOutcome) -> String {
    match &side.message {
        Some(message) => format!("{}: {}", side.outcome, message.lines().next().unwrap_or_default()),
        None => side.outcome.clone(),
    }
}

fn excerpt(text: &str) -> String {
    if text.chars().count() <= MAX_INPUT_CHARS {
        text.to_owned()
    } else {
        format!("{}… ({} bytes)", text.chars().take(MAX_INPUT_CHARS).collect::<String>(), text.len())
    }
}
