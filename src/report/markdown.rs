//! Markdown for CI step summaries and pull-request comments: a summary table
//! per suite and each non-passing case in a collapsible block.

use super::budget::{Entry, MarkdownBudget, fit};
use super::cluster::headline;
use super::model::{CaseReport, RunReport, Tally, Verdict};
use super::rules::{broken_rules, shown_rules};
use super::signature::Signature;
use crate::compare::render_plain;
use std::io;

/// Longest stderr excerpt shown per case.
const MAX_STDERR_CHARS: usize = 4000;

/// Clusters listed in the table; the rest are counted.
const MAX_CLUSTERS: usize = 20;

/// Rules listed under "Rules broken" (each row carries the rule's sentence).
const MAX_RULES: usize = 10;

/// Example case ids listed per cluster.
const MAX_CLUSTER_EXAMPLES: usize = 5;

/// ` — rules: [`a`](link), …` for a difference with rules, else nothing.
pub(crate) fn rule_links(suite: &str, rules: &[String]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let (shown, more) = shown_rules(suite, rules);
    let links: Vec<String> = shown
        .iter()
        .map(|(rule, link)| if link.is_empty() { code_span(rule) } else { format!("[{}]({link})", code_span(rule)) })
        .collect();
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(" — rules: {}{more}", links.join(", "))
}

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
        "Implementation: {} {} ({}) · harness conform {} · {}\n\n",
        code_span(&report.implementation.name),
        code_span(&report.implementation.version),
        code_span(&report.implementation.language),
        escape_inline(&report.harness.version),
        escape_inline(&report.started_at)
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

    md.push_str(&rules_section(report));
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
        "<details><summary><code>{}</code> · <b>{}</b>{} · {}</summary>\n\n",
        escape_inline(&case.id),
        case.verdict,
        contract_badge(case),
        escape_inline(&first_line(headline))
    ));
    md.push_str(&format!("File: {}\n\n", code_span(&case.path)));
    for problem in &case.problems {
        md.push_str(&format!("- {}\n", escape_inline(problem)));
    }
    for difference in &case.differences {
        md.push_str(&format!(
            "- {}{}\n",
            escape_inline(&difference.message),
            rule_links(&case.suite, &difference.rules)
        ));
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
        "- <code>{}</code> · <b>{}</b>{} · {}\n",
        escape_inline(&case.id),
        case.verdict,
        contract_badge(case),
        escape_inline(&first_line(case.message.as_deref().unwrap_or("")))
    )
}

/// ` · <i>robustness</i>` for a fixture whose input is outside its suite's
/// wire schema; nothing for an in-contract one.
fn contract_badge(case: &CaseReport) -> String {
    if case.contract.is_robustness() { format!(" · <i>{}</i>", case.contract) } else { String::new() }
}

/// `### 31 failures, 2 causes` and a table of the causes.
/// The contract rules the failures break, each with its count, smallest
/// example and sentence (the report leads with them).
fn rules_section(report: &RunReport) -> String {
    let broken = broken_rules(report);
    if broken.is_empty() {
        return String::new();
    }
    let mut md =
        String::from("### Rules broken\n\n| cases | rule | smallest example | the rule |\n|---:|---|---|---|\n");
    for rule in broken.iter().take(MAX_RULES) {
        let name = if rule.link.is_empty() {
            code_span(&rule.rule)
        } else {
            format!("[{}]({})", code_span(&rule.rule), rule.link)
        };
        md.push_str(&format!(
            "| {} | {name} | <code>{}</code> | {} |\n",
            rule.cases,
            escape_inline(&rule.smallest),
            escape_cell(&rule.sentence)
        ));
    }
    if broken.len() > MAX_RULES {
        md.push_str(&format!("\n… and {} more rules broken\n", broken.len() - MAX_RULES));
    }
    md.push('\n');
    md
}

fn clusters_section(report: &RunReport) -> String {
    let Some(headline) = headline(&report.cases, &report.clusters) else { return String::new() };
    // The rules broken are listed above with their examples: the table
    // holds the other causes.
    let listed_rules = broken_rules(report).len().min(MAX_RULES);
    let mut rules_seen = 0;
    let others: Vec<_> = report
        .clusters
        .iter()
        .filter(|cluster| {
            let is_rule = matches!(cluster.signature, Signature::Rule { .. });
            rules_seen += usize::from(is_rule);
            !is_rule || rules_seen > listed_rules
        })
        .collect();
    if others.is_empty() {
        return format!("### {headline}\n\nEach cause is a rule broken, listed above.\n\n");
    }
    let mut md = format!("### {headline}\n\n| cases | cause | examples |\n|---:|---|---|\n");
    for cluster in others.iter().take(MAX_CLUSTERS) {
        let examples = cluster.examples(MAX_CLUSTER_EXAMPLES, |id| format!("<code>{}</code>", escape_inline(id)));
        let known = cluster.known_note().map(|note| format!(" {note}")).unwrap_or_default();
        md.push_str(&format!("| {}{known} | {} | {examples} |\n", cluster.cases.len(), escape_cell(&cluster.label)));
    }
    if others.len() > MAX_CLUSTERS {
        md.push_str(&format!("\n… and {} more causes\n", others.len() - MAX_CLUSTERS));
    }
    md.push('\n');
    md
}

/// The baseline's effect and every entry that fails the run.
fn baseline_section(report: &RunReport) -> String {
    let Some(baseline) = &report.baseline else { return String::new() };
    let mut md = format!(
        "### Baseline <code>{}</code>\n\n{} entries · {} xfail · {} xpass\n\n",
        escape_inline(&baseline.path),
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
                escape_inline(id),
                escape_inline(&entry.id)
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
/// Control characters other than newlines and tabs are shown as control
/// pictures (an escape byte would reach a terminal that prints the comment).
pub(crate) fn fenced(language: &str, text: &str) -> String {
    let mut visible = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => visible.push(c),
            c => push_visible(&mut visible, c),
        }
    }
    let text = visible.as_str();
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

/// Untrusted text (from fixtures, file names, implementations) made inert
/// anywhere in a Markdown report, in running text, table cells and the HTML
/// the report embeds (`<summary>`, `<code>`): HTML-escaped; Markdown's
/// punctuation written as numeric entities (no emphasis, link, image, code
/// span or table cell can start); `@` followed by a zero-width joiner (no
/// mention pings anyone); `://` and `www.` broken by a zero-width space (no
/// bare URL becomes a link); newlines and control characters shown as
/// Unicode control pictures (nothing breaks out of its line or block).
pub(crate) fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut previous = '\0';
    for c in text.chars() {
        if let Some(entity) = super::escape::html_entity(c) {
            out.push_str(entity);
            previous = c;
            continue;
        }
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '|' | '#' | '~' | '{' | '}' | '$' | '^' => {
                out.push_str(&format!("&#{};", c as u32))
            }
            '@' => out.push_str("@\u{200d}"),
            '/' if previous == ':' => out.push_str("\u{200b}/"),
            '.' if out.ends_with("www") || out.ends_with("WWW") => out.push_str("\u{200b}."),
            c => push_visible(&mut out, c),
        }
        previous = c;
    }
    out
}

/// `text` as a Markdown code span (literal: no HTML, links or mentions),
/// one line, fenced by more backticks than any run inside.
pub(crate) fn code_span(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        push_visible(&mut line, c);
    }
    let longest = line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {line} {fence}")
}

/// Pushes `c`, or its Unicode control picture (`␤` for a newline) when it
/// is a control character.
fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push('\u{2424}'),
        '\u{7f}' => out.push('\u{2421}'),
        c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
        c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => out.push('\u{fffd}'),
        c => out.push(c),
    }
}

fn escape_cell(text: &str) -> String {
    escape_inline(text)
}

#[cfg(test)]
pub(crate) mod golden {
    use super::*;
    use crate::report::MarkdownBudget;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_markdown(&sample::run(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    /// `--rules-base`: the same report with every rule link absolute, for
    /// reading away from the repository.
    #[test]
    fn the_sample_run_under_a_rules_base() {
        let text = crate::suites::with_rules_base("https://example.invalid/repo/blob/main/", || {
            sample::render(|out| write_markdown(&sample::run(), out))
        });
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }

    /// 500 failures with ordinary diffs: about 300 KB in full.
    fn many_failures() -> RunReport {
        let mut report = sample::run();
        let input = serde_json::json!({"messages": []});
        for i in 0..500 {
            let expected = sample::tool_output("error");
            let actual = sample::tool_output("completed");
            let case = sample::failing("chat", &format!("many-{i:03}"), input.clone(), expected, actual);
            report.cases.push(sample::with_rules(case, &["reduce.tool.result-error"]));
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

    /// Every payload an attacker controls, planted in every string of a run
    /// that reaches the Markdown: the hello's name, version and language,
    /// fixture ids and paths (with newlines), messages and difference values.
    pub(crate) fn hostile_run() -> RunReport {
        const PAYLOADS: &str = "<script>alert(1)</script> <img src=x onerror=alert(2)> [click](https://evil.test/a) \
             ![pixel](https://evil.test/p.png) @octocat https://evil.test/bare www.evil.test <b>bold</b> \
             `tick` *em* | cell \u{1b}[31mred\u{1b}[0m";
        let mut report = sample::run();
        report.implementation.name = format!("impl {PAYLOADS}");
        report.implementation.version = "1.0\n\n## injected heading\n\n@octocat".to_owned();
        report.implementation.language = "<img src=y onerror=alert(3)>".to_owned();
        for case in &mut report.cases {
            case.id = format!("{}\n\n</summary></details>\n\n{PAYLOADS}", case.id);
            case.path = format!("{}\n`{PAYLOADS}`", case.path);
            case.message = Some(format!("{PAYLOADS}\nsecond line {PAYLOADS}"));
            for difference in &mut case.differences {
                difference.message = format!("{}: {PAYLOADS}", difference.message);
            }
            case.problems.push(PAYLOADS.to_owned());
        }
        report.notices.push(crate::fixture::Notice::warning(PAYLOADS));
        report.recount();
        report
    }

    /// The Markdown rendered as GitHub-flavoured HTML by `marked` (npm, in
    /// tests/markdown-render), or `None` with a visible skip (a failure under
    /// CONFORM_REQUIRE_ALL=1) when node or the package is missing.
    pub(crate) fn render_gfm(markdown: &str) -> Option<String> {
        use std::io::Write as _;
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/markdown-render");
        let missing = if !folder.join("node_modules/marked").is_dir() {
            Some("npm package `marked` not installed (npm ci --prefix tests/markdown-render)")
        } else if std::process::Command::new("node").arg("--version").output().is_err() {
            Some("`node` not installed")
        } else {
            None
        };
        if let Some(missing) = missing {
            assert!(
                std::env::var_os("CONFORM_REQUIRE_ALL").is_none_or(|v| v != "1"),
                "{missing}, and CONFORM_REQUIRE_ALL=1 requires it"
            );
            let _ = writeln!(std::io::stderr(), "note: {missing}: the GFM rendering check is skipped");
            return None;
        }
        let mut child = std::process::Command::new("node")
            .arg(folder.join("render.mjs"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("node starts");
        child.stdin.take().expect("stdin").write_all(markdown.as_bytes()).expect("node reads");
        let output = child.wait_with_output().expect("node runs");
        assert!(output.status.success());
        Some(String::from_utf8(output.stdout).expect("HTML is UTF-8"))
    }

    /// Asserts that rendered HTML holds no live tag, link, image or mention
    /// from the payloads, and that nothing broke out of its block.
    pub(crate) fn assert_inert(html: &str, details: usize) {
        // The report's own links (each rule broken, to its sentence in the
        // suite's README) are meant; every other link is a payload's.
        // The report's own links start with the configured rules base.
        let base = regex::escape(&crate::suites::rules_base().replace('&', "&amp;"));
        let own_links =
            regex::Regex::new(&format!(r#"<a href="{base}src/suites/[a-z_]+/README\.md#rule-[a-z0-9.-]+">"#)).unwrap();
        let html = &*own_links.replace_all(html, "");
        for live in ["<script", "<img", "<a ", "<b>bold", "<em>", ">injected heading", "\u{1b}"] {
            assert!(!html.contains(live), "{live} is live in:\n{html}");
        }
        assert_eq!(html.matches("<details>").count(), details, "{html}");
        assert_eq!(html.matches("</summary>").count(), details, "{html}");
        // Code elements are literal (GitHub pings no one there); elsewhere every @ is defused.
        let outside_code = regex::Regex::new(r"(?s)<code[^>]*>.*?</code>").unwrap().replace_all(html, "");
        let live_mentions =
            outside_code.match_indices('@').filter(|(at, _)| !outside_code[at + 1..].starts_with('\u{200d}'));
        assert_eq!(live_mentions.count(), 0, "{outside_code}");
    }

    #[test]
    fn planted_payloads_render_inert_on_github() {
        let report = hostile_run();
        let md = sample::render(|out| write_markdown(&report, out));
        let failing =
            report.cases.iter().filter(|c| !matches!(c.verdict.tally(), Tally::Passed | Tally::Skipped)).count();
        assert!(!md.contains('\u{1b}'), "escape bytes are made visible: {md}");
        let Some(html) = render_gfm(&md) else { return };
        assert_inert(&html, failing);
    }

    /// The rule links of a report written with a rules base are the only
    /// links live in it: absolute, as a pull request comment needs them.
    #[test]
    fn rule_links_under_a_rules_base_are_the_only_live_links() {
        let report = hostile_run();
        let base = "https://example.invalid/repo/blob/main/";
        let md = crate::suites::with_rules_base(base, || sample::render(|out| write_markdown(&report, out)));
        let failing =
            report.cases.iter().filter(|c| !matches!(c.verdict.tally(), Tally::Passed | Tally::Skipped)).count();
        let Some(html) = render_gfm(&md) else { return };
        assert!(html.contains(&format!("<a href=\"{base}src/suites/")), "{html}");
        crate::suites::with_rules_base(base, || assert_inert(&html, failing));
    }
}
