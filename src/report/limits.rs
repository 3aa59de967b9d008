//! Bounds on what a report keeps per case and per run, so one huge reply
//! cannot make the harness or its report files huge: a line diff within
//! [`DIFF_BUDGET`], and the values kept for failing cases (input, expected,
//! actual, and the values of their differences) within a byte cap per case
//! and per run. The caps are recorded in the report, and every value left
//! out is named in the case's `cut` notes.

use super::model::{CaseReport, RunReport};
use crate::compare::{DIFF_BUDGET, DiffBudget, bytes};
use crate::json::{Style, write_value_prefix};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The limits a run applied to its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtifactLimits {
    /// The line-diff budget per case.
    pub diff: DiffBudget,
    /// Compact JSON bytes of values kept per case.
    pub value_bytes_per_case: usize,
    /// Compact JSON bytes of values kept over the whole run.
    pub value_bytes_per_run: usize,
}

/// The limits of every run: 1 MiB of values per case, 32 MiB per run.
pub const ARTIFACT_LIMITS: ArtifactLimits =
    ArtifactLimits { diff: DIFF_BUDGET, value_bytes_per_case: 1 << 20, value_bytes_per_run: 32 << 20 };

/// The compact size of `value`, or `None` when it is over `max` bytes
/// (found without writing more than about `max` bytes).
fn size_within(value: &Value, max: usize) -> Option<usize> {
    let (text, complete) = write_value_prefix(value, Style::CANONICAL_COMPACT, max);
    (complete && text.len() <= max).then_some(text.len())
}

/// Drops the values of `case` that do not fit in `budget` bytes (at most the
/// per-case cap), in order of use: the differences' values, then expected,
/// actual and input. Returns the bytes kept; each value left out gets a note.
pub fn cap_case_values(case: &mut CaseReport, budget: usize, limits: &ArtifactLimits) -> usize {
    let per_case = budget.min(limits.value_bytes_per_case);
    let mut left = per_case;
    // Whether the value in `slot` fits in what is left (it is dropped if not).
    let mut keep = |slot: &mut Option<Value>| -> bool {
        let Some(value) = slot else { return true };
        match size_within(value, left) {
            Some(size) => {
                left -= size;
                true
            }
            None => {
                *slot = None;
                false
            }
        }
    };
    let mut dropped_in_differences = 0;
    for difference in &mut case.differences {
        dropped_in_differences += usize::from(!keep(&mut difference.expected));
        dropped_in_differences += usize::from(!keep(&mut difference.actual));
    }
    let mut dropped: Vec<String> = Vec::new();
    if dropped_in_differences > 0 {
        dropped.push(format!("{dropped_in_differences} values of differences"));
    }
    for (slot, name) in [(&mut case.expected, "expected"), (&mut case.actual, "actual"), (&mut case.input, "input")] {
        if !keep(slot) {
            dropped.push(name.to_owned());
        }
    }
    let cap = if per_case < limits.value_bytes_per_case { "the run's" } else { "the per-case" };
    for name in dropped {
        case.cut.push(format!(
            "{name} left out: over {cap} cap on kept values ({} per case, {} per run)",
            bytes(limits.value_bytes_per_case),
            bytes(limits.value_bytes_per_run)
        ));
    }
    per_case - left
}

/// Applies the per-run cap: cases in report order keep their values while
/// the run's budget lasts.
pub fn cap_run_values(report: &mut RunReport, limits: &ArtifactLimits) {
    let mut left = limits.value_bytes_per_run;
    for case in &mut report.cases {
        left -= cap_case_values(case, left, limits).min(left);
    }
    report.limits = Some(*limits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Verdict;
    use serde_json::json;

    fn case_with(size: usize) -> CaseReport {
        let big = Value::String("x".repeat(size));
        CaseReport {
            input: Some(json!({"lines": ["a"]})),
            expected: Some(json!({"blocks": []})),
            actual: Some(json!({"blocks": [big]})),
            ..CaseReport::new("chat/a".into(), "chat", "a".into(), "a.json".into(), Verdict::Fail)
        }
    }

    #[test]
    fn a_value_over_the_per_case_cap_is_left_out_with_a_note() {
        let mut case = case_with(2 << 20);
        let kept = cap_case_values(&mut case, usize::MAX, &ARTIFACT_LIMITS);
        assert!(case.actual.is_none() && case.expected.is_some() && case.input.is_some());
        assert!(kept < 100, "{kept}");
        assert_eq!(
            case.cut,
            ["actual left out: over the per-case cap on kept values (1 MiB per case, 32 MiB per run)"]
        );
    }

    #[test]
    fn the_run_cap_keeps_values_in_report_order_while_it_lasts() {
        let limits = ArtifactLimits { value_bytes_per_run: 3 << 20, ..ARTIFACT_LIMITS };
        let mut report = crate::report::sample::run();
        report.cases = (0..5).map(|_| case_with(900 << 10)).collect();
        cap_run_values(&mut report, &limits);
        let kept: Vec<bool> = report.cases.iter().map(|c| c.actual.is_some()).collect();
        assert_eq!(kept, [true, true, true, false, false]);
        assert!(report.cases[3].cut[0].contains("over the run's cap"), "{:?}", report.cases[3].cut);
        assert_eq!(report.limits, Some(limits));
    }
}
