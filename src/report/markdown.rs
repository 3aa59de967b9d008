//! Markdown for CI step summaries and pull-request comments: a summary table
//! per suite and each non-passing case in a collapsible block.

use super::budget::{Entry, MarkdownBudget, fit};
use super::cluster::headline;
use super::escape::escape_html as html_escape;
use super::model::{CaseReport, RunReport, Tally, Verdict};
use crate::compare::render_plain;
use std::io;

/// Longest stderr excerpt shown per case.
const MAX_STDERR_CHARS: usize = 4000;

/// Clusters listed in the table; the rest are counted.
const MAX_CLUSTERS: usize = 20;

/// Example case ids listed per cluster.
const MAX_CLUSTER_EXAMPLES: usize = 5;

/// Writes the report as Markdown within the default budget
/// ([`DEFAULT_MARKDOWN_LIMIT`](super::DEFAULT_MARKDOWN_LIMIT) characters).
pub fn write_markdown(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    write_markdown_within(report, out, &MarkdownBudget::default())
}

/// Writes the report as Markdown of at most `budget.limit` characters: the
/// summary, the clusters, the baseline and the notices whole, then the cases
/// that did not pass, whole while they fit and one line each after that,
/// with a note saying what was cut and where the full report is.
pub fn write_markdown_within(report: &RunReport, out: &mut dyn io::Write, budget: &MarkdownBudget) -> io::Result<()> {
    let mut md = String::new();
    let status = if report.exit_code() == 0 { "✅" } else { "❌" };
    md.push_str(&format!("## {status} conform: {}\n\n", report.summary.summary_line()));
    md.push_str(&format!(
        "Implementation: `{}` {} ({}) · harness conform {} · {}\n\n",
        report.implementation.name,
        report.implementation.version,
        report.implementation.language,
        report.harness.version,
        report.started_at
    ));

    let verdicts = report.summary.verdicts();
    md.push_str("| suite | total |");
    for verdict in &verdicts {
        md.push_str(&format!(" {verdict} |"));
    }
    md.push_str("\n|---|---:|");
    md.push_str(&"---:|".repeat(verdicts.len()));
    md.push('\n');
    for suite in &report.suites {
        md.push_str(&format!("| {} | {} |", escape_cell(&suite.suite), suite.counts.total));
        for verdict in &verdicts {
            md.push_str(&format!(" {} |", suite.counts.count(*verdict)));
        }
        md.push('\n');
    }
    md.push('\n');

    md.push_str(&clusters_section(report));
    md.push_str(&baseline_section(report));

    let notable: Vec<_> = report.notices.iter().filter(|n| n.level != crate::fixture::NoticeLevel::Note).collect();
    if !notable.is_empty() {
        md.push_str("### Corpus notices\n\n");
        for notice in notable {
            md.push_str(&format!("- {}\n", escape_inline(&notice.to_string())));
        }
        md.push('\n');
    }

    let failing: Vec<_> =
        report.cases.iter().filter(|c| !matches!(c.verdict.tally(), Tally::Passed | Tally::Skipped)).collect();
    if !failing.is_empty() {
        md.push_str("### Cases that did not pass\n\n");
    }
    let entries: Vec<Entry> =
        failing.iter().map(|case| Entry { whole: case_block(case), line: case_line(case), counted: true }).collect();
    out.write_all(fit(&md, &entries, "", budget, "cases").as_bytes())
}

/// A case that did not pass, in a collapsible block with its evidence.
fn case_block(case: &CaseReport) -> String {
    let mut md = String::new();
    let headline = case.message.as_deref().unwrap_or("");
    md.push_str(&format!(
        "<details><summary><code>{}</code> · <b>{}</b> · {}</summary>\n\n",
        html_escape(&case.id),
        case.verdict,
        html_escape(&first_line(headline))
    ));
    md.push_str(&format!("File: `{}`\n\n", case.path.replace('`', "'")));
    for problem in &case.problems {
        md.push_str(&format!("- {}\n", escape_inline(problem)));
    }
    for difference in &case.differences {
        md.push_str(&format!("- {}\n", escape_inline(&difference.message)));
    }
    if case.omitted_differences > 0 {
        md.push_str(&format!("- … and {} more differences\n", case.omitted_differences));
    }
    if case.problems.is_empty() && case.differences.is_empty() && !headline.is_empty() {
        md.push_str(&fenced("text", headline));
    }
    if !case.diff.is_empty() {
        md.push('\n');
        md.push_str(&fenced("diff", &diff_for_markdown(&case.diff)));
    }
    for note in case.diff_note.iter().chain(&case.cut) {
        md.push_str(&format!("\n(cut: {})\n", escape_inline(note)));
    }
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        md.push_str("\nstderr:\n\n");
        md.push_str(&fenced("text", &tail(stderr, MAX_STDERR_CHARS)));
    }
    md.push_str("\n</details>\n\n");
    md
}

/// A case that did not pass, on one line (when the budget is spent).
fn case_line(case: &CaseReport) -> String {
    format!(
        "- <code>{}</code> · <b>{}</b> · {}\n",
        html_escape(&case.id),
        case.verdict,
        html_escape(&first_line(case.message.as_deref().unwrap_or("")))
    )
}

/// `### 31 failures, 2 causes` and a table of the causes.
fn clusters_section(report: &RunReport) -> String {
    let Some(headline) = headline(&report.cases, &report.clusters) else { return String::new() };
    let mut md = format!("### {headline}\n\n| cases | cause | examples |\n|---:|---|---|\n");
    for cluster in report.clusters.iter().take(MAX_CLUSTERS) {
        let examples = cluster.examples(MAX_CLUSTER_EXAMPLES, |id| format!("<code>{}</code>", html_escape(id)));
        let known = cluster.known_note().map(|note| format!(" {note}")).unwrap_or_default();
        md.push_str(&format!("| {}{known} | {} | {examples} |\n", cluster.cases.len(), escape_cell(&cluster.label)));
    }
    if report.clusters.len() > MAX_CLUSTERS {
        md.push_str(&format!("\n… and {} more causes\n", report.clusters.len() - MAX_CLUSTERS));
    }
    md.push('\n');
    md
}

/// The baseline's effect and every entry that fails the run.
fn baseline_section(report: &RunReport) -> String {
    let Some(baseline) = &report.baseline else { return String::new() };
    let mut md = format!(
        "### Baseline <code>{}</code>\n\n{} entries · {} xfail · {} xpass\n\n",
        html_escape(&baseline.path),
        baseline.entries.len(),
        report.summary.count(Verdict::Xfail),
        report.summary.count(Verdict::Xpass)
    );
    for problem in baseline.problems() {
        md.push_str(&format!("- ❌ {}\n", escape_inline(&problem)));
    }
    for entry in &baseline.entries {
        for id in &entry.passed {
            md.push_str(&format!(
                "- ❌ <code>{}</code> passes: remove the entry <code>{}</code>\n",
                html_escape(id),
                html_escape(&entry.id)
            ));
        }
    }
    md.push('\n');
    md
}

/// The diff with `-`/`+` in the first column so GitHub colors it.
fn diff_for_markdown(hunks: &[crate::compare::DiffHunk]) -> String {
    render_plain(hunks)
        .lines()
        .map(|line| match line.split_once('|') {
            Some((numbers, rest)) if !line.starts_with("@@") => {
                let (marker, text) = rest.split_at(rest.chars().next().map_or(0, char::len_utf8));
                format!("{marker}{numbers}|{text}")
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fenced code block whose fence is longer than any backtick run inside.
pub(crate) fn fenced(language: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() > 160 {
        format!("{}…", line.chars().take(160).collect::<String>())
    } else {
        line.to_owned()
    }
}

fn tail(text: &str, max_chars: usize) -> String {
    let count = text.chars().count();
    if count <= max_chars {
        return text.to_owned();
    }
    format!("…{}", text.chars().skip(count - max_chars).collect::<String>())
}

/// Inline text: HTML-escaped and with Markdown emphasis characters neutralized.
pub(crate) fn escape_inline(text: &str) -> String {
    // Character by character, so the backslashes never land inside an entity
    // the HTML escaper wrote (`&#39;`).
    let mut out = String::with_capacity(text.len());
    let mut buffer = [0u8; 4];
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#') {
            out.push('\\');
            out.push(c);
        } else {
            out.push_str(&html_escape(c.encode_utf8(&mut buffer)));
        }
    }
    out
}

fn escape_cell(text: &str) -> String {
    escape_inline(text)
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::MarkdownBudget;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_markdown(&sample::run(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    /// 500 failures with ordinary diffs: about 300 KB in full.
    fn many_failures() -> RunReport {
        let mut report = sample::run();
        let input = serde_json::json!({"messages": []});
        for i in 0..500 {
            let expected = sample::tool_output("error");
            let actual = sample::tool_output("completed");
            report.cases.push(sample::failing("chat", &format!("many-{i:03}"), input.clone(), expected, actual));
        }
        report.recount();
        report
    }

    #[test]
    fn a_large_report_keeps_to_the_budget_and_says_what_it_cut() {
        let report = many_failures();
        let full = sample::render(|out| {
            write_markdown_within(&report, out, &MarkdownBudget { limit: usize::MAX, full_report: None })
        });
        assert!(full.chars().count() > 200_000, "{}", full.len());
        let budget = MarkdownBudget { limit: 60_000, full_report: Some("reports/conform-report.html".to_owned()) };
        let md = sample::render(|out| write_markdown_within(&report, out, &budget));
        assert!(md.chars().count() <= 60_000, "{}", md.chars().count());
        assert!(md.starts_with("## ❌ conform: 501 passed") || md.starts_with("## ❌ conform: 1 passed"), "{md}");
        assert!(md.contains("### 506 failures (1 known), 6 causes"), "the clusters stay whole");
        assert!(md.contains("<details><summary><code>chat/tool-error-state</code>"), "the first failures stay whole");
        let whole = md.matches("<details>").count();
        let one_line = md.matches("\n- <code>chat/many-").count();
        assert!(whole > 10 && one_line > 100, "{whole} whole, {one_line} on one line");
        let cut = md.lines().find(|l| l.starts_with("> ✂️")).expect("a note says what was cut");
        assert!(cut.contains("`--markdown-limit`") && cut.contains("` reports/conform-report.html `"), "{cut}");
        assert!(cut.contains("cases on one line each"), "{cut}");
    }

    #[test]
    fn the_default_budget_fits_a_github_comment() {
        let md = sample::render(|out| write_markdown(&many_failures(), out));
        assert!(md.chars().count() <= crate::report::DEFAULT_MARKDOWN_LIMIT);
        const { assert!(crate::report::DEFAULT_MARKDOWN_LIMIT < 65_536) };
    }
}
