//! Comparing an implementation's output with a fixture's expected part.
//!
//! Equality is canonical equality: the two values would serialize to the same
//! canonical JSON (numbers compare by value, object key order is irrelevant).
//! A mismatch is described twice: as a list of [`Difference`]s by JSON pointer
//! (array changes aligned so a shifted list reads as one insertion, not a
//! hundred changes) and as a line diff of the canonical texts.

mod structural;
mod text;

pub use structural::{Difference, DifferenceKind, MAX_DIFFERENCES, differences, values_equal};
pub use text::{
    BoundedDiff, CompactHunk, CompactLine, DIFF_BUDGET, DIFF_CONTEXT, DiffBudget, DiffHunk, DiffLine, DiffTag,
    EXPECTED_ACTUAL, bounded_text_diff, bytes, format_line, hunk_header, render_labeled, render_plain, text_diff,
};

use crate::suite_api::Suite;
use serde_json::Value;

/// Everything known about how an output differs from its expectation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mismatch {
    /// Differences by pointer, at most [`MAX_DIFFERENCES`].
    pub differences: Vec<Difference>,
    /// How many differences were found beyond those listed.
    pub omitted: usize,
    /// Line diff of the canonical texts, within [`DIFF_BUDGET`].
    pub diff: Vec<DiffHunk>,
    /// What the diff budget cut, if anything.
    pub diff_note: Option<String>,
}

/// Compares `actual` with `expected`; `None` means they are canonically equal.
/// The suite may label pointers (e.g. `ops[4] fetch-older`) using the case input.
pub fn compare(suite: &dyn Suite, input: &Value, expected: &Value, actual: &Value) -> Option<Mismatch> {
    if values_equal(expected, actual) {
        return None;
    }
    let (mut differences, omitted) = differences(expected, actual);
    for difference in &mut differences {
        if let Some(context) = suite.pointer_context(input, &difference.pointer) {
            difference.context = Some(context);
        }
    }
    // Only what the diff budget can use is written: a huge output costs its
    // budget, not its size.
    let canonical = |value: &Value| {
        let (mut text, complete) =
            crate::json::write_value_prefix(value, crate::json::Style::CANONICAL, DIFF_BUDGET.input_bytes);
        if complete {
            text.push('\n');
        }
        (text, complete)
    };
    let (expected_text, actual_text) = (canonical(expected), canonical(actual));
    let bounded = bounded_text_diff(
        (&expected_text.0, expected_text.1),
        (&actual_text.0, actual_text.1),
        DIFF_CONTEXT,
        DIFF_BUDGET,
    );
    Some(Mismatch { differences, omitted, diff: bounded.hunks, diff_note: bounded.note })
}
