//! JUnit XML: one `<testsuite>` per suite, one `<testcase>` per fixture,
//! valid against the JUnit schema CI systems document (Jenkins'
//! `junit-10.xsd`): no `skipped` or `timestamp` on `<testsuites>`, times
//! with at most three decimals.
//!
//! A fixture whose input is outside its suite's wire schema has
//! `[robustness]` at the start of its failure or skip message (the schema
//! allows no properties on a testcase).
//!
//! Failures carry the first difference as their message and the pointer list
//! plus the line diff as their body; the adapter's stderr goes to
//! `<system-err>`. Characters XML 1.0 cannot hold are written as visible
//! `\uXXXX` escapes instead of being dropped.
//!
//! The fixture path is in each failure's body. junit-10.xsd allows no `file`
//! attribute on `<testcase>`; annotation tools that read one get it with
//! [`JunitOptions::testcase_file`] (the document is then no longer valid
//! against that schema).

use super::model::{CaseReport, RunReport, Verdict};
use super::rules::rules_line;
use crate::compare::render_plain;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::io;
use std::time::Duration;

/// Choices of the JUnit writer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JunitOptions {
    /// Adds `file="<fixture path>"` to each `<testcase>`, as pytest's
    /// `xunit1` family does, for annotation tools that point at the file.
    pub testcase_file: bool,
}

/// Writes the report as JUnit XML valid against junit-10.xsd.
pub fn write_junit(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    write_junit_with(report, out, JunitOptions::default())
}

/// Writes the report as JUnit XML with `options`.
pub fn write_junit_with(report: &RunReport, out: &mut dyn io::Write, options: JunitOptions) -> io::Result<()> {
    let mut junit = Report::new("conform");
    junit.set_time(Duration::from_secs_f64(report.duration_ms.max(0.0) / 1000.0));
    for suite in &report.suites {
        let mut test_suite = TestSuite::new(xml_safe(&suite.suite));
        if let Ok(timestamp) = chrono::DateTime::parse_from_rfc3339(&report.started_at) {
            test_suite.set_timestamp(timestamp);
        }
        for case in report.cases.iter().filter(|c| c.suite == suite.suite) {
            let mut test_case = test_case(case);
            if options.testcase_file {
                test_case.extra.insert("file".into(), xml_safe(&case.path).into());
            }
            test_suite.add_test_case(test_case);
        }
        junit.add_test_suite(test_suite);
    }
    let mut xml = Vec::new();
    junit.serialize(&mut xml).map_err(io::Error::other)?;
    out.write_all(&without_root_skipped(xml))
}

/// The document without the `skipped` count quick-junit always writes on
/// `<testsuites>`, which junit-10.xsd does not allow there (each
/// `<testsuite>` keeps its own).
fn without_root_skipped(xml: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(xml.clone()) else { return xml };
    let Some(start) = text.find("<testsuites") else { return xml };
    let Some(length) = text[start..].find('>') else { return xml };
    let tag = &text[start..start + length];
    let Some(at) = tag.find(" skipped=\"") else { return xml };
    let Some(close) = tag[at + 10..].find('"') else { return xml };
    let (from, to) = (start + at, start + at + 10 + close + 1);
    format!("{}{}", &text[..from], &text[to..]).into_bytes()
}

fn test_case(case: &CaseReport) -> TestCase {
    let status = match case.verdict {
        Verdict::Pass => TestCaseStatus::success(),
        Verdict::Skipped | Verdict::Unsupported | Verdict::Xfail => {
            let mut status = TestCaseStatus::skipped();
            status.set_type(case.verdict.as_str());
            if let Some(message) = &case.message {
                let contract =
                    if case.contract.is_robustness() { format!("[{}] ", case.contract) } else { String::new() };
                status.set_message(xml_safe(&format!("{contract}{}: {message}", case.verdict)));
            }
            status
        }
        Verdict::Fail | Verdict::Xpass => non_success(NonSuccessKind::Failure, case),
        _ => non_success(NonSuccessKind::Error, case),
    };
    let mut test_case = TestCase::new(xml_safe(&case.name), status);
    test_case.set_classname(xml_safe(&case.suite));
    test_case.set_time(Duration::from_secs_f64(case.duration_ms.max(0.0) / 1000.0));
    if let Some(stderr) = &case.stderr {
        test_case.set_system_err(xml_safe(stderr));
    }
    test_case
}

fn non_success(kind: NonSuccessKind, case: &CaseReport) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(kind);
    status.set_type(case.verdict.as_str());
    let mut message = case.message.clone().unwrap_or_else(|| case.verdict.to_string());
    // junit-10.xsd allows no properties on a testcase: the label leads the
    // message of a fixture whose input no hub sends.
    if case.contract.is_robustness() {
        message = format!("[{}] {message}", case.contract);
    }
    // The failure message names the rules behind the first difference.
    if let Some(rules) = case.differences.first().and_then(|first| rules_line(&case.suite, &first.rules)) {
        message = format!("{message} [{rules}]");
    }
    status.set_message(xml_safe(&message));
    let mut body = String::new();
    body.push_str(&format!("{} ({})\n", case.id, case.path));
    if case.contract.is_robustness() {
        body.push_str("robustness: the input is outside the suite's wire schema (no real hub sends it)\n");
    }
    for problem in &case.problems {
        body.push_str(&format!("{problem}\n"));
    }
    for difference in &case.differences {
        body.push_str(&format!("{}\n", difference.message));
        if let Some(rules) = rules_line(&case.suite, &difference.rules) {
            body.push_str(&format!("  {rules}\n"));
        }
    }
    if case.omitted_differences > 0 {
        body.push_str(&format!("… and {} more differences\n", case.omitted_differences));
    }
    if !case.diff.is_empty() {
        body.push('\n');
        body.push_str(&render_plain(&case.diff));
    }
    for note in case.diff_note.iter().chain(&case.cut) {
        body.push_str(&format!("(cut: {note})\n"));
    }
    status.set_description(xml_safe(&body));
    status
}

/// Replaces characters XML 1.0 forbids (C0 controls other than tab, LF and
/// CR; U+FFFE; U+FFFF) with a visible `\uXXXX` escape.
pub(crate) fn xml_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_become_visible_escapes() {
        assert_eq!(xml_safe("a\u{1}b\u{1b}[31m\tc\u{ffff}"), "a\\u0001b\\u001b[31m\tc\\uffff");
    }
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_junit(&sample::run(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }
}
