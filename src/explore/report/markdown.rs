//! The explore report as Markdown (CI step summaries, issue comments): the
//! summary, a table per suite, a table of clusters (each labelled in
//! contract or robustness), and each cluster's reduced example with its
//! diff in a collapsible block.

use super::model::{ClusterReport, ExploreReport};
use crate::compare::render_plain;
use crate::report::{escape_html as html_escape, markdown_fenced as fenced, markdown_inline as escape_inline};
use std::io;

/// Longest reduced input shown, in characters.
const MAX_INPUT_CHARS: usize = 4000;

/// Clusters shown in detail; the rest are only in the table.
const MAX_DETAILED: usize = 30;

/// Unreduced clusters listed.
const MAX_UNREDUCED: usize = 50;

/// Writes the report as Markdown.
pub fn write_markdown(report: &ExploreReport, out: &mut dyn io::Write) -> io::Result<()> {
    let mut md = String::new();
    let status = if report.exit_code() == 0 { "✅" } else { "❌" };
    md.push_str(&format!("## {status} conform explore: {}\n\n", escape_inline(&report.summary_line())));
    let (subject, against) = (&report.implementation, &report.against);
    md.push_str(&format!(
        "Implementation: `{}` {} ({}) · against: `{}` {} ({}) · seed {} · harness conform {} · {}\n\n",
        code(&subject.name),
        escape_inline(&subject.version),
        escape_inline(&subject.language),
        code(&against.name),
        escape_inline(&against.version),
        escape_inline(&against.language),
        report.seed,
        escape_inline(&report.harness.version),
        escape_inline(&report.started_at)
    ));
    md.push_str("| suite | seeds | inputs | judged | agreed | diverged | clusters | rejected | robustness |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for suite in &report.suites {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            escape_inline(&suite.suite),
            suite.seeds,
            suite.generated,
            suite.judged,
            suite.agreed,
            suite.diverged,
            suite.clusters,
            suite.rejected,
            suite.robustness
        ));
    }
    md.push('\n');
    if !report.clusters.is_empty() {
        md.push_str(
            "### Clusters\n\n| # | suite | contract | signature | inputs | first | reduced | pending fixture |\n",
        );
        md.push_str("|---:|---|---|---|---:|---|---|---|\n");
        for (number, cluster) in report.clusters.iter().enumerate() {
            let example = &cluster.example;
            let pending = match (&cluster.pending, &cluster.no_fixture) {
                (Some(path), _) => format!("`{}`", code(path)),
                (None, Some(why)) => format!("none: {}", escape_inline(why)),
                (None, None) => String::new(),
            };
            let reduced = match &example.list {
                Some(list) => format!("{} → {} {}", example.items_before, example.items_after, escape_inline(list)),
                None => format!("{} → {} bytes", example.bytes_before, example.bytes_after),
            };
            md.push_str(&format!(
                "| {} | {} | {} | {} | {}{} | {} | {reduced} | {} |\n",
                number + 1,
                escape_inline(&cluster.suite),
                cluster.contract,
                escape_inline(&cluster.signature),
                cluster.count,
                super::pretty::in_contract_share(cluster),
                escape_inline(&cluster.first_input),
                pending
            ));
        }
        md.push('\n');
        for (number, cluster) in report.clusters.iter().enumerate().take(MAX_DETAILED) {
            md.push_str(&cluster_details(number + 1, cluster));
        }
        if report.clusters.len() > MAX_DETAILED {
            md.push_str(&format!(
                "{} more clusters are in the table; the JSON report has every example.\n\n",
                report.clusters.len() - MAX_DETAILED
            ));
        }
    }
    if !report.unreduced.is_empty() {
        let n = report.unreduced.len();
        md.push_str(&format!(
            "### {n} more {}, not reduced (`--max-pending`)\n\n| suite | contract | signature | inputs | example |\n",
            if n == 1 { "cluster" } else { "clusters" }
        ));
        md.push_str("|---|---|---|---:|---|\n");
        for line in report.unreduced.iter().take(MAX_UNREDUCED) {
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                escape_inline(&line.suite),
                line.contract,
                escape_inline(&line.signature),
                line.count,
                escape_inline(&line.example_input)
            ));
        }
        if report.unreduced.len() > MAX_UNREDUCED {
            md.push_str(&format!(
                "\n… and {} more; the JSON report lists every one.\n",
                report.unreduced.len() - MAX_UNREDUCED
            ));
        }
        md.push('\n');
    }
    let notable: Vec<_> = report.notices.iter().filter(|n| n.level != crate::fixture::NoticeLevel::Note).collect();
    if !notable.is_empty() {
        md.push_str("### Notices\n\n");
        for notice in notable {
            md.push_str(&format!("- {}\n", escape_inline(&notice.to_string())));
        }
        md.push('\n');
    }
    out.write_all(md.as_bytes())
}

fn cluster_details(number: usize, cluster: &ClusterReport) -> String {
    let example = &cluster.example;
    let mut md = format!(
        "<details><summary>{number}. <code>{}</code> · <b>{}</b> · {} · {} inputs</summary>\n\n",
        html_escape(&cluster.slug),
        cluster.contract,
        html_escape(&cluster.signature),
        cluster.count
    );
    md.push_str(&format!(
        "Example `{}` ({}) from `{}`: {}\n\n",
        code(&example.input_id),
        example.contract,
        code(&example.seed_fixture),
        escape_inline(&example.mutations.join("; "))
    ));
    if let Some(note) = &example.reduction_note {
        md.push_str(&format!("Note: {}\n\n", escape_inline(note)));
    }
    let input = crate::json::to_canonical_string(&example.input);
    let input = if input.chars().count() > MAX_INPUT_CHARS {
        format!(
            "{}\n… ({} bytes in all; the JSON report has it)",
            input.chars().take(MAX_INPUT_CHARS).collect::<String>(),
            input.len()
        )
    } else {
        input
    };
    md.push_str("Reduced input:\n\n");
    md.push_str(&fenced("json", &input));
    md.push('\n');
    for (label, side) in [("Expected", &example.expected), ("Actual", &example.actual)] {
        if side.outcome != "output" {
            let message = side.message.as_deref().unwrap_or_default();
            md.push_str(&format!("{label}: **{}** {}\n\n", escape_inline(&side.outcome), escape_inline(message)));
        }
    }
    for difference in &example.differences {
        md.push_str(&format!("- {}\n", escape_inline(&difference.message)));
    }
    if !example.differences.is_empty() {
        md.push('\n');
    }
    if !example.diff.is_empty() {
        md.push_str(&fenced("diff", &render_plain(&example.diff)));
        md.push('\n');
    }
    md.push_str("</details>\n\n");
    md
}

/// Text inside a code span: backticks cannot be escaped there, so they
/// become a lookalike.
fn code(text: &str) -> String {
    text.replace('`', "ˋ").replace(['\n', '\r'], " ")
}
