//! The HTML matrix of several runs, one column per implementation: their
//! counts, their suites and every case side by side, one function per
//! section.

use super::super::escape::escape_html as escape;
use super::super::model::{CaseReport, Counts, RunReport, Tally, Verdict};
use super::run::{case_differences, case_line_diff, case_message, case_problems};
use super::{bar, close_page, filters, open_page};
use std::fmt::Write as _;
use std::io;

/// Writes one page comparing several runs, one column per implementation.
/// `labels` name the columns (one per report).
pub fn write_html_matrix(reports: &[RunReport], labels: &[String], out: &mut dyn io::Write) -> io::Result<()> {
    let labels: Vec<String> =
        (0..reports.len()).map(|i| labels.get(i).cloned().unwrap_or_else(|| format!("run {}", i + 1))).collect();
    let mut page = String::new();
    open_page(&mut page, &format!("conform matrix · {} implementations", reports.len()));
    let _ = write!(
        page,
        "<header><h1>conform matrix</h1><p class=\"meta\">{} implementations · {} fixtures</p></header>",
        reports.len(),
        matrix_ids(reports).len()
    );
    implementations(&mut page, reports, &labels);
    suites(&mut page, reports, &labels);
    cases(&mut page, reports, &labels);
    let footer = format!(
        "conform {} · one column per implementation",
        escape(reports.first().map_or("", |r| r.harness.version.as_str()))
    );
    close_page(&mut page, &footer);
    out.write_all(page.as_bytes())
}

/// Every fixture id of the reports, in order of first appearance.
fn matrix_ids(reports: &[RunReport]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    reports.iter().flat_map(|r| r.cases.iter()).map(|c| c.id.as_str()).filter(|id| seen.insert(*id)).collect()
}

/// One `<th>` per implementation, with `class`.
fn label_headers(page: &mut String, labels: &[String], class: &str) {
    for label in labels {
        let _ = write!(page, "<th class=\"{class}\">{}</th>", escape(label));
    }
}

/// The headline counts, causes and identity of each implementation.
fn implementations(page: &mut String, reports: &[RunReport], labels: &[String]) {
    page.push_str("<section id=\"implementations\"><h2>Implementations</h2><table><thead><tr><th></th>");
    label_headers(page, labels, "num impl");
    page.push_str("</tr></thead><tbody>");
    for (row, (name, _)) in Counts::default().named().into_iter().enumerate() {
        let _ = write!(page, "<tr><th>{name}</th>");
        for (i, report) in reports.iter().enumerate() {
            let _ = write!(
                page,
                "<td class=\"num\"><span class=\"count\" data-impl=\"{i}\" data-count=\"{}\">{}</span></td>",
                name.replace(' ', "-"),
                report.summary.named().get(row).map_or(0, |(_, n)| *n)
            );
        }
        page.push_str("</tr>");
    }
    page.push_str("<tr><th>causes</th>");
    for report in reports {
        let _ = write!(page, "<td class=\"num\">{}</td>", report.clusters.len());
    }
    page.push_str("</tr><tr><th>details</th>");
    for report in reports {
        let _ = write!(
            page,
            "<td class=\"num mono\">{} {} · {}</td>",
            escape(&report.implementation.name),
            escape(&report.implementation.version),
            escape(&report.implementation.language)
        );
    }
    page.push_str("</tr></tbody></table></section>");
}

/// Passed of total per suite and implementation.
fn suites(page: &mut String, reports: &[RunReport], labels: &[String]) {
    page.push_str("<section id=\"suites\"><h2>Suites</h2><table class=\"matrix\"><thead><tr><th>suite</th>");
    label_headers(page, labels, "impl");
    page.push_str("</tr></thead><tbody>");
    let mut suites: Vec<&str> = Vec::new();
    for report in reports {
        for suite in &report.suites {
            if !suites.contains(&suite.suite.as_str()) {
                suites.push(&suite.suite);
            }
        }
    }
    for suite in suites {
        let _ = write!(page, "<tr><td class=\"mono\">{}</td>", escape(suite));
        for report in reports {
            match report.suites.iter().find(|s| s.suite == suite) {
                Some(counts) => {
                    let _ = write!(
                        page,
                        "<td><div class=\"mono\">{} / {} passed</div>{}</td>",
                        counts.counts.passed,
                        counts.counts.total,
                        bar(&counts.counts)
                    );
                }
                None => page.push_str("<td class=\"meta\">not run</td>"),
            }
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></section>");
}

/// Every fixture with each implementation's verdict, filterable.
fn cases(page: &mut String, reports: &[RunReport], labels: &[String]) {
    page.push_str("<section id=\"cases\"><h2>Cases</h2>");
    let present: Vec<Verdict> =
        Verdict::ALL.into_iter().filter(|v| reports.iter().any(|r| r.summary.by_verdict.contains_key(v))).collect();
    filters(page, &present, &[("differs", "implementations disagree", false), ("failing", "any failure", false)]);
    page.push_str("<table class=\"matrix\"><thead><tr><th>fixture</th>");
    label_headers(page, labels, "impl");
    page.push_str("</tr></thead><tbody>");
    for id in matrix_ids(reports) {
        let cells: Vec<Option<&CaseReport>> = reports.iter().map(|r| r.cases.iter().find(|c| c.id == id)).collect();
        case_row(page, id, &cells);
    }
    page.push_str("</tbody></table></section>");
}

/// One fixture's row: whether the implementations agree, and one verdict
/// cell per implementation (`—` where a run did not have the fixture).
fn case_row(page: &mut String, id: &str, cells: &[Option<&CaseReport>]) {
    let verdicts: Vec<Verdict> = cells.iter().flatten().map(|c| c.verdict).collect();
    let differs = verdicts.windows(2).any(|w| w[0] != w[1]) || cells.iter().any(Option::is_none);
    let failing = verdicts.iter().any(|v| v.tally() == Tally::Failed);
    let mut names: Vec<&str> = verdicts.iter().map(|v| v.as_str()).collect();
    names.dedup();
    let text: String = std::iter::once(id.to_lowercase())
        .chain(cells.iter().flatten().filter_map(|c| c.message.as_deref().map(str::to_lowercase)))
        .collect::<Vec<_>>()
        .join(" ");
    let _ = write!(
        page,
        "<tr data-filterable data-verdicts=\"{}\" data-text=\"{}\"{}{} class=\"{}\"><td class=\"mono\">{}</td>",
        escape(&names.join(" ")),
        escape(&text),
        if differs { " data-differs" } else { "" },
        if failing { " data-failing" } else { "" },
        if differs { "differs" } else { "agree" },
        escape(id)
    );
    for (column, cell) in cells.iter().enumerate() {
        match cell {
            Some(case) if has_evidence(case) => cell_with_evidence(page, case, column),
            Some(case) => {
                let _ = write!(
                    page,
                    "<td class=\"cell\" title=\"{}\"><span class=\"badge v-{}\">{}</span></td>",
                    escape(case.message.as_deref().unwrap_or(case.verdict.as_str())),
                    case.verdict,
                    case.verdict
                );
            }
            None => page.push_str("<td class=\"cell meta\">—</td>"),
        }
    }
    page.push_str("</tr>");
}

/// Whether a cell has more to show than its verdict: a case that did not
/// pass, with a message, problems, differences or a diff.
fn has_evidence(case: &CaseReport) -> bool {
    case.verdict != Verdict::Pass
        && (case.message.is_some()
            || !case.problems.is_empty()
            || !case.differences.is_empty()
            || !case.diff.is_empty())
}

/// A verdict cell that opens, in place, this implementation's evidence for
/// the case: its problems or message, its differences and its line diff.
/// Its id (`cell-COLUMN-ID`) lets a link open it.
fn cell_with_evidence(page: &mut String, case: &CaseReport, column: usize) {
    let message = case.message.as_deref().unwrap_or("");
    let _ = write!(
        page,
        "<td class=\"cell\" title=\"{}\"><details class=\"cell-evidence\" id=\"cell-{column}-{}\"><summary><span class=\"badge v-{}\">{}</span></summary><div class=\"evidence\">",
        escape(if message.is_empty() { case.verdict.as_str() } else { message }),
        escape(&case.id),
        case.verdict,
        case.verdict
    );
    case_message(page, case, message);
    case_problems(page, case);
    case_differences(page, case);
    case_line_diff(page, case);
    page.push_str("</div></details></td>");
}
