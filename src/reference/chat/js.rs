//! JavaScript value and text semantics the chat pipeline is defined in.
//!
//! The HAPI pipeline is written against JavaScript values, so its type tests
//! (`typeof`, truthiness, "is an object"), its member probing and its text
//! operations (`trim`, `\s`, `\b`, `toLowerCase`) must be reproduced exactly.
//! Every stage goes through these helpers instead of Rust's own notions
//! (`char::is_whitespace`, for example, differs from JavaScript's on U+0085
//! and U+FEFF).

use crate::json::{KeyOrder, format_js_number, ordered_keys};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Member of an object. Arrays have no named members (the pipeline never asks
/// an array for an index-like key by name).
#[inline]
pub fn get<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => member(map, key),
        _ => None,
    }
}

/// Member lookup tuned for the small objects of wire messages: a linear
/// scan beats hashing the key below a couple of dozen members.
#[inline]
pub fn member<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() <= 24 { map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v) } else { map.get(key) }
}

/// Member of an optional value.
#[inline]
pub fn get_in<'a>(value: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    value.and_then(|v| get(v, key))
}

/// OBJ: a JSON object or array (JavaScript `typeof x === "object"`, non-null).
#[inline]
pub fn is_obj(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

/// The value when it passes OBJ.
#[inline]
pub fn obj(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| is_obj(v))
}

/// STR: the string contents when the value is a JSON string.
#[inline]
pub fn str_of(value: Option<&Value>) -> Option<&str> {
    match value {
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// NUM: the double value when the value is a JSON number. Parsed JSON cannot
/// hold a non-finite number, so every number passes.
#[inline]
pub fn num(value: Option<&Value>) -> Option<f64> {
    match value {
        Some(Value::Number(n)) => n.as_f64().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// SAFEINT≥0: an integral number from 0 to 2^53 - 1.
pub fn safe_uint(value: Option<&Value>) -> Option<f64> {
    num(value).filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= 9_007_199_254_740_991.0)
}

/// NUM≥0.
pub fn non_negative(value: Option<&Value>) -> Option<f64> {
    num(value).filter(|f| *f >= 0.0)
}

/// JavaScript truthiness of a possibly absent value.
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `a ▸ b ▸ c`: the first candidate member that is neither absent nor null.
pub fn first_present<'a>(value: Option<&'a Value>, keys: &[&str]) -> Option<&'a Value> {
    let value = value?;
    keys.iter().filter_map(|key| get(value, key)).find(|v| !v.is_null())
}

/// A double as a JSON number. Integral values within 2^53 are stored as
/// integers so that they compare equal to the parsed form of the same
/// number; the text is the same either way.
pub fn number(value: f64) -> Value {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if value.fract() == 0.0 && value.abs() <= SAFE {
        // The range check makes both conversions exact; -0 becomes 0.
        return if value >= 0.0 { Value::from(value as u64) } else { Value::from(value as i64) };
    }
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// A JSON string value.
pub fn string(text: impl Into<String>) -> Value {
    Value::String(text.into())
}

/// The members of an OBJ in JavaScript enumeration order for key-sorted
/// input: index-like keys ascending, then the rest by UTF-16 code units. An
/// array enumerates its indices as decimal keys.
pub fn entries(value: &Value) -> Vec<(Cow<'_, str>, &Value)> {
    match value {
        Value::Object(map) => ordered_keys(map.keys(), KeyOrder::Canonical)
            .into_iter()
            .filter_map(|key| map.get(key).map(|member| (Cow::Borrowed(key), member)))
            .collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, item)| (Cow::Owned(i.to_string()), item)).collect(),
        _ => Vec::new(),
    }
}

/// Values nested at most this deep are copied with the derived clone, whose
/// recursion then needs well under [`PLAIN_CLONE_STACK_BYTES`].
const PLAIN_CLONE_DEPTH: usize = 256;

/// Stack the derived clone of a [`PLAIN_CLONE_DEPTH`]-deep value fits in.
const PLAIN_CLONE_STACK_BYTES: usize = 1024 * 1024;

/// A deep copy that grows the stack instead of overflowing it: verbatim
/// values copied into the output may nest as deep as the parser allows.
///
/// Ordinary (shallow) values use the derived clone, which copies each
/// object's hash table instead of re-hashing every key; that re-hashing was
/// most of the cost of building the output.
pub fn deep_clone(value: &Value) -> Value {
    // The stack is checked first: the depth probe itself recurses up to
    // PLAIN_CLONE_DEPTH levels, which must not run close to the red zone.
    if stacker::remaining_stack().is_some_and(|left| left > PLAIN_CLONE_STACK_BYTES)
        && !nests_deeper_than(value, PLAIN_CLONE_DEPTH)
    {
        return value.clone();
    }
    match value {
        Value::Array(items) => {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || Value::Array(items.iter().map(deep_clone).collect()))
        }
        Value::Object(map) => stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), deep_clone(v))).collect())
        }),
        leaf => leaf.clone(),
    }
}

/// Whether containers nest more than `limit` levels deep (recursion bounded
/// by `limit`, no allocation).
fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    match value {
        Value::Array(items) => limit == 0 || items.iter().any(|item| nests_deeper_than(item, limit - 1)),
        Value::Object(map) => limit == 0 || map.values().any(|member| nests_deeper_than(member, limit - 1)),
        _ => false,
    }
}

/// A deep copy whose object members are in the order JavaScript enumerates
/// them on key-sorted input, for values whose member order is observable
/// later (JSON text compared for equality).
pub fn sorted_clone(value: &Value) -> Value {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match value {
        Value::Object(_) => {
            Value::Object(entries(value).into_iter().map(|(k, v)| (k.into_owned(), sorted_clone(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_clone).collect()),
        other => other.clone(),
    })
}

/// JavaScript's WhiteSpace plus LineTerminator set (what `trim` and `\s`
/// use). Not U+0085.
#[inline]
pub fn is_ws(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// Line terminators (what `.` does not match).
#[inline]
pub fn is_lt(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// ASCII word character (`\w`).
#[inline]
pub fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `String.prototype.trim`.
#[inline]
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_ws)
}

/// `String.prototype.trimStart`.
#[inline]
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_ws)
}

/// `String.prototype.trimEnd`.
#[inline]
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_ws)
}

/// Whether `s` is empty or only whitespace.
#[inline]
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_ws)
}

/// `String.prototype.toLowerCase` (full Unicode mapping, no locale).
pub fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.to_lowercase())
    }
}

/// Byte index of the first ASCII-case-insensitive occurrence of `needle`
/// (which must be ASCII) in `haystack`.
pub fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, pat) = (haystack.as_bytes(), needle.as_bytes());
    if pat.is_empty() {
        return Some(0);
    }
    if hay.len() < pat.len() {
        return None;
    }
    (0..=hay.len() - pat.len()).find(|&i| hay[i..i + pat.len()].eq_ignore_ascii_case(pat))
}

/// Whether `s` contains `needle` ignoring ASCII case.
pub fn contains_ascii_ci(s: &str, needle: &str) -> bool {
    find_ascii_ci(s, needle).is_some()
}

/// Collapses every whitespace run to one space and trims (`s.replace(/\s+/g, " ").trim()`).
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if is_ws(c) {
            pending_space = true;
        } else {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c);
        }
    }
    out
}

/// Length in bytes of the leading run of ASCII digits.
pub fn ascii_digits_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// JavaScript `String(value)` for an optional value (absent is
/// `"undefined"`), used where the pipeline builds text from a value of
/// unknown type, such as block ids from a message id.
pub fn to_js_string(value: Option<&Value>) -> Cow<'_, str> {
    match value {
        None => Cow::Borrowed("undefined"),
        Some(Value::String(s)) => Cow::Borrowed(s),
        Some(Value::Null) => Cow::Borrowed("null"),
        Some(Value::Bool(b)) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Some(Value::Number(n)) => Cow::Owned(format_js_number(n.as_f64().unwrap_or(f64::NAN))),
        Some(Value::Object(_)) => Cow::Borrowed("[object Object]"),
        Some(Value::Array(items)) => {
            let mut out = String::new();
            join_array(&mut out, items);
            Cow::Owned(out)
        }
    }
}

/// `Array.prototype.join(",")`, where null elements are empty.
fn join_array(out: &mut String, items: &[Value]) {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match item {
                Value::Null => {}
                Value::Array(nested) => join_array(out, nested),
                other => out.push_str(&to_js_string(Some(other))),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness_follows_javascript() {
        for falsy in [json!(null), json!(false), json!(0), json!(-0.0), json!("")] {
            assert!(!truthy(Some(&falsy)), "{falsy}");
        }
        for truthy_value in [json!("false"), json!("0"), json!([]), json!({}), json!(0.5)] {
            assert!(truthy(Some(&truthy_value)), "{truthy_value}");
        }
        assert!(!truthy(None));
    }

    #[test]
    fn trim_uses_the_javascript_whitespace_set() {
        assert_eq!(trim("\u{feff}\u{a0} x \u{3000}"), "x");
        assert_eq!(trim("\u{85}x\u{85}"), "\u{85}x\u{85}");
    }

    #[test]
    fn first_present_does_not_fall_through_on_a_wrong_type() {
        let value = json!({"threadId": 5, "thread_id": "t", "a": null, "b": "x"});
        assert_eq!(str_of(first_present(Some(&value), &["threadId", "thread_id"])), None);
        assert_eq!(str_of(first_present(Some(&value), &["a", "b"])), Some("x"));
    }

    #[test]
    fn arrays_enumerate_their_indices() {
        let value = json!(["a", "b"]);
        let keys: Vec<_> = entries(&value).into_iter().map(|(k, _)| k.into_owned()).collect();
        assert_eq!(keys, ["0", "1"]);
        let value = json!({"b": 1, "10": 2, "a": 3, "2": 4});
        let keys: Vec<_> = entries(&value).into_iter().map(|(k, _)| k.into_owned()).collect();
        assert_eq!(keys, ["2", "10", "a", "b"]);
    }

    #[test]
    fn js_string_conversion() {
        assert_eq!(to_js_string(Some(&json!(1e21))), "1e+21");
        assert_eq!(to_js_string(Some(&json!([1, null, [2, "x"]]))), "1,,2,x");
        assert_eq!(to_js_string(None), "undefined");
    }

    #[test]
    fn collapse_ws_matches_replace_and_trim() {
        assert_eq!(collapse_ws("  Do  the\nthing \t"), "Do the thing");
        assert_eq!(collapse_ws(" \n "), "");
    }
}
