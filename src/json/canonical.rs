//! The canonical value of an input: what a JavaScript hub's fixture
//! generator computes on, and what conform sends an implementation.
//!
//! HAPI's generator computes every expected part on the canonical form of
//! the input: the value as reading its fixture text back gives it. So an
//! input is canonical when it equals `JSON.parse` of its own canonical text:
//! object members in canonical key order (index-like keys first in numeric
//! order, the rest by UTF-16 code units), numbers as JavaScript writes and
//! reads them back (`-0` is `0`, `2^53 + 1` is `2^53`, `1e2` is the integer
//! `100`), strings as JavaScript holds them (a lone high surrogate followed
//! by a lone low one is the pair they make).
//!
//! [`canonical`] is the one canonicalisation: the reference computes on its
//! result ([`crate::suite_api::call_reference`]), and the subprocess protocol
//! writes its canonical text ([`crate::json::Style::CANONICAL_COMPACT`] of
//! any value is the text of its canonical value), so an implementation
//! receives exactly the input the reference computed on.

use super::jsstring::{MARK, from_utf16, to_utf16};
use super::order::cmp_canonical_keys;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

/// The largest magnitude up to which every integer is a double exactly.
const MAX_SAFE: u64 = 1 << 53;

/// `value` as reading its canonical text back gives it: borrowed when it is
/// canonical already (the common case: a fixture file read as written).
pub fn canonical(value: &Value) -> Cow<'_, Value> {
    if is_canonical(value) {
        return Cow::Borrowed(value);
    }
    let mut owned = value.clone();
    canonicalize(&mut owned);
    Cow::Owned(owned)
}

/// Rewrites `value` in place into its canonical value (see [`canonical`]).
pub fn canonicalize(value: &mut Value) {
    // Inputs may nest thousands of levels deep; grow the stack as the
    // writer does.
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Null | Value::Bool(_) => {}
        Value::Number(number) => {
            if let Some(rewritten) = canonical_number(number) {
                *value = rewritten;
            }
        }
        Value::String(text) => {
            if let Some(rewritten) = canonical_string(text) {
                *text = rewritten;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(canonicalize),
        Value::Object(map) => {
            let keys_canonical = map.keys().all(|key| canonical_string(key).is_none());
            if !(keys_canonical && keys_in_order(map)) {
                let mut members: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
                for (key, _) in &mut members {
                    if let Some(rewritten) = canonical_string(key) {
                        *key = rewritten;
                    }
                }
                members.sort_by(|(a, _), (b, _)| cmp_canonical_keys(a, b));
                // Two keys that only their storage told apart are one
                // member in JavaScript: the later one wins, as in JSON.parse.
                members.reverse();
                members.dedup_by(|later, earlier| later.0 == earlier.0);
                members.reverse();
                *map = members.into_iter().collect::<Map<String, Value>>();
            }
            map.values_mut().for_each(canonicalize);
        }
    })
}

/// Whether `value` is its own canonical value.
pub fn is_canonical(value: &Value) -> bool {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Null | Value::Bool(_) => true,
        Value::Number(number) => canonical_number(number).is_none(),
        Value::String(text) => canonical_string(text).is_none(),
        Value::Array(items) => items.iter().all(is_canonical),
        Value::Object(map) => {
            keys_in_order(map)
                && map.iter().all(|(key, member)| canonical_string(key).is_none() && is_canonical(member))
        }
    })
}

/// Whether the members are in canonical key order (and distinct).
fn keys_in_order(map: &Map<String, Value>) -> bool {
    let mut keys = map.keys();
    let Some(mut previous) = keys.next() else { return true };
    for key in keys {
        if cmp_canonical_keys(previous, key) != Ordering::Less {
            return false;
        }
        previous = key;
    }
    true
}

/// The number `JSON.parse` gives for the text JavaScript writes for
/// `number`, or `None` when that is `number` itself.
fn canonical_number(number: &Number) -> Option<Value> {
    let safe_integer = number
        .as_u64()
        .map(|unsigned| unsigned <= MAX_SAFE)
        .or_else(|| number.as_i64().map(|signed| signed.unsigned_abs() <= MAX_SAFE));
    if safe_integer == Some(true) {
        return None;
    }
    // A double, or an integer JavaScript rounds to one.
    let rewritten = js_number(number.as_f64()?);
    (rewritten.as_number() != Some(number)).then_some(rewritten)
}

/// A double as `JSON.parse` of the text JavaScript writes for it stores it
/// (`-0` is written `0`; an integer beyond 2^53 is written with its
/// shortest digits, `62745969112821100`, which is the integer read back).
fn js_number(double: f64) -> Value {
    if double.fract() != 0.0 || double.abs() >= 1e21 {
        return Number::from_f64(double).map_or(Value::Null, Value::Number);
    }
    super::parse_value(&super::format_js_number(double)).unwrap_or(Value::Null)
}

/// The string JavaScript holds for `text` as it is stored (see
/// [`super::jsstring`]), or `None` when that is how it is stored already.
fn canonical_string(text: &str) -> Option<String> {
    if !text.contains(MARK) {
        return None;
    }
    let rewritten = from_utf16(&to_utf16(text));
    (rewritten != text).then_some(rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Style, parse_value, write_value};
    use proptest::prelude::*;

    fn read_back(value: &Value) -> Value {
        parse_value(&write_value(value, Style::CANONICAL_COMPACT)).unwrap()
    }

    /// The values explore plants, and their canonical text.
    fn planted() -> Vec<(Value, &'static str)> {
        let lone_high = from_utf16(&[0xD800]);
        let lone_low = from_utf16(&[0xDC00]);
        vec![
            (crate::suite_api::mutate::js_number(-0.0), "0"),
            (crate::suite_api::mutate::js_number(1e21), "1e+21"),
            (crate::suite_api::mutate::js_number(5e-324), "5e-324"),
            (Value::from(9_007_199_254_740_993u64), "9007199254740992"),
            (Value::from(-9_007_199_254_740_993i64), "-9007199254740992"),
            (Value::Number(Number::from_f64(100.0).unwrap()), "100"),
            (Value::Number(Number::from_f64(1e-7).unwrap()), "1e-7"),
            (Value::String(lone_high.clone()), "\"\\ud800\""),
            (Value::String(format!("{lone_high}{lone_low}")), "\"\u{10000}\""),
            (Value::String(format!("{MARK}x")), "\"\u{10FFFD}x\""),
            (
                serde_json::json!({"role": "user", "content": 1, "extra": true}),
                r#"{"content":1,"extra":true,"role":"user"}"#,
            ),
            (serde_json::json!({"b": 1, "10": 2, "a": 3, "2": 4, "01": 5}), r#"{"2":4,"10":2,"01":5,"a":3,"b":1}"#),
        ]
    }

    #[test]
    fn the_canonical_value_is_its_text_read_back() {
        for (value, text) in planted() {
            let canonical = canonical(&value).into_owned();
            assert_eq!(write_value(&value, Style::CANONICAL_COMPACT), text);
            assert_eq!(write_value(&canonical, Style::STRINGIFY_COMPACT), text, "insertion order is canonical");
            assert_eq!(canonical, read_back(&value), "{text}");
            assert!(is_canonical(&canonical), "{text}");
            let same = canonical == value
                && write_value(&canonical, Style::STRINGIFY_COMPACT) == write_value(&value, Style::STRINGIFY_COMPACT);
            assert_eq!(is_canonical(&value), same, "{text}");
        }
    }

    #[test]
    fn canonical_values_are_borrowed() {
        let value = parse_value(r#"{"a":[0,-1,1.5,"x",{"0":null,"b":true}],"z":9007199254740992}"#).unwrap();
        assert!(matches!(canonical(&value), Cow::Borrowed(_)));
        let negative_zero = parse_value("[-0]").unwrap();
        assert_eq!(canonical(&negative_zero).into_owned(), serde_json::json!([0]));
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
            proptest::collection::vec(any::<u16>(), 0..4).prop_map(|units| Value::String(from_utf16(&units))),
            "[a-c0-9]{0,3}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(("[a-c0-9]{0,3}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn every_value_canonicalises_to_its_text_read_back(value in any_value()) {
            let canonical = canonical(&value).into_owned();
            prop_assert_eq!(&canonical, &read_back(&value));
            prop_assert!(is_canonical(&canonical));
            prop_assert_eq!(
                write_value(&canonical, Style::STRINGIFY_COMPACT),
                write_value(&value, Style::CANONICAL_COMPACT)
            );
        }
    }
}
