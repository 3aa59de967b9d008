//! Writers for a [`ReportDiff`]: terminal, Markdown (for a PR comment) and
//! JSON. Like the report writers, each writes to an injected `io::Write`.

use super::{CaseChange, CaseOnlyIn, CaseState, ReportDiff};
use crate::report::budget::{Entry, fit};
use crate::report::markdown::rule_links;
use crate::report::rules::rules_line;
use crate::report::{MarkdownBudget, Palette, markdown_fenced, markdown_inline};
use std::io;

/// Differences listed per regression; the rest are counted.
const MAX_DIFFERENCES: usize = 8;

/// Writes the diff for a terminal.
pub fn write_pretty_diff(diff: &ReportDiff, out: &mut dyn io::Write, p: Palette) -> io::Result<()> {
    let headline = format!("conform compare: {}", diff.headline());
    writeln!(out, "{}", if diff.regressions.is_empty() { p.good(&headline) } else { p.bad(&headline) })?;
    for (label, run) in [("old", &diff.old), ("new", &diff.new)] {
        writeln!(
            out,
            "  {label}: {}  {}  {}",
            run.path,
            p.dim(&format!("{} · conform {}", run.implementation, run.harness)),
            run.summary.summary_line()
        )?;
    }
    if diff.regressions.len() + diff.fixes.len() > 0 || !diff.changed_failures.is_empty() {
        writeln!(out)?;
    }
    section(out, p, Section::Regressions, &diff.regressions)?;
    section(out, p, Section::Fixes, &diff.fixes)?;
    section(out, p, Section::ChangedFailures, &diff.changed_failures)?;
    section(out, p, Section::OtherChanges, &diff.other_changes)?;
    only_in(out, "New fixtures", &diff.added, "")?;
    only_in(out, "Removed fixtures", &diff.removed, "was ")?;
    writeln!(out, "{} unchanged", diff.unchanged)
}

/// The sections of changed fixtures in the terminal diff.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    /// Listed in red with the new differences.
    Regressions,
    /// Listed in green.
    Fixes,
    /// Listed in red with the differences before and now.
    ChangedFailures,
    /// Listed in yellow.
    OtherChanges,
}

impl Section {
    fn title(self) -> &'static str {
        match self {
            Section::Regressions => "Regressions",
            Section::Fixes => "Fixes",
            Section::ChangedFailures => "Changed failures",
            Section::OtherChanges => "Other changes",
        }
    }
}

fn section(out: &mut dyn io::Write, p: Palette, section: Section, changes: &[CaseChange]) -> io::Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    writeln!(out, "{} ({})", p.bold(section.title()), changes.len())?;
    for change in changes {
        let arrow = format!("{} → {}", change.old.verdict, change.new.verdict);
        let arrow = match section {
            Section::Fixes => p.good(&arrow),
            Section::Regressions | Section::ChangedFailures => p.bad(&arrow),
            Section::OtherChanges => p.warn(&arrow),
        };
        writeln!(out, "  {}  {arrow}", change.id)?;
        match section {
            Section::Regressions => {
                for (line, rules) in evidence(&change.suite, &change.new) {
                    writeln!(out, "    {line}")?;
                    if let Some(rules) = rules {
                        writeln!(out, "      {}", p.dim(&rules))?;
                    }
                }
            }
            Section::ChangedFailures => {
                for (label, state) in [("before", &change.old), ("now", &change.new)] {
                    for (line, rules) in evidence(&change.suite, state).into_iter().take(3) {
                        writeln!(out, "    {label:>6}: {line}")?;
                        if let Some(rules) = rules {
                            writeln!(out, "            {}", p.dim(&rules))?;
                        }
                    }
                }
            }
            Section::Fixes | Section::OtherChanges => {}
        }
    }
    writeln!(out)
}

fn only_in(out: &mut dyn io::Write, title: &str, cases: &[CaseOnlyIn], prefix: &str) -> io::Result<()> {
    if cases.is_empty() {
        return Ok(());
    }
    writeln!(out, "{title} ({})", cases.len())?;
    for case in cases {
        writeln!(out, "  {}  ({prefix}{})", case.id, case.verdict)?;
    }
    writeln!(out)
}

/// The pointer-level differences of a state (each with the line naming the
/// rules it breaks, as run's reports give it), or its message.
fn evidence(suite: &str, state: &CaseState) -> Vec<(String, Option<String>)> {
    let mut lines: Vec<(String, Option<String>)> = state
        .differences
        .iter()
        .take(MAX_DIFFERENCES)
        .map(|d| (d.message.clone(), rules_line(suite, &d.rules)))
        .collect();
    if state.differences.len() > MAX_DIFFERENCES {
        lines.push((format!("… and {} more differences", state.differences.len() - MAX_DIFFERENCES), None));
    }
    if lines.is_empty()
        && let Some(message) = &state.message
    {
        lines.push((message.lines().next().unwrap_or("").to_owned(), None));
    }
    lines
}

/// The first difference of a state (or its message) for a Markdown cell,
/// with the links of the rules it breaks.
fn first_difference(suite: &str, state: &CaseState) -> String {
    let text = evidence(suite, state).into_iter().next().map_or(String::new(), |(line, _)| line);
    let rules = state.differences.first().map_or(String::new(), |d| rule_links(suite, &d.rules));
    format!("{}{rules}", markdown_inline(&text))
}

/// Writes the diff as Markdown, ready to paste into a pull-request comment,
/// within the default budget.
pub fn write_markdown_diff(diff: &ReportDiff, out: &mut dyn io::Write) -> io::Result<()> {
    write_markdown_diff_within(diff, out, &MarkdownBudget::default())
}

/// Writes the diff as Markdown of at most `budget.limit` characters: the
/// headline and counts whole, then the tables and the regressions' details
/// while they fit, with a note saying what was cut.
pub fn write_markdown_diff_within(
    diff: &ReportDiff,
    out: &mut dyn io::Write,
    budget: &MarkdownBudget,
) -> io::Result<()> {
    let mut md = String::new();
    let icon = if diff.regressions.is_empty() { "✅" } else { "❌" };
    md.push_str(&format!("### {icon} conform compare: {}\n\n", diff.headline()));
    md.push_str("| | old | new |\n|---|---:|---:|\n");
    for ((name, old), (_, new)) in diff.old.summary.named().into_iter().zip(diff.new.summary.named()) {
        let delta = match new as i64 - old as i64 {
            0 => String::new(),
            d => format!(" ({d:+})"),
        };
        md.push_str(&format!("| {name} | {old} | {new}{delta} |\n"));
    }
    md.push_str(&format!(
        "\nold: <code>{}</code> ({}) · new: <code>{}</code> ({})\n\n",
        markdown_inline(&diff.old.path),
        markdown_inline(&diff.old.implementation),
        markdown_inline(&diff.new.path),
        markdown_inline(&diff.new.implementation)
    ));

    let mut entries = Vec::new();
    changes_table(&mut entries, "Regressions", &diff.regressions, &["was", "now", "first difference"], |change| {
        format!(
            "{} | **{}** | {}",
            change.old.verdict,
            change.new.verdict,
            first_difference(&change.suite, &change.new)
        )
    });
    for change in diff.regressions.iter().filter(|c| evidence(&c.suite, &c.new).len() > 1) {
        let lines: Vec<String> = evidence(&change.suite, &change.new)
            .into_iter()
            .flat_map(|(line, rules)| std::iter::once(line).chain(rules.map(|rules| format!("  {rules}"))))
            .collect();
        let whole = format!(
            "<details><summary>all differences of <code>{}</code></summary>\n\n{}\n</details>\n\n",
            markdown_inline(&change.id),
            markdown_fenced("text", &lines.join("\n"))
        );
        entries.push(Entry { whole, line: String::new(), counted: false });
    }
    changes_table(&mut entries, "Fixes", &diff.fixes, &["was", "now"], |change| {
        format!("{} | **{}**", change.old.verdict, change.new.verdict)
    });
    changes_table(&mut entries, "Changed failures", &diff.changed_failures, &["before", "now"], |change| {
        let cell = |state: &CaseState| format!("{}: {}", state.verdict, first_difference(&change.suite, state));
        format!("{} | {}", cell(&change.old), cell(&change.new))
    });
    changes_table(&mut entries, "Other changes", &diff.other_changes, &["was", "now"], |change| {
        format!("{} | {}", change.old.verdict, change.new.verdict)
    });
    for (title, cases) in [("New fixtures", &diff.added), ("Removed fixtures", &diff.removed)] {
        if cases.is_empty() {
            continue;
        }
        entries.push(Entry::kept(format!("#### {title} ({})\n\n", cases.len())));
        for case in cases {
            let line = format!("- <code>{}</code> ({})\n", markdown_inline(&case.id), case.verdict);
            entries.push(Entry { whole: line.clone(), line, counted: true });
        }
        entries.push(Entry::kept("\n".to_owned()));
    }
    let tail = format!("{} fixtures unchanged.\n", diff.unchanged);
    out.write_all(fit(&md, &entries, &tail, budget, "fixtures").as_bytes())
}

/// A `#### title (n)` section with one table row per change: the fixture,
/// then the `columns` that `row` fills (cells joined by ` | `). Nothing when
/// there are no changes.
fn changes_table(
    entries: &mut Vec<Entry>,
    title: &str,
    changes: &[CaseChange],
    columns: &[&str],
    row: impl Fn(&CaseChange) -> String,
) {
    if changes.is_empty() {
        return;
    }
    let mut head = format!("#### {title} ({})\n\n| fixture | {} |\n|---|", changes.len(), columns.join(" | "));
    head.push_str(&"---|".repeat(columns.len()));
    head.push('\n');
    entries.push(Entry::kept(head));
    for change in changes {
        let line = format!("| <code>{}</code> | {} |\n", markdown_inline(&change.id), row(change));
        entries.push(Entry { whole: line.clone(), line, counted: true });
    }
    entries.push(Entry::kept("\n".to_owned()));
}

/// Writes the diff as JSON (pretty, trailing newline).
pub fn write_json_diff(diff: &ReportDiff, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, diff).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::{MarkdownBudget, RunReport, Verdict, sample};
    use crate::report_diff::diff_reports;

    /// The sample run against an older one: two regressions (the sample's
    /// tool-state failure names the rules it breaks), a fix, a failure that
    /// changed, a removed and an added fixture.
    fn sample_diff() -> ReportDiff {
        let new = sample::run();
        let mut old: RunReport = new.clone();
        old.implementation.version = "2.3.0".to_owned();
        for case in &mut old.cases {
            match case.name.as_str() {
                "tool-error-state" | "crashes" => *case = sample::case(&case.suite, &case.name, Verdict::Pass, None),
                "throws" => case.message = Some("decoder threw: RangeError: invalid array length".to_owned()),
                "fixed-gap" => case.verdict = Verdict::Xfail,
                _ => {}
            }
        }
        old.cases.retain(|case| case.name != "declined");
        old.cases.push(sample::case("sse", "removed-later", Verdict::Pass, None));
        old.recount();
        diff_reports(&old, &new, "reports/main/conform-report.json", "reports/pr/conform-report.json")
    }

    #[test]
    fn the_sample_diff_for_a_terminal() {
        let text = sample::render(|out| write_pretty_diff(&sample_diff(), out, Palette::plain()));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    #[test]
    fn the_sample_diff_as_json() {
        let text = sample::render(|out| write_json_diff(&sample_diff(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    #[test]
    fn the_sample_diff_in_markdown() {
        let text = sample::render(|out| write_markdown_diff(&sample_diff(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    #[test]
    fn a_large_diff_in_markdown_keeps_to_the_budget() {
        let new = sample::run();
        let mut old = new.clone();
        for i in 0..3000 {
            old.cases.push(sample::case("chat", &format!("gone-with-a-long-name-{i:04}"), Verdict::Pass, None));
        }
        old.recount();
        let diff = diff_reports(&old, &new, "old.json", "new.json");
        let budget = MarkdownBudget { limit: 20_000, full_report: None };
        let md = sample::render(|out| write_markdown_diff_within(&diff, out, &budget));
        assert!(md.chars().count() <= 20_000, "{}", md.chars().count());
        assert!(md.contains("#### Removed fixtures (3000)"), "{md}");
        let note = md.lines().find(|l| l.starts_with("> ✂️")).expect("a cut note");
        assert!(note.contains("more not listed"), "{note}");
        assert!(md.ends_with("fixtures unchanged.\n"));
    }

    #[test]
    fn planted_payloads_render_inert_in_compare_markdown() {
        use crate::report::markdown::golden::{assert_inert, hostile_run, render_gfm};
        let new = hostile_run();
        let mut old = new.clone();
        for case in &mut old.cases {
            case.verdict = Verdict::Pass;
        }
        old.cases.push(sample::case("sse", "gone\n\n<script>alert(4)</script> @octocat", Verdict::Pass, None));
        old.recount();
        let diff = diff_reports(&old, &new, "old\n<img src=z onerror=alert(5)>.json", "@octocat/new.json");
        let md = sample::render(|out| write_markdown_diff(&diff, out));
        let details = md.matches("<details>").count();
        let Some(html) = render_gfm(&md) else { return };
        assert_inert(&html, details);
    }
}
