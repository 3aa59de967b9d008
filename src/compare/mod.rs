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
    DIFF_CONTEXT, DiffHunk, DiffLine, DiffTag, EXPECTED_ACTUAL, format_line, hunk_header, render_labeled, render_plain,
    text_diff,
};

use crate::suite::Suite;
use serde_json::Value;

/// Everything known about how an output differs from its expectation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mismatch {
    /// Differences by pointer, at most [`MAX_DIFFERENCES`].
    pub differences: Vec<Difference>,
    /// How many differences were found beyond those listed.
    pub omitted: usize,
    /// Line diff of the canonical texts.
    pub diff: Vec<DiffHunk>,
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
    let diff =
        text_diff(&crate::json::to_canonical_string(expected), &crate::json::to_canonical_string(actual), DIFF_CONTEXT);
    Some(Mismatch { differences, omitted, diff })
}
