//! The HTML report: one self-contained file (inline CSS and a little inline
//! JavaScript, no network, no external assets) that people can open from a
//! CI artifact.
//!
//! A single run ([`write_html`], in `run.rs`) shows the summary, a per-suite
//! matrix, the failure clusters, the baseline's findings and a filterable
//! list of cases; each failure has its input, expected and actual side by
//! side with the differing paths marked, the line diff and the adapter's
//! stderr. Several runs ([`write_html_matrix`], in `matrix.rs`) render as a
//! matrix with one column per implementation. Everything taken from a report
//! is escaped (fixture content and adapter output are untrusted), and no
//! report data is ever placed inside the script.
//!
//! The style sheet and the script are asset files (`src/report/assets/`),
//! built into the binary, so they can be read and linted as CSS and
//! JavaScript.

mod matrix;
mod run;

pub use matrix::write_html_matrix;
pub use run::write_html;

use super::escape::escape_html as escape;
use super::model::{Counts, Tally, Verdict};
use std::fmt::Write as _;

/// The page's style sheet.
const STYLE: &str = include_str!("../assets/report.css");

/// The page's script: filters, expand/collapse, opening the case a link
/// points at. It reads the page; it never holds report data.
const SCRIPT: &str = include_str!("../assets/report.js");

/// The document head (with the style sheet and a policy that allows no
/// network) and the opening of `<main>`.
fn open_page(page: &mut String, title: &str) {
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>\n{STYLE}</style></head><body><main>",
        escape(title)
    );
}

/// `footer_text` (already HTML) in the footer, then the script and the end
/// of the document.
fn close_page(page: &mut String, footer_text: &str) {
    let _ = writeln!(page, "<footer>{footer_text}</footer></main><script>\n{SCRIPT}</script></body></html>");
}

fn verdict_color(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "var(--pass)",
        Verdict::Fail => "var(--fail)",
        Verdict::Error => "var(--error)",
        Verdict::Crash => "var(--crash)",
        Verdict::Timeout => "var(--timeout)",
        Verdict::ProtocolError => "var(--proto)",
        Verdict::Xfail => "var(--known)",
        Verdict::Xpass => "var(--xpass)",
        Verdict::Skipped | Verdict::Unsupported => "var(--skip)",
        Verdict::Invalid | Verdict::UnsupportedVersion => "var(--invalid)",
    }
}

/// A stacked bar of the verdict shares of `counts`.
fn bar(counts: &Counts) -> String {
    let mut bar = String::from("<div class=\"bar\">");
    for (verdict, n) in &counts.by_verdict {
        let share = *n as f64 * 100.0 / counts.total.max(1) as f64;
        let _ = write!(
            bar,
            "<span style=\"width:{share:.3}%;background:{}\" title=\"{n} {verdict}\"></span>",
            verdict_color(*verdict)
        );
    }
    bar.push_str("</div>");
    bar
}

/// The verdict toggles, the search box and the counter of shown rows.
fn filters(page: &mut String, present: &[Verdict], flags: &[(&str, &str, bool)]) {
    let any_failure = present.iter().any(|v| v.tally() != Tally::Passed);
    page.push_str(
        "<div class=\"filters\"><input type=\"search\" id=\"filter\" placeholder=\"Filter by fixture id or message\">",
    );
    for verdict in present {
        // Start with the failures in view when there are any.
        let checked = !any_failure || *verdict != Verdict::Pass;
        let _ = write!(
            page,
            "<label><input type=\"checkbox\" class=\"verdict-toggle\" value=\"{verdict}\"{}> <span class=\"badge v-{verdict}\">{verdict}</span></label>",
            if checked { " checked" } else { "" }
        );
    }
    for (flag, label, checked) in flags {
        let _ = write!(
            page,
            "<label><input type=\"checkbox\" class=\"row-toggle\" value=\"{flag}\"{}> {label}</label>",
            if *checked { " checked" } else { "" }
        );
    }
    page.push_str("<button type=\"button\" id=\"expand\">expand all</button><button type=\"button\" id=\"collapse\">collapse all</button><span id=\"shown\"></span></div>");
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::sample;

    /// The sample's redactions, and the style sheet and script (asset files,
    /// not written by this module) left out.
    fn settings() -> insta::Settings {
        let mut settings = sample::redactions();
        settings.add_filter(r"(?s)<style>.*?</style>", "<style>[report.css]</style>");
        settings.add_filter(r"(?s)<script>.*?</script>", "<script>[report.js]</script>");
        settings
    }

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_html(&sample::run(), out)).replace("><", ">\n<");
        settings().bind(|| insta::assert_snapshot!(text));
    }

    #[test]
    fn the_sample_run_beside_a_reference_run() {
        let mut reference = sample::run();
        for case in &mut reference.cases {
            *case = sample::case(&case.suite, &case.name, crate::report::Verdict::Pass, None);
        }
        reference.baseline = None;
        reference.recount();
        let labels = ["reference".to_owned(), "sample".to_owned()];
        let text =
            sample::render(|out| write_html_matrix(&[reference, sample::run()], &labels, out)).replace("><", ">\n<");
        settings().bind(|| insta::assert_snapshot!(text));
    }
}
