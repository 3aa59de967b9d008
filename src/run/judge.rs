//! Judging one case: run it through the implementation when the fixture is
//! ready, compare the output, and give the case its verdict and evidence.

use crate::compare::{compare, render_plain};
use crate::fixture::{FixtureStatus, LoadedFixture};
use crate::implementation::{CaseRequest, Implementation, Outcome};
use crate::redact::printed::scrub_printed;
use crate::report::limits::{ARTIFACT_LIMITS, cap_case_values};
use crate::report::rules::name_rules;
use crate::report::{CaseReport, DifferenceReport, Verdict};
use serde_json::Value;
use std::time::Instant;

/// Judges one fixture: runs it (when it can run) and assigns the verdict.
pub fn judge(fixture: &LoadedFixture, implementation: &dyn Implementation) -> CaseReport {
    let mut report = CaseReport {
        fixture_version: fixture.version,
        ..CaseReport::new(
            fixture.id.clone(),
            fixture.suite.name(),
            fixture.name.clone(),
            fixture.path.display().to_string(),
            Verdict::Pass,
        )
    };
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => {
            report.verdict = Verdict::Invalid;
            report.problems = problems.iter().map(ToString::to_string).collect();
            report.message = report.problems.first().cloned();
            return report;
        }
        FixtureStatus::UnsupportedVersion { found, readable } => {
            report.verdict = Verdict::UnsupportedVersion;
            let relation = if readable.iter().all(|version| version < found) { "newer than" } else { "not among" };
            let readable: Vec<String> = readable.iter().map(u32::to_string).collect();
            report.message = Some(format!(
                "fixtureVersion {found} is {relation} the versions this harness judges for {} ({}); upgrade conform",
                fixture.suite.name(),
                readable.join(", ")
            ));
            return report;
        }
    };
    // A fixture may pin what a decoder makes of input no hub sends: say so.
    report.contract = crate::schema::input_contract(fixture.suite, fixture.version.unwrap_or(1), &parts.input);
    let request = CaseRequest {
        suite: fixture.suite.name(),
        fixture: &fixture.name,
        fixture_version: fixture.version.unwrap_or(1),
        input: &parts.input,
    };
    let clock = Instant::now();
    let run = implementation.run_case(&request);
    report.duration_ms = clock.elapsed().as_secs_f64() * 1000.0;
    // What the implementation printed enters the report scrubbed.
    report.stderr = run.stderr.map(scrub_printed);
    let (verdict, message) = match output_or_verdict(run.outcome) {
        Ok(actual) => match compare(fixture.suite, &parts.input, &parts.expected, &actual) {
            None => (Verdict::Pass, None),
            Some(mismatch) => {
                report.differences = mismatch.differences.iter().map(DifferenceReport::from).collect();
                name_rules(
                    fixture.suite,
                    request.fixture_version,
                    &parts.input,
                    &parts.expected,
                    &mut report.differences,
                );
                report.omitted_differences = mismatch.omitted;
                report.diff = mismatch.diff;
                report.diff_note = mismatch.diff_note;
                report.actual = Some(actual);
                let first = report.differences.first().map(|d| d.message.clone());
                (Verdict::Fail, first.or_else(|| Some(render_plain(&report.diff))))
            }
        },
        Err((verdict, message)) => (verdict, Some(message)),
    };
    report.verdict = verdict;
    report.message = message;
    if verdict != Verdict::Pass {
        report.input = Some(parts.input.clone());
        report.expected = Some(parts.expected.clone());
        cap_case_values(&mut report, usize::MAX, &ARTIFACT_LIMITS);
    }
    report
}

/// The output of an outcome, or the verdict an outcome without one earns,
/// with its message (what the implementation said, scrubbed of secrets).
pub(super) fn output_or_verdict(outcome: Outcome) -> Result<Value, (Verdict, String)> {
    output_or_verdict_as_said(outcome).map_err(|(verdict, message)| (verdict, scrub_printed(message)))
}

fn output_or_verdict_as_said(outcome: Outcome) -> Result<Value, (Verdict, String)> {
    match outcome {
        Outcome::Output(output) => Ok(output),
        // Every other outcome has a verdict of its own (`Verdict::of`).
        said => Err((Verdict::of(&said).unwrap_or(Verdict::Error), said.into_message().unwrap_or_default())),
    }
}
