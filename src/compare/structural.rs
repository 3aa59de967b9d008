//! Differences by JSON pointer.

use crate::json::{pointer, to_compact_string};
use crate::suite_api::PointerContext;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use similar::{Algorithm, DiffOp, capture_diff_slices};

/// At most this many differences are listed per case; the rest are counted.
pub const MAX_DIFFERENCES: usize = 100;

/// Longest rendering of a value inside a one-line message.
const MAX_VALUE_CHARS: usize = 80;

/// What kind of difference was found at a pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DifferenceKind {
    /// Same JSON type, different value.
    ValueChanged,
    /// Different JSON types (e.g. string vs number, null vs object).
    TypeChanged,
    /// An object member the expectation has and the output lacks.
    MissingMember,
    /// An object member the output has and the expectation lacks.
    UnexpectedMember,
    /// Array elements the expectation has and the output lacks.
    MissingElements,
    /// Array elements the output has and the expectation lacks.
    UnexpectedElements,
}

impl DifferenceKind {
    /// The kebab-case name used in every report (`value-changed`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            DifferenceKind::ValueChanged => "value-changed",
            DifferenceKind::TypeChanged => "type-changed",
            DifferenceKind::MissingMember => "missing-member",
            DifferenceKind::UnexpectedMember => "unexpected-member",
            DifferenceKind::MissingElements => "missing-elements",
            DifferenceKind::UnexpectedElements => "unexpected-elements",
        }
    }
}

impl std::fmt::Display for DifferenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference between expected and actual.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// JSON pointer into the expected part (into the output for unexpected
    /// members and elements).
    pub pointer: String,
    /// What differs.
    pub kind: DifferenceKind,
    /// The expected value (absent for unexpected members/elements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The actual value (absent for missing members/elements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// Number of array elements, for element differences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// Suite-specific label of the part the pointer falls in.
    #[serde(skip)]
    pub context: Option<PointerContext>,
}

impl Difference {
    fn new(pointer: String, kind: DifferenceKind, expected: Option<&Value>, actual: Option<&Value>) -> Self {
        Difference { pointer, kind, expected: expected.cloned(), actual: actual.cloned(), count: None, context: None }
    }

    /// The pointer with array indices replaced by `*`: what failures caused
    /// by the same bug have in common.
    pub fn pointer_pattern(&self) -> String {
        pointer::tokens(&self.pointer)
            .iter()
            .map(|token| {
                if token.bytes().all(|b| b.is_ascii_digit()) && !token.is_empty() {
                    "*".to_owned()
                } else {
                    pointer::escape_token(token)
                }
            })
            .fold(String::new(), |acc, token| format!("{acc}/{token}"))
    }

    /// A one-line description, e.g.
    /// `/blocks/3/tool/state: expected "completed", got "running"`.
    pub fn message(&self) -> String {
        let place = match &self.context {
            Some(context) if context.rest.is_empty() => context.label.clone(),
            Some(context) => format!("{} differs at {}", context.label, context.rest),
            None if self.pointer.is_empty() => "(root)".to_owned(),
            None => self.pointer.clone(),
        };
        let what = match self.kind {
            DifferenceKind::ValueChanged | DifferenceKind::TypeChanged => {
                format!("expected {}, got {}", short(self.expected.as_ref()), short(self.actual.as_ref()))
            }
            DifferenceKind::MissingMember => format!("missing (expected {})", short(self.expected.as_ref())),
            DifferenceKind::UnexpectedMember => format!("unexpected member (got {})", short(self.actual.as_ref())),
            DifferenceKind::MissingElements => match self.count.unwrap_or(1) {
                1 => format!("expected element missing: {}", short(self.expected.as_ref())),
                n => format!("{n} expected elements missing, starting with {}", short(self.expected.as_ref())),
            },
            DifferenceKind::UnexpectedElements => match self.count.unwrap_or(1) {
                1 => format!("unexpected element: {}", short(self.actual.as_ref())),
                n => format!("{n} unexpected elements, starting with {}", short(self.actual.as_ref())),
            },
        };
        format!("{place}: {what}")
    }
}

fn short(value: Option<&Value>) -> String {
    let Some(value) = value else { return "nothing".to_owned() };
    let text = to_compact_string(value);
    if text.chars().count() <= MAX_VALUE_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_VALUE_CHARS).collect();
    format!("{cut}…")
}

/// Canonical equality: numbers by value, objects regardless of key order.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        // A literal U+10FFFD has two storages (see `json::jsstring`): compare
        // the JavaScript strings, as the canonical text does.
        (Value::String(x), Value::String(y)) => {
            x == y
                || ((x.contains(crate::json::MARK) || y.contains(crate::json::MARK))
                    && crate::json::js_chars(x).eq(crate::json::js_chars(y)))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| values_equal(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            // An output usually lists its members in the expectation's order:
            // a member found at the same position needs no lookup by hash.
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((key, a), (same_place, b))| {
                    if key == same_place { values_equal(a, b) } else { y.get(key).is_some_and(|b| values_equal(a, b)) }
                })
        }
        _ => a == b,
    })
}

/// Lists the differences between `expected` and `actual`: at most
/// [`MAX_DIFFERENCES`], plus the count of those left out.
pub fn differences(expected: &Value, actual: &Value) -> (Vec<Difference>, usize) {
    let mut collector = Collector { found: Vec::new(), omitted: 0 };
    collector.walk(String::new(), expected, actual);
    (collector.found, collector.omitted)
}

struct Collector {
    found: Vec<Difference>,
    omitted: usize,
}

impl Collector {
    fn push(&mut self, difference: Difference) {
        if self.found.len() < MAX_DIFFERENCES {
            self.found.push(difference);
        } else {
            self.omitted += 1;
        }
    }

    fn walk(&mut self, at: String, expected: &Value, actual: &Value) {
        stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match (expected, actual) {
            (Value::Object(e), Value::Object(a)) => self.walk_objects(&at, e, a),
            (Value::Array(e), Value::Array(a)) => self.walk_arrays(&at, e, a),
            _ if values_equal(expected, actual) => {}
            _ => {
                let kind = if kind_of(expected) == kind_of(actual) {
                    DifferenceKind::ValueChanged
                } else {
                    DifferenceKind::TypeChanged
                };
                self.push(Difference::new(at, kind, Some(expected), Some(actual)));
            }
        })
    }

    fn walk_objects(&mut self, at: &str, expected: &Map<String, Value>, actual: &Map<String, Value>) {
        for key in crate::json::ordered_keys(expected.keys(), crate::json::KeyOrder::Canonical) {
            let here = pointer::push(at, key);
            match (expected.get(key), actual.get(key)) {
                (Some(e), Some(a)) => self.walk(here, e, a),
                (Some(e), None) => self.push(Difference::new(here, DifferenceKind::MissingMember, Some(e), None)),
                _ => {}
            }
        }
        for key in crate::json::ordered_keys(actual.keys(), crate::json::KeyOrder::Canonical) {
            if !expected.contains_key(key) {
                let here = pointer::push(at, key);
                self.push(Difference::new(here, DifferenceKind::UnexpectedMember, None, actual.get(key)));
            }
        }
    }

    /// Aligns the arrays on equal elements first, so an inserted or removed
    /// element is one difference instead of a cascade over every later index.
    /// Elements are keyed by a hash of their compact text (8 bytes each,
    /// not a copy of the text: a reply of a million elements would double).
    fn walk_arrays(&mut self, at: &str, expected: &[Value], actual: &[Value]) {
        let expected_keys: Vec<u64> = expected.iter().map(alignment_key).collect();
        let actual_keys: Vec<u64> = actual.iter().map(alignment_key).collect();
        for op in capture_diff_slices(Algorithm::Myers, &expected_keys, &actual_keys) {
            match op {
                DiffOp::Equal { old_index, new_index, len } => {
                    // Equal keys are equal texts but for a hash collision,
                    // which must not hide a difference.
                    for offset in 0..len {
                        let (old, new) = (&expected[old_index + offset], &actual[new_index + offset]);
                        if !values_equal(old, new) {
                            self.walk(pointer::push_index(at, old_index + offset), old, new);
                        }
                    }
                }
                DiffOp::Delete { old_index, old_len, .. } => self.missing(at, expected, old_index, old_len),
                DiffOp::Insert { new_index, new_len, .. } => self.unexpected(at, actual, new_index, new_len),
                DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                    // Pair up what can be paired (the common case: the same
                    // element changed in place), report the rest as a run.
                    let paired = old_len.min(new_len);
                    for offset in 0..paired {
                        self.walk(
                            pointer::push_index(at, old_index + offset),
                            &expected[old_index + offset],
                            &actual[new_index + offset],
                        );
                    }
                    if old_len > paired {
                        self.missing(at, expected, old_index + paired, old_len - paired);
                    }
                    if new_len > paired {
                        self.unexpected(at, actual, new_index + paired, new_len - paired);
                    }
                }
            }
        }
    }

    fn missing(&mut self, at: &str, expected: &[Value], index: usize, len: usize) {
        let mut difference =
            Difference::new(pointer::push_index(at, index), DifferenceKind::MissingElements, expected.get(index), None);
        difference.count = Some(len);
        self.push(difference);
    }

    fn unexpected(&mut self, at: &str, actual: &[Value], index: usize, len: usize) {
        let mut difference = Difference::new(
            pointer::push_index(at, index),
            DifferenceKind::UnexpectedElements,
            None,
            actual.get(index),
        );
        difference.count = Some(len);
        self.push(difference);
    }
}

/// The alignment key of an array element: a hash of its compact text.
fn alignment_key(value: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    to_compact_string(value).hash(&mut hasher);
    hasher.finish()
}

fn kind_of(value: &Value) -> u8 {
    match value {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(expected: Value, actual: Value) -> Vec<String> {
        differences(&expected, &actual).0.iter().map(Difference::message).collect()
    }

    #[test]
    fn numbers_compare_by_value_and_keys_by_set() {
        assert!(values_equal(&json!({"a": 1, "b": [1.0, -0.0]}), &json!({"b": [1, 0], "a": 1.0})));
        assert!(!values_equal(&json!({"a": 1}), &json!({"a": 1, "b": null})));
    }

    #[test]
    fn strings_compare_as_javascript_strings() {
        // U+10FFFD stored bare (as a reference may build it) and as parsing
        // stores it (doubled mark): one JavaScript string, one canonical text.
        let parsed = crate::json::parse_value("\"\u{10FFFD}x\"").unwrap_or_else(|e| panic!("{e}"));
        let bare = Value::String("\u{10FFFD}x".to_owned());
        assert_ne!(parsed, bare);
        assert!(values_equal(&parsed, &bare) && values_equal(&json!([bare.clone()]), &json!([parsed.clone()])));
        assert!(differences(&parsed, &bare).0.is_empty());
        assert!(!values_equal(&parsed, &Value::String("\u{10FFFD}y".to_owned())));
    }

    #[test]
    fn a_changed_leaf_is_named_by_pointer() {
        let expected = json!({"blocks": [{"tool": {"state": "completed"}}]});
        let actual = json!({"blocks": [{"tool": {"state": "running"}}]});
        assert_eq!(messages(expected, actual), [r#"/blocks/0/tool/state: expected "completed", got "running""#]);
    }

    #[test]
    fn missing_and_unexpected_members_are_separate() {
        let got = messages(json!({"a": 1, "b": 2}), json!({"a": 1, "c": 3}));
        assert_eq!(got, ["/b: missing (expected 2)", "/c: unexpected member (got 3)"]);
    }

    #[test]
    fn a_removed_element_does_not_cascade() {
        let expected: Vec<Value> = (0..50).map(|i| json!({"id": i})).collect();
        let mut actual = expected.clone();
        actual.remove(3);
        let got = messages(Value::Array(expected), Value::Array(actual));
        assert_eq!(got, [r#"/3: expected element missing: {"id":3}"#]);
    }

    #[test]
    fn type_changes_are_their_own_kind_and_patterns_star_indices() {
        let (found, _) = differences(&json!({"a": [{"b": "x"}]}), &json!({"a": [{"b": null}]}));
        assert_eq!(found[0].kind, DifferenceKind::TypeChanged);
        assert_eq!(found[0].pointer_pattern(), "/a/*/b");
    }

    #[test]
    fn the_list_is_capped_and_the_rest_counted() {
        let expected: Vec<Value> = (0..150).map(|i| json!([i])).collect();
        let actual: Vec<Value> = (0..150).map(|i| json!([i + 1000])).collect();
        let (found, omitted) = differences(&Value::Array(expected), &Value::Array(actual));
        assert_eq!((found.len(), omitted), (MAX_DIFFERENCES, 50));
    }
}
