//! The HTML report of one run: header, tiles, suites, notices, baseline,
//! clusters and the case list, one function per section.

use super::super::baseline_summary::{BaselineSummary, EntryOutcome};
use super::super::cluster::headline;
use super::super::escape::escape_html as escape;
use super::super::html_json::{Side, render_diff, render_marked, render_plain_json};
use super::super::model::{CaseReport, Counts, RunReport, Verdict};
use super::super::signature::Signature;
use super::{bar, close_page, filters, open_page};
use crate::fixture::NoticeLevel;
use crate::report::rules::{broken_rules, shown_rules};
use std::fmt::Write as _;
use std::io;

/// Example case ids linked per cluster.
const MAX_CLUSTER_EXAMPLES: usize = 8;

/// Writes the HTML report of one run.
pub fn write_html(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    let mut page = String::new();
    let title = format!("conform · {} · {}", report.implementation.name, report.summary.summary_line());
    open_page(&mut page, &title);
    page.push_str("<header><h1>conform report</h1>");
    let _ = write!(page, "<p class=\"meta\">{}</p>", run_meta(report));
    page.push_str("</header>");
    tiles(&mut page, &report.summary, report.exit_code() == 0);
    rules_broken(&mut page, report);
    suite_matrix(&mut page, report);
    notices(&mut page, report);
    baseline(&mut page, report);
    clusters(&mut page, report);
    case_list(&mut page, report);
    let footer = format!("conform {} · report format {}", escape(&report.harness.version), report.format_version);
    close_page(&mut page, &footer);
    out.write_all(page.as_bytes())
}

fn run_meta(report: &RunReport) -> String {
    let implementation = &report.implementation;
    let mut meta = format!(
        "<code>{}</code> {} ({}, {})",
        escape(&implementation.name),
        escape(&implementation.version),
        escape(&implementation.language),
        match implementation.kind {
            crate::implementation::ImplementationKind::Reference => "in-process reference",
            crate::implementation::ImplementationKind::Subprocess => "subprocess",
        }
    );
    if let Some(command) = &implementation.command {
        let _ = write!(meta, " · <code>{}</code>", escape(command));
    }
    let _ = write!(
        meta,
        " · conform {} · started {} · {:.1} s",
        escape(&report.harness.version),
        escape(&report.started_at),
        report.duration_ms / 1000.0
    );
    if !report.paths.is_empty() {
        let _ = write!(meta, " · <code>{}</code>", escape(&report.paths.join(" ")));
    }
    if let Some(partition) = report.partition {
        let _ = write!(meta, " · shard {}/{}", partition.index, partition.count);
    }
    meta
}

fn tiles(page: &mut String, counts: &Counts, conformant: bool) {
    page.push_str("<section class=\"tiles\">");
    let tiles = [
        ("passed", "passed", counts.passed),
        ("failed", "failed", counts.failed),
        ("known", "known failures", counts.known_failures),
        ("skipped", "skipped", counts.skipped),
        ("total", "total", counts.total),
    ];
    for (class, what, n) in tiles {
        let _ = write!(
            page,
            "<div class=\"tile {class}\"><span class=\"count\" data-count=\"{}\">{n}</span><span class=\"what\">{what}</span></div>",
            what.replace(' ', "-")
        );
    }
    page.push_str("</section>");
    let class = if conformant { "ok" } else { "bad" };
    let _ =
        write!(page, "<p class=\"verdict-line {class}\" id=\"summary-line\">{}</p>", escape(&counts.summary_line()));
}

fn suite_matrix(page: &mut String, report: &RunReport) {
    let verdicts = report.summary.verdicts();
    page.push_str("<section id=\"suites\"><h2>Suites</h2><table><thead><tr><th>suite</th><th class=\"num\">total</th>");
    for verdict in &verdicts {
        let _ = write!(page, "<th class=\"num\">{verdict}</th>");
    }
    page.push_str("<th></th></tr></thead><tbody>");
    for suite in &report.suites {
        let _ = write!(
            page,
            "<tr data-suite=\"{0}\"><td class=\"mono\">{0}</td><td class=\"num\">{1}</td>",
            escape(&suite.suite),
            suite.counts.total
        );
        for verdict in &verdicts {
            let n = suite.counts.count(*verdict);
            let _ = write!(page, "<td class=\"num\">{}</td>", if n == 0 { String::new() } else { n.to_string() });
        }
        let _ = write!(page, "<td class=\"bar-cell\">{}</td></tr>", bar(&suite.counts));
    }
    page.push_str("</tbody></table></section>");
}

fn notices(page: &mut String, report: &RunReport) {
    let notable: Vec<_> = report.notices.iter().filter(|n| n.level != NoticeLevel::Note).collect();
    if notable.is_empty() {
        return;
    }
    page.push_str("<section id=\"notices\"><h2>Corpus notices</h2><ul class=\"problems\">");
    for notice in notable {
        let _ = write!(page, "<li>{}</li>", escape(&notice.to_string()));
    }
    page.push_str("</ul></section>");
}

fn baseline(page: &mut String, report: &RunReport) {
    let Some(baseline) = &report.baseline else { return };
    let _ = write!(
        page,
        "<section id=\"baseline\"><h2>Baseline <code>{}</code></h2><p class=\"meta\">{} entries · {} xfail · {} xpass · checked on {}</p>",
        escape(&baseline.path),
        baseline.entries.len(),
        report.summary.count(Verdict::Xfail),
        report.summary.count(Verdict::Xpass),
        escape(&baseline.today)
    );
    let problems = baseline.problems();
    let passed: Vec<(&str, &str)> =
        baseline.entries.iter().flat_map(|e| e.passed.iter().map(move |id| (id.as_str(), e.id.as_str()))).collect();
    if !problems.is_empty() || !passed.is_empty() {
        page.push_str("<ul class=\"problems bad\">");
        for problem in problems {
            let _ = write!(page, "<li>{}</li>", escape(&problem));
        }
        for (id, entry) in passed {
            let _ = write!(
                page,
                "<li><a href=\"#{0}\"><code>{0}</code></a> passes: remove the entry <code>{1}</code></li>",
                escape(id),
                escape(entry)
            );
        }
        page.push_str("</ul>");
    }
    page.push_str("<details class=\"more\"><summary>entries</summary><table><thead><tr><th>id</th><th>verdict</th><th>status</th><th>reason</th><th>issue</th><th>expires</th></tr></thead><tbody>");
    for entry in &baseline.entries {
        let _ = write!(
            page,
            "<tr><td class=\"mono\">{}</td><td><span class=\"badge v-{}\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&entry.id),
            entry.verdict,
            entry.verdict,
            entry.status.as_str(),
            escape(&entry.reason),
            entry.issue.as_deref().map(issue_link).unwrap_or_default(),
            escape(entry.expires.as_deref().unwrap_or(""))
        );
    }
    page.push_str("</tbody></table></details></section>");
}

/// A link when the issue is an http(s) URL, plain text otherwise (never a
/// `javascript:` or other scheme).
fn issue_link(issue: &str) -> String {
    if issue.starts_with("https://") || issue.starts_with("http://") {
        format!("<a href=\"{0}\" rel=\"noreferrer\">{0}</a>", escape(issue))
    } else {
        escape(issue)
    }
}

/// The contract rules the failures break, first: each with its count,
/// smallest example and sentence, linked to the suite's README.
fn rules_broken(page: &mut String, report: &RunReport) {
    let broken = broken_rules(report);
    if broken.is_empty() {
        return;
    }
    page.push_str("<section id=\"rules-broken\"><h2>Rules broken</h2><table><thead><tr><th class=\"num\">cases</th><th>rule</th><th>smallest example</th><th>the rule</th></tr></thead><tbody>");
    for rule in &broken {
        let _ = write!(
            page,
            "<tr><td class=\"num\">{cases}</td><td><a class=\"rule\" href=\"{link}\"><code>{id}</code></a></td><td><a href=\"#{example}\"><code>{example}</code></a></td><td>{sentence}</td></tr>",
            cases = rule.cases,
            link = escape(&rule.link),
            id = escape(&rule.rule),
            example = escape(&rule.smallest),
            sentence = escape(&rule.sentence)
        );
    }
    page.push_str("</tbody></table></section>");
}

fn clusters(page: &mut String, report: &RunReport) {
    let Some(headline) = headline(&report.cases, &report.clusters) else { return };
    let _ = write!(
        page,
        "<section id=\"clusters\"><h2 id=\"cluster-headline\">{}</h2><table><thead><tr><th class=\"num\">cases</th><th>cause</th><th>examples</th></tr></thead><tbody>",
        escape(&headline)
    );
    for cluster in &report.clusters {
        let examples =
            cluster.examples(MAX_CLUSTER_EXAMPLES, |id| format!("<a href=\"#{0}\"><code>{0}</code></a>", escape(id)));
        let known = cluster.known_note().map(|note| format!(" <span class=\"meta\">{note}</span>")).unwrap_or_default();
        let _ = write!(
            page,
            "<tr><td class=\"num\">{}{known}</td><td class=\"cause\">{}</td><td>{}</td></tr>",
            cluster.cases.len(),
            signature_html(&cluster.signature),
            examples
        );
    }
    page.push_str("</tbody></table></section>");
}

/// A cluster's signature: the pointer pattern and kind, or the verdict badge
/// and message class.
fn signature_html(signature: &Signature) -> String {
    match signature {
        Signature::Difference { pattern, kind, change } => format!(
            "<code>{}</code> <span class=\"kind\">{}</span>{}",
            escape(if pattern.is_empty() { "(whole output)" } else { pattern }),
            kind.as_str(),
            change.as_deref().map(|c| format!(" <code>{}</code>", escape(c))).unwrap_or_default()
        ),
        Signature::Verdict { verdict, message_class } => {
            format!("<span class=\"badge v-{verdict}\">{verdict}</span> {}", escape(message_class))
        }
        Signature::Rule { suite, rule } => {
            let doc = crate::suites::rule_doc(suite, rule);
            format!(
                "breaks <a class=\"rule\" href=\"{}\"><code>{}</code></a> <span class=\"meta\">{}</span>",
                escape(&doc.as_ref().map(|doc| doc.link.clone()).unwrap_or_default()),
                escape(rule),
                escape(&doc.map(|doc| doc.sentence).unwrap_or_default())
            )
        }
    }
}

fn case_list(page: &mut String, report: &RunReport) {
    let present: Vec<Verdict> =
        Verdict::ALL.into_iter().filter(|v| report.summary.by_verdict.contains_key(v)).collect();
    page.push_str("<section id=\"cases\"><h2>Cases</h2>");
    filters(page, &present, &[]);
    page.push_str("<div id=\"case-list\">");
    let entries = report.baseline.as_ref().map(BaselineSummary::entries_by_case).unwrap_or_default();
    for case in &report.cases {
        case_entry(page, case, entries.get(case.id.as_str()).copied());
    }
    page.push_str("</div>");
    page.push_str("<p class=\"legend\">marked paths: <span class=\"hl-changed\">changed</span><span class=\"hl-missing\">missing from the output</span><span class=\"hl-extra\">unexpected in the output</span></p></section>");
}

/// One case: a plain row when it passed, else a collapsible entry with its
/// evidence, one section after the other.
fn case_entry(page: &mut String, case: &CaseReport, entry: Option<&EntryOutcome>) {
    let message = case.message.as_deref().unwrap_or("");
    let text = format!("{} {}", case.id, message).to_lowercase();
    let head = case_head(case, message);
    let attributes = format!(
        "id=\"{}\" class=\"case\" data-filterable data-verdicts=\"{}\" data-text=\"{}\"",
        escape(&case.id),
        case.verdict,
        escape(&text)
    );
    if case.verdict == Verdict::Pass {
        let _ = write!(page, "<div {attributes}><div class=\"row\">{head}</div></div>");
        return;
    }
    let _ = write!(page, "<details {attributes}><summary>{head}</summary><div class=\"body\">");
    case_file(page, case);
    case_baseline_note(page, entry);
    case_message(page, case, message);
    case_problems(page, case);
    case_differences(page, case);
    case_sides(page, case);
    case_line_diff(page, case);
    case_input(page, case);
    case_cut_notes(page, case);
    case_stderr(page, case);
    page.push_str("</div></details>");
}

/// The badge, id, first message line and duration of a case's row.
fn case_head(case: &CaseReport, message: &str) -> String {
    let first_line = message.lines().next().unwrap_or("");
    // A fixture whose input no hub sends carries a second badge.
    let contract = if case.contract.is_robustness() {
        format!(
            "<span class=\"badge contract-robustness\" title=\"the input is outside the suite's wire schema: no real hub sends it\">{}</span>",
            case.contract
        )
    } else {
        String::new()
    };
    format!(
        "<span class=\"badge v-{0}\">{0}</span>{contract}<code class=\"id\">{1}</code><span class=\"msg\">{2}</span><span class=\"meta mono\">{3:.1} ms</span>",
        case.verdict,
        escape(&case.id),
        escape(first_line),
        case.duration_ms
    )
}

fn case_file(page: &mut String, case: &CaseReport) {
    let _ = write!(page, "<p class=\"meta\">file <code>{}</code>", escape(&case.path));
    if let Some(version) = case.fixture_version {
        let _ = write!(page, " · fixtureVersion {version}");
    }
    if case.contract.is_robustness() {
        page.push_str(" · robustness: the input is outside the suite's wire schema");
    }
    page.push_str("</p>");
}

/// The baseline entry that excused (or expected) this case, if any.
fn case_baseline_note(page: &mut String, entry: Option<&EntryOutcome>) {
    let Some(entry) = entry else { return };
    let _ = write!(
        page,
        "<div class=\"known-note\">baseline entry <code>{}</code> expects <b>{}</b>: {}{}</div>",
        escape(&entry.id),
        entry.verdict,
        escape(&entry.reason),
        entry.issue.as_deref().map(|i| format!(" · {}", issue_link(i))).unwrap_or_default()
    );
}

/// The whole message, for cases whose evidence is not a list of problems or
/// differences (errors, crashes, timeouts, …).
pub(super) fn case_message(page: &mut String, case: &CaseReport, message: &str) {
    if !message.is_empty() && case.differences.is_empty() && case.problems.is_empty() {
        let _ = write!(page, "<pre>{}</pre>", escape(message));
    }
}

pub(super) fn case_problems(page: &mut String, case: &CaseReport) {
    if case.problems.is_empty() {
        return;
    }
    page.push_str("<ul class=\"problems\">");
    for problem in &case.problems {
        let _ = write!(page, "<li>{}</li>", escape(problem));
    }
    page.push_str("</ul>");
}

/// The differences by pointer, kind and message.
pub(super) fn case_differences(page: &mut String, case: &CaseReport) {
    if case.differences.is_empty() {
        return;
    }
    page.push_str("<h3>Differences</h3><table class=\"differences\"><tbody>");
    for difference in &case.differences {
        let _ = write!(
            page,
            "<tr><td class=\"mono\">{}</td><td class=\"kind\">{}</td><td>{}{}</td></tr>",
            escape(if difference.pointer.is_empty() { "(whole output)" } else { &difference.pointer }),
            difference.kind.as_str(),
            escape(&difference.message),
            rule_links(&case.suite, &difference.rules)
        );
    }
    if case.omitted_differences > 0 {
        let _ = write!(page, "<tr><td colspan=\"3\" class=\"meta\">… and {} more</td></tr>", case.omitted_differences);
    }
    page.push_str("</tbody></table>");
}

/// The rules of a difference as links to their sentences (the sentence is
/// the link's title), in a `div.rules` under its message.
fn rule_links(suite: &str, rules: &[String]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let (shown, more) = shown_rules(suite, rules);
    let mut html = String::from("<div class=\"rules\">rules: ");
    for (at, (rule, link)) in shown.iter().enumerate() {
        if at > 0 {
            html.push_str(", ");
        }
        let sentence = crate::suites::rule_doc(suite, rule).map(|doc| doc.sentence).unwrap_or_default();
        let _ = write!(
            html,
            "<a class=\"rule\" href=\"{}\" title=\"{}\">{}</a>",
            escape(link),
            escape(&sentence),
            escape(rule)
        );
    }
    if more > 0 {
        let _ = write!(html, " and {more} more");
    }
    html.push_str("</div>");
    html
}

/// Expected and actual side by side, the differing paths marked.
fn case_sides(page: &mut String, case: &CaseReport) {
    match (&case.expected, &case.actual) {
        (Some(expected), Some(actual)) => {
            let _ = write!(
                page,
                "<div class=\"sbs\"><div><h4>expected</h4><pre class=\"expected\">{}</pre></div><div><h4>actual</h4><pre class=\"actual\">{}</pre></div></div>",
                render_marked(expected, &case.differences, Side::Expected),
                render_marked(actual, &case.differences, Side::Actual)
            );
        }
        (Some(expected), None) => {
            let _ = write!(
                page,
                "<div class=\"sbs\"><div><h4>expected</h4><pre class=\"expected\">{}</pre></div><div><h4>actual</h4><pre class=\"actual meta\">(no output)</pre></div></div>",
                render_plain_json(expected)
            );
        }
        _ => {}
    }
}

pub(super) fn case_line_diff(page: &mut String, case: &CaseReport) {
    if case.diff.is_empty() {
        return;
    }
    let _ = write!(
        page,
        "<details class=\"more\"><summary>line diff of the canonical texts (− expected, + actual)</summary>{}</details>",
        render_diff(&case.diff)
    );
}

fn case_input(page: &mut String, case: &CaseReport) {
    let Some(input) = &case.input else { return };
    let _ = write!(
        page,
        "<details class=\"more\"><summary>input</summary><pre class=\"input\">{}</pre></details>",
        render_plain_json(input)
    );
}

/// What the report's bounds left out of this case.
fn case_cut_notes(page: &mut String, case: &CaseReport) {
    for note in case.diff_note.iter().chain(&case.cut) {
        let _ = write!(page, "<p class=\"meta cut-note\">cut: {}</p>", escape(note));
    }
}

fn case_stderr(page: &mut String, case: &CaseReport) {
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        let _ = write!(page, "<h3>stderr</h3><pre class=\"stderr\">{}</pre>", escape(stderr));
    }
}
