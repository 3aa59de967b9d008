//! Bounds on what a report keeps per case and per run, so one huge or deep
//! reply cannot make the harness or its report files huge, and every report
//! conform writes it can read back:
//!
//! * kept values (input, expected, actual, and the values of differences)
//!   nest at most [`MAX_KEPT_DEPTH`] levels: a deeper sub-value is replaced
//!   by an elision marker (a string starting with [`ELIDED`]) saying how deep
//!   it went and how many values it held;
//! * kept values fit a byte cap per case and per run, counted as the JSON
//!   report writes them (indented), so a value that is small when compact but
//!   deep cannot grow the report quadratically;
//! * each line of text (the message, a problem, a difference's pointer,
//!   pattern and message) is at most [`MAX_TEXT_BYTES`] bytes, and at most
//!   [`MAX_PROBLEMS`] problems are kept;
//! * whatever is left, a case's part of the JSON report is at most
//!   [`MAX_CASE_BYTES`]: beyond it the line diff, then the values, then the
//!   differences are left out.
//!
//! The caps are recorded in the report, and everything left out or elided
//! is named in the case's `cut` notes.

use super::model::{CaseReport, RunReport};
use crate::compare::{DIFF_BUDGET, DiffBudget, bytes};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io;

/// The limits a run applied to its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtifactLimits {
    /// The line-diff budget per case.
    pub diff: DiffBudget,
    /// Bytes of values kept per case, as the JSON report writes them.
    pub value_bytes_per_case: usize,
    /// Bytes of values kept over the whole run, as the JSON report writes them.
    pub value_bytes_per_run: usize,
}

/// The limits of every run: 1 MiB of values per case, 32 MiB per run.
pub const ARTIFACT_LIMITS: ArtifactLimits =
    ArtifactLimits { diff: DIFF_BUDGET, value_bytes_per_case: 1 << 20, value_bytes_per_run: 32 << 20 };

/// Levels of nesting a kept value keeps; deeper sub-values are elided. The
/// suites' documents nest about ten levels; a report read back must stay far
/// below the parser's 10,000.
pub const MAX_KEPT_DEPTH: usize = 64;

/// How every elision marker starts: a kept string starting so stands for a
/// sub-value or a text's tail that conform left out.
pub const ELIDED: &str = "[conform: elided";

/// Bytes of one line of text a case keeps (its message, each problem, each
/// difference's pointer, pattern and message).
pub const MAX_TEXT_BYTES: usize = 8 << 10;

/// Problems a case keeps (an invalid fixture's schema errors, one each).
pub const MAX_PROBLEMS: usize = 100;

/// The most bytes a case takes in the JSON report, whatever its values.
pub const MAX_CASE_BYTES: usize = 4 << 20;

/// Indentation, in bytes, of the deepest place a value stands in the JSON
/// report (`cases[i].differences[j].expected`), added to each of its lines.
const VALUE_INDENT: usize = 12;

/// Room kept for the marker [`clip_text`] appends.
const MARKER_ROOM: usize = 64;

/// A sink that counts what is written into it and refuses to go past a limit.
struct Counter {
    bytes: usize,
    newlines: usize,
    limit: usize,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len();
        self.newlines += buf.iter().filter(|&&b| b == b'\n').count();
        if self.bytes > self.limit {
            return Err(io::Error::other("over the limit"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The bytes `item` takes in the JSON report with each line indented
/// `indent` more bytes, or `None` when over `max` (found without writing
/// more than about `max` bytes).
fn written_size_within<T: Serialize>(item: &T, indent: usize, max: usize) -> Option<usize> {
    let mut counter = Counter { bytes: 0, newlines: 0, limit: max };
    serde_json::to_writer_pretty(&mut counter, item).ok()?;
    let size = counter.bytes.checked_add(counter.newlines.checked_mul(indent)?)?;
    (size <= max).then_some(size)
}

/// Replaces every non-empty array or object of `value` nested deeper than
/// `max_depth` levels by an elision marker; returns how many it replaced.
pub fn elide_deep_values(value: &mut Value, max_depth: usize) -> usize {
    let mut elided = 0;
    let mut stack: Vec<(&mut Value, usize)> = vec![(value, 0)];
    while let Some((value, depth)) = stack.pop() {
        let nonempty = match value {
            Value::Array(items) => !items.is_empty(),
            Value::Object(members) => !members.is_empty(),
            _ => false,
        };
        if !nonempty {
            continue;
        }
        if depth >= max_depth {
            let marker = Value::String(elision_marker(value));
            drop_flat(std::mem::replace(value, marker));
            elided += 1;
            continue;
        }
        match value {
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (item, depth + 1))),
            Value::Object(members) => stack.extend(members.values_mut().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    elided
}

/// The marker that stands for `value`: what it was, how deep it nests and
/// how many values it holds (counted without recursion: it may nest
/// thousands of levels).
fn elision_marker(value: &Value) -> String {
    let (mut levels, mut values) = (0usize, 0usize);
    let mut stack = vec![(value, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        values += 1;
        levels = levels.max(depth);
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|item| (item, depth + 1))),
            Value::Object(members) => stack.extend(members.values().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    let what = if value.is_array() { "an array" } else { "an object" };
    format!("{ELIDED}: {what} {levels} levels deep, {values} values]")
}

/// Drops a value without recursion (a deep value would recurse once per
/// level).
fn drop_flat(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.into_iter().map(|(_, item)| item)),
            _ => {}
        }
    }
}

/// Cuts `text` over `max` bytes so that, with the elision marker appended,
/// it is at most `max` bytes (cut at a character boundary); returns whether
/// it cut. A text cut once is not cut again.
pub fn clip_text(text: &mut String, max: usize) -> bool {
    if text.len() <= max {
        return false;
    }
    let mut end = max.saturating_sub(MARKER_ROOM);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = text.len() - end;
    text.truncate(end);
    text.push_str(&format!("… {ELIDED} {left_out} more bytes]"));
    true
}

/// Bounds the texts of `case` ([`MAX_TEXT_BYTES`], [`MAX_PROBLEMS`]) and the
/// depth of its values ([`MAX_KEPT_DEPTH`]), with a note for each kind of cut.
fn bound_texts_and_depth(case: &mut CaseReport) {
    let mut clipped = 0;
    if let Some(message) = &mut case.message {
        clipped += usize::from(clip_text(message, MAX_TEXT_BYTES));
    }
    if case.problems.len() > MAX_PROBLEMS {
        // The marker takes the last place, so a bounded case stays as it is.
        let more = case.problems.len() - (MAX_PROBLEMS - 1);
        case.problems.truncate(MAX_PROBLEMS - 1);
        case.problems.push(format!("{ELIDED} {more} more problems]"));
    }
    for problem in &mut case.problems {
        clipped += usize::from(clip_text(problem, MAX_TEXT_BYTES));
    }
    let mut elided = 0;
    for difference in &mut case.differences {
        for text in [&mut difference.pointer, &mut difference.pattern, &mut difference.message] {
            clipped += usize::from(clip_text(text, MAX_TEXT_BYTES));
        }
        for value in [&mut difference.expected, &mut difference.actual].into_iter().flatten() {
            elided += elide_deep_values(value, MAX_KEPT_DEPTH);
        }
    }
    for value in [&mut case.input, &mut case.expected, &mut case.actual].into_iter().flatten() {
        elided += elide_deep_values(value, MAX_KEPT_DEPTH);
    }
    if clipped > 0 {
        case.cut.push(format!("{clipped} texts cut to {} each", bytes(MAX_TEXT_BYTES)));
    }
    if elided > 0 {
        case.cut.push(format!(
            "{elided} values nested deeper than {MAX_KEPT_DEPTH} levels elided (each replaced by a `{ELIDED}: …]` string)"
        ));
    }
}

/// Drops the values of `case` that do not fit in `budget` bytes (at most the
/// per-case cap), in order of use: the differences' values, then expected,
/// actual and input. Texts and nesting are bounded first, and the case as a
/// whole within [`MAX_CASE_BYTES`] last. Returns the bytes of values kept;
/// everything left out gets a note.
pub fn cap_case_values(case: &mut CaseReport, budget: usize, limits: &ArtifactLimits) -> usize {
    bound_texts_and_depth(case);
    let per_case = budget.min(limits.value_bytes_per_case);
    let mut left = per_case;
    // Whether the value in `slot` fits in what is left (it is dropped if not).
    let mut keep = |slot: &mut Option<Value>| -> bool {
        let Some(value) = slot else { return true };
        match written_size_within(value, VALUE_INDENT, left) {
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
    let kept = per_case - left;
    if bound_case_bytes(case) { 0 } else { kept }
}

/// Keeps the whole case within [`MAX_CASE_BYTES`] of the JSON report: the
/// line diff, then every value, then the differences are left out while it
/// is over. Returns whether the values were left out.
fn bound_case_bytes(case: &mut CaseReport) -> bool {
    let fits = |case: &CaseReport| written_size_within(case, 4, MAX_CASE_BYTES).is_some();
    if fits(case) {
        return false;
    }
    let over = format!("the case was over {} of report", bytes(MAX_CASE_BYTES));
    if !case.diff.is_empty() {
        case.diff.clear();
        case.cut.push(format!("line diff left out: {over}"));
        if fits(case) {
            return false;
        }
    }
    for difference in &mut case.differences {
        difference.expected = None;
        difference.actual = None;
    }
    case.input = None;
    case.expected = None;
    case.actual = None;
    case.cut.push(format!("every value left out: {over}"));
    if !fits(case) {
        case.omitted_differences += case.differences.len();
        case.differences.clear();
        case.cut.push(format!("differences left out: {over}"));
    }
    true
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
        assert!(kept < 200, "{kept}");
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

    /// `[[[…"x"…]]]` nested `depth` levels, built without recursion.
    fn nested(depth: usize) -> Value {
        let mut value = json!("x");
        for _ in 0..depth {
            value = Value::Array(vec![value]);
        }
        value
    }

    fn depth_of(value: &Value) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(value, 0)];
        while let Some((value, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            if let Value::Array(items) = value {
                stack.extend(items.iter().map(|item| (item, depth + 1)));
            }
        }
        deepest
    }

    #[test]
    fn a_deep_value_is_elided_below_the_kept_depth_and_named() {
        // A 20 KB reply nested 9,990 deep: written indented it took hundreds of MB.
        let mut case = case_with(10);
        // (`json!` would serialize the deep value recursively.)
        let mut blocks = serde_json::Map::new();
        blocks.insert("blocks".to_owned(), nested(9_990));
        case.actual = Some(Value::Object(blocks));
        case.expected = Some(nested(9_990));
        cap_case_values(&mut case, usize::MAX, &ARTIFACT_LIMITS);
        let actual = case.actual.as_ref().unwrap();
        assert_eq!(depth_of(&actual["blocks"]), MAX_KEPT_DEPTH - 1);
        let text = serde_json::to_string(actual).unwrap();
        assert!(text.contains(r#""[conform: elided: an array 9928 levels deep, 9928 values]""#), "{text}");
        let noted = case.cut.iter().any(|note| note.starts_with("2 values nested deeper than 64 levels elided"));
        assert!(noted, "{:?}", case.cut);
        let written = serde_json::to_string_pretty(&case).unwrap();
        assert!(written.len() < 100_000, "{}", written.len());
        // Bounding again changes nothing.
        let before = case.clone();
        cap_case_values(&mut case, usize::MAX, &ARTIFACT_LIMITS);
        assert_eq!(case, before);
    }

    #[test]
    fn kept_values_are_counted_as_written_not_compact() {
        // 40 levels, each holding 3,000 one-digit numbers: 240 KB compact,
        // well over 1 MiB once each number stands on its own indented line.
        let mut wide = json!([]);
        for _ in 0..40 {
            let mut items: Vec<Value> = (0..3_000).map(|_| json!(1)).collect();
            items.push(wide);
            wide = Value::Array(items);
        }
        let compact = serde_json::to_string(&wide).unwrap().len();
        assert!(compact < ARTIFACT_LIMITS.value_bytes_per_case, "{compact}");
        let mut case = case_with(10);
        case.actual = Some(wide);
        cap_case_values(&mut case, usize::MAX, &ARTIFACT_LIMITS);
        assert!(case.actual.is_none(), "kept although its report text is over 1 MiB");
        assert!(case.cut.iter().any(|note| note.starts_with("actual left out")), "{:?}", case.cut);
    }

    #[test]
    fn texts_and_the_whole_case_are_bounded_whatever_they_hold() {
        let long_pointer = "/0".repeat(50_000);
        let mut case = case_with(10);
        case.message = Some("m".repeat(1 << 20));
        case.problems = vec!["p".repeat(100); 5_000];
        case.differences = (0..100)
            .map(|_| crate::report::DifferenceReport {
                pointer: long_pointer.clone(),
                pattern: long_pointer.replace('0', "*"),
                kind: crate::compare::DifferenceKind::ValueChanged,
                message: format!("{long_pointer}: expected 1, got 2"),
                expected: Some(json!(1)),
                actual: Some(json!(2)),
                count: None,
                rules: Vec::new(),
            })
            .collect();
        case.diff = (0..2_000)
            .map(|_| {
                let line = format!(" {}", "x".repeat(1_000));
                serde_json::from_value(json!({"expected_start": 1, "actual_start": 1, "lines": [line]})).unwrap()
            })
            .collect();
        cap_case_values(&mut case, usize::MAX, &ARTIFACT_LIMITS);
        let message = case.message.as_deref().unwrap_or_default();
        assert!(message.len() <= MAX_TEXT_BYTES && message.ends_with(" more bytes]"), "{}", message.len());
        assert_eq!(case.problems.len(), MAX_PROBLEMS);
        assert_eq!(case.problems.last().map(String::as_str), Some("[conform: elided 4901 more problems]"));
        let short = |d: &crate::report::DifferenceReport| {
            d.pointer.len() <= MAX_TEXT_BYTES && d.message.len() <= MAX_TEXT_BYTES
        };
        assert!(case.differences.iter().all(short));
        let size = serde_json::to_string_pretty(&case).unwrap().len();
        assert!(size <= MAX_CASE_BYTES, "{size}");
        assert!(case.cut.iter().any(|note| note.starts_with("line diff left out")), "{:?}", case.cut);
    }
}
