//! The report `conform check-adapter` prints: a header naming what is
//! checked, one line per observation with its details, and the summary line.

use super::{CheckReport, Level};
use crate::implementation::subprocess::options::describe_duration;
use crate::report::{Palette, visible_controls};
use std::io::{self, Write};
use std::time::Duration;

/// The first line: the command (its controls shown, not obeyed), the mode,
/// how many smoke cases were selected and the per-case timeout.
pub fn header_line(command: &str, one_shot: bool, cases: usize, timeout: Duration) -> String {
    let mode = if one_shot { "one-shot mode" } else { "protocol v1" };
    format!(
        "conform check-adapter: {} ({mode}, {cases} smoke cases selected, --timeout {})",
        visible_controls(command),
        describe_duration(timeout)
    )
}

/// Writes every observation (level, headline, details) and the summary line.
/// Observations quote the implementation, so their controls are shown, not obeyed.
pub fn write_text(report: &CheckReport, out: &mut dyn Write, p: Palette) -> io::Result<()> {
    for observation in &report.observations {
        let label = match observation.level {
            Level::Ok => p.good("ok     "),
            Level::Note => p.dim("note   "),
            Level::Warning => p.warn("warning"),
            Level::Problem => p.bad("PROBLEM"),
        };
        writeln!(out, "  {label}  {}", visible_controls(&observation.headline))?;
        for detail in &observation.details {
            writeln!(out, "           {}", p.dim(&visible_controls(detail)))?;
        }
    }
    writeln!(out)?;
    let summary = report.summary();
    writeln!(out, "{}", if report.problems() == 0 { p.good(&summary) } else { p.bad(&summary) })?;
    out.flush()
}

#[cfg(test)]
mod golden {
    use super::*;

    /// A check that found one of each level, a detail holding a control
    /// character the adapter printed, and smoke cases of every outcome (the
    /// failed one naming the rule its first difference breaks).
    fn sample() -> CheckReport {
        let mut report = CheckReport {
            selected: 6,
            sent: 5,
            passed: 2,
            failed: 0,
            errors: 1,
            skipped: 1,
            messages: 9,
            ..CheckReport::default()
        };
        report.add(Level::Ok, "hello: protocol 1, implementation `my-decoder` 0.3.0, suites chat, sse", Vec::new());
        report.add(
            Level::Note,
            "suite `pagination` is not declared in the hello: its smoke case was not sent",
            Vec::new(),
        );
        report.add(
            Level::Warning,
            "the hello took 2.4 s: each restart costs that much",
            vec!["start the decoder before reading stdin, or keep the process warm".to_owned()],
        );
        report.add(
            Level::Problem,
            "reply to case chat/tool-error-state is not JSON: `\u{1b}[31mok` (line 1, column 1)",
            vec![
                "each reply is one JSON object on one line of stdout".to_owned(),
                "stderr: Traceback (most recent call last):\u{7}".to_owned(),
            ],
        );
        let chat = crate::suites::find("chat").expect("chat is a suite");
        let input = serde_json::json!({"messages": [
            {"id": "u1", "localId": null, "createdAt": 1, "content": {"role": "user", "content": "hi"}}
        ], "agentState": null});
        let reference = chat.reference_for(1).expect("chat implements version 1");
        let expected = crate::suite_api::call_reference(reference, &input, &mut crate::suite_api::NoTrace)
            .expect("the reference decodes the input");
        let mut output = expected.clone();
        output["blocks"][0]["text"] = serde_json::json!("hello");
        let case = super::super::CheckCase {
            suite: chat,
            fixture: "user-text",
            fixture_version: 1,
            input: &input,
            expected: &expected,
        };
        report.judge_output(&case, &output);
        report
    }

    fn rendered(report: &CheckReport) -> String {
        let mut out = Vec::new();
        writeln!(out, "{}", header_line("python3 my_adapter.py\u{1b}[2J", false, 6, Duration::from_secs(10)))
            .expect("writing to memory succeeds");
        write_text(report, &mut out, Palette::plain()).expect("writing to memory succeeds");
        String::from_utf8(out).expect("the report is UTF-8")
    }

    #[test]
    fn the_sample_check_as_text() {
        insta::assert_snapshot!(rendered(&sample()));
    }

    #[test]
    fn a_clean_check_says_so_in_its_summary() {
        let mut report = CheckReport { selected: 1, sent: 1, passed: 1, messages: 3, ..CheckReport::default() };
        report.add(Level::Ok, "bye: exited 0", Vec::new());
        insta::assert_snapshot!(rendered(&report));
    }
}
