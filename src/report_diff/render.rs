//! Writers for a [`ReportDiff`]: terminal, Markdown (for a PR comment) and
//! JSON. Like the report writers, each writes to an injected `io::Write`.

use super::{CaseChange, CaseOnlyIn, CaseState, ReportDiff};
use crate::report::{Palette, markdown_fenced, markdown_html, markdown_inline};
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
    section(out, p, "Regressions", &diff.regressions, true)?;
    section(out, p, "Fixes", &diff.fixes, false)?;
    section(out, p, "Changed failures", &diff.changed_failures, true)?;
    section(out, p, "Other changes", &diff.other_changes, false)?;
    only_in(out, "New fixtures", &diff.added, "")?;
    only_in(out, "Removed fixtures", &diff.removed, "was ")?;
    writeln!(out, "{} unchanged", diff.unchanged)
}

fn section(out: &mut dyn io::Write, p: Palette, title: &str, changes: &[CaseChange], details: bool) -> io::Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    writeln!(out, "{} ({})", p.bold(title), changes.len())?;
    for change in changes {
        let arrow = format!("{} → {}", change.old.verdict, change.new.verdict);
        let arrow = if title == "Fixes" {
            p.good(&arrow)
        } else if details {
            p.bad(&arrow)
        } else {
            p.warn(&arrow)
        };
        writeln!(out, "  {}  {arrow}", change.id)?;
        if !details {
            continue;
        }
        if title == "Changed failures" {
            for (label, state) in [("before", &change.old), ("now", &change.new)] {
                for line in evidence(state).into_iter().take(3) {
                    writeln!(out, "    {label:>6}: {line}")?;
                }
            }
        } else {
            for line in evidence(&change.new) {
                writeln!(out, "    {line}")?;
            }
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

/// The pointer-level differences of a state, or its message.
fn evidence(state: &CaseState) -> Vec<String> {
    let mut lines: Vec<String> = state.differences.iter().take(MAX_DIFFERENCES).map(|d| d.message.clone()).collect();
    if state.differences.len() > MAX_DIFFERENCES {
        lines.push(format!("… and {} more differences", state.differences.len() - MAX_DIFFERENCES));
    }
    if lines.is_empty()
        && let Some(message) = &state.message
    {
        lines.push(message.lines().next().unwrap_or("").to_owned());
    }
    lines
}

/// Writes the diff as Markdown, ready to paste into a pull-request comment.
pub fn write_markdown_diff(diff: &ReportDiff, out: &mut dyn io::Write) -> io::Result<()> {
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
        markdown_html(&diff.old.path),
        markdown_html(&diff.old.implementation),
        markdown_html(&diff.new.path),
        markdown_html(&diff.new.implementation)
    ));

    if !diff.regressions.is_empty() {
        md.push_str(&format!("#### Regressions ({})\n\n", diff.regressions.len()));
        md.push_str("| fixture | was | now | first difference |\n|---|---|---|---|\n");
        for change in &diff.regressions {
            md.push_str(&format!(
                "| <code>{}</code> | {} | **{}** | {} |\n",
                markdown_html(&change.id),
                change.old.verdict,
                change.new.verdict,
                markdown_inline(evidence(&change.new).first().map_or("", String::as_str))
            ));
        }
        md.push('\n');
        for change in diff.regressions.iter().filter(|c| evidence(&c.new).len() > 1) {
            md.push_str(&format!(
                "<details><summary>all differences of <code>{}</code></summary>\n\n{}\n</details>\n\n",
                markdown_html(&change.id),
                markdown_fenced("text", &evidence(&change.new).join("\n"))
            ));
        }
    }
    if !diff.fixes.is_empty() {
        md.push_str(&format!("#### Fixes ({})\n\n| fixture | was | now |\n|---|---|---|\n", diff.fixes.len()));
        for change in &diff.fixes {
            md.push_str(&format!(
                "| <code>{}</code> | {} | **{}** |\n",
                markdown_html(&change.id),
                change.old.verdict,
                change.new.verdict
            ));
        }
        md.push('\n');
    }
    if !diff.changed_failures.is_empty() {
        md.push_str(&format!(
            "#### Changed failures ({})\n\n| fixture | before | now |\n|---|---|---|\n",
            diff.changed_failures.len()
        ));
        for change in &diff.changed_failures {
            let cell = |state: &CaseState| {
                format!("{}: {}", state.verdict, markdown_inline(evidence(state).first().map_or("", String::as_str)))
            };
            md.push_str(&format!(
                "| <code>{}</code> | {} | {} |\n",
                markdown_html(&change.id),
                cell(&change.old),
                cell(&change.new)
            ));
        }
        md.push('\n');
    }
    if !diff.other_changes.is_empty() {
        md.push_str(&format!(
            "#### Other changes ({})\n\n| fixture | was | now |\n|---|---|---|\n",
            diff.other_changes.len()
        ));
        for change in &diff.other_changes {
            md.push_str(&format!(
                "| <code>{}</code> | {} | {} |\n",
                markdown_html(&change.id),
                change.old.verdict,
                change.new.verdict
            ));
        }
        md.push('\n');
    }
    for (title, cases) in [("New fixtures", &diff.added), ("Removed fixtures", &diff.removed)] {
        if cases.is_empty() {
            continue;
        }
        md.push_str(&format!("#### {title} ({})\n\n", cases.len()));
        for case in cases {
            md.push_str(&format!("- <code>{}</code> ({})\n", markdown_html(&case.id), case.verdict));
        }
        md.push('\n');
    }
    md.push_str(&format!("{} fixtures unchanged.\n", diff.unchanged));
    out.write_all(md.as_bytes())
}

/// Writes the diff as JSON (pretty, trailing newline).
pub fn write_json_diff(diff: &ReportDiff, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, diff).map_err(io::Error::other)?;
    out.write_all(b"\n")
}
