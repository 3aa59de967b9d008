//! JavaScript value and text semantics, shared by every reference.
//!
//! The behavior the references reproduce is defined in JavaScript (the HAPI
//! client, the seed's adapters), so its type tests (`typeof`, truthiness,
//! "is an object"), its member probing, its enumeration order and its text
//! operations (`trim`, `\s`, `\b`, `.`, `toLowerCase`, `String(x)`) must be
//! reproduced exactly. Rust's own notions differ: `char::is_whitespace`, for
//! example, includes U+0085 and excludes U+FEFF. JavaScript string lengths
//! and positions (UTF-16 code units) come from [`crate::json`] (`utf16_len`,
//! `to_utf16`, `cmp_utf16`, …). Helpers only one suite needs stay in that
//! suite.

use crate::json::{JsChar, KeyOrder, MARK, cmp_utf16, format_js_number, js_chars, ordered_keys};
use icu_collator::{Collator, CollatorBorrowed};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::LazyLock;

/// Member of an object. Arrays have no named members (the references never
/// ask an array for an index-like key by name).
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
fn member<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
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

/// A string member that is present and non-empty (the common `if (x.y)`
/// guard on a string field).
pub fn non_empty_str(value: Option<&Value>) -> Option<&str> {
    str_of(value).filter(|s| !s.is_empty())
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
    num(value).filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= MAX_SAFE_INTEGER)
}

/// A number JavaScript sees as a non-negative integer, as `u64`, however
/// its JSON text wrote it: `0`, `-0` and `0.0` are one JavaScript number (the
/// same array index, the same JSON-RPC id), though `serde_json` stores them
/// apart.
pub fn js_uint(value: Option<&Value>) -> Option<u64> {
    match value {
        Some(Value::Number(n)) => n.as_u64().or_else(|| {
            n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 18_446_744_073_709_551_616.0).map(|f| f as u64)
        }),
        _ => None,
    }
}

/// NUM≥0.
pub fn non_negative(value: Option<&Value>) -> Option<f64> {
    num(value).filter(|f| *f >= 0.0)
}

/// `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// JavaScript truthiness of a possibly absent value (`undefined` is `None`).
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `a || b`: the first operand when truthy, else the second.
pub fn or<'a>(a: Option<&'a Value>, b: Option<&'a Value>) -> Option<&'a Value> {
    if truthy(a) { a } else { b }
}

/// `a ?? b ?? c` over members: the first candidate member that is neither
/// absent nor null.
pub fn first_present<'a>(value: Option<&'a Value>, keys: &[&str]) -> Option<&'a Value> {
    let value = value?;
    keys.iter().filter_map(|key| get(value, key)).find(|v| !v.is_null())
}

/// A double as a JSON number. Integral values within 2^53 are stored as
/// integers so that they compare equal to the parsed form of the same
/// number; the text is the same either way.
pub fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER {
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

/// JavaScript `String(value)` for an optional value (absent is
/// `"undefined"`), used where text is built from a value of unknown type,
/// such as block ids from a message id.
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

/// ECMAScript WhiteSpace plus LineTerminator: what `trim` strips and `\s`
/// matches. Unlike Unicode `White_Space` it includes U+FEFF and excludes
/// U+0085.
#[inline]
pub fn is_whitespace(c: char) -> bool {
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

/// ECMAScript LineTerminator: what `.` does not match.
#[inline]
pub fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// A word character of `\w` and `\b` (ASCII only, as in JavaScript).
#[inline]
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `String.prototype.trim`.
#[inline]
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_whitespace)
}

/// `String.prototype.trimStart`.
#[inline]
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_whitespace)
}

/// `String.prototype.trimEnd`.
#[inline]
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_whitespace)
}

/// `s.trim() === ""`.
#[inline]
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_whitespace)
}

/// `s.replace(/\s+/g, " ").trim()`.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if is_whitespace(c) {
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

/// `String.prototype.toLowerCase` (full Unicode mapping, no locale).
pub fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.to_lowercase())
    }
}

/// Byte index of the first match of `/needle/i` in `haystack`, for an
/// ASCII `needle` (no non-ASCII character case-folds to ASCII under the
/// `i` flag, so a byte-wise ASCII comparison is exact).
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

/// `/needle/i.test(s)` for an ASCII `needle`.
pub fn contains_ascii_ci(s: &str, needle: &str) -> bool {
    find_ascii_ci(s, needle).is_some()
}

/// Length in bytes of the match of `/^\d*/` (`\d` is ASCII in JavaScript).
pub fn ascii_digits_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// `RegExp`'s `\s` in the `regex` crate's syntax: the [`is_whitespace`] set.
pub const SPACE_CLASS: &str =
    r"[\t\n\x{0B}\x{0C}\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]";

/// `RegExp`'s `\S`.
pub const NON_SPACE_CLASS: &str =
    r"[^\t\n\x{0B}\x{0C}\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]";

/// `RegExp`'s `.` without the `s` flag: anything but a line terminator.
pub const DOT_CLASS: &str = r"[^\n\r\x{2028}\x{2029}]";

/// `RegExp`'s `\b` (ASCII word characters only, as in JavaScript).
pub const WORD_BOUNDARY: &str = r"(?-u:\b)";

/// Translates a JavaScript regular expression without character classes
/// (`[...]`) into the `regex` crate's syntax with JavaScript's meaning:
/// `\s`, `\S`, `\b` and `.` become the classes above, `\/` becomes `/`.
pub fn js_pattern(source: &str) -> String {
    let mut out = String::with_capacity(source.len() * 4);
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('s') => out.push_str(SPACE_CLASS),
                Some('S') => out.push_str(NON_SPACE_CLASS),
                Some('b') => out.push_str(WORD_BOUNDARY),
                Some('/') => out.push('/'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push_str("\\\\"),
            },
            '.' => out.push_str(DOT_CLASS),
            other => out.push(other),
        }
    }
    out
}

/// A JavaScript primitive as the relational operators see it: what
/// `ToPrimitive(value, number)` leaves of a JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Primitive<'a> {
    /// `undefined`, `null`, a boolean or a number, as its `ToNumber` value.
    Number(f64),
    /// A string, or the text an array or object converts to
    /// (`[]` → `""`, `[1, [2]]` → `"1,2"`, `{}` → `"[object Object]"`).
    String(Cow<'a, str>),
}

/// `ToPrimitive(value, number)` of a possibly absent JSON value (absent is
/// `undefined`). Plain arrays and objects have no `valueOf` of their own, so
/// they become their `toString()` text.
pub fn to_primitive(value: Option<&Value>) -> Primitive<'_> {
    match value {
        None => Primitive::Number(f64::NAN),
        Some(Value::Null) => Primitive::Number(0.0),
        Some(Value::Bool(b)) => Primitive::Number(if *b { 1.0 } else { 0.0 }),
        Some(Value::Number(n)) => Primitive::Number(n.as_f64().unwrap_or(f64::NAN)),
        Some(Value::String(s)) => Primitive::String(Cow::Borrowed(s)),
        Some(other) => Primitive::String(to_js_string(Some(other))),
    }
}

/// `Number(value)` (`ToNumber`) of a possibly absent JSON value: `""`, `" "`,
/// `[]`, `null` and `false` are 0, `true` is 1, `{}` and `undefined` NaN.
pub fn to_number(value: Option<&Value>) -> f64 {
    match to_primitive(value) {
        Primitive::Number(n) => n,
        Primitive::String(s) => string_to_number(&s),
    }
}

/// `Number(text)`: ECMAScript's StringToNumber. Surrounding whitespace is
/// ignored and an empty or all-whitespace text is 0; otherwise the text must
/// be a decimal literal (`+`/`-`, digits, one `.`, an exponent), `Infinity`
/// with an optional sign, or an unsigned `0x`/`0o`/`0b` integer; anything else
/// (`1_000`, `1n`, `0x`, `inf`) is NaN.
pub fn string_to_number(text: &str) -> f64 {
    let text = trim(text);
    if text.is_empty() {
        return 0.0;
    }
    let (sign, unsigned) = match text.as_bytes()[0] {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    let radix = match unsigned.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0o" | "0O") => Some(8),
        Some("0b" | "0B") => Some(2),
        _ => None,
    };
    if let Some(radix) = radix {
        // A sign is not allowed before a radix prefix.
        let digits = &unsigned[2..];
        if unsigned.len() != text.len() || digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return f64::NAN;
        }
        return digits.chars().filter_map(|c| c.to_digit(radix)).fold(0.0, |n, d| n * f64::from(radix) + f64::from(d));
    }
    if is_decimal_literal(unsigned) { unsigned.parse::<f64>().map_or(f64::NAN, |n| sign * n) } else { f64::NAN }
}

/// StrUnsignedDecimalLiteral: `digits [. digits] [e±digits]` or
/// `. digits [e±digits]`, with at least one digit before the exponent.
fn is_decimal_literal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    let mut mantissa = digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        mantissa += digits(&mut at);
    }
    if mantissa == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// `x < y` with JavaScript's loose rules (IsLessThan): both sides become
/// primitives; two strings compare by UTF-16 code units, anything else by
/// `ToNumber`, where a NaN makes the comparison false whichever way it is
/// asked (`{} < 1` and `{} > 1` are both false).
pub fn loose_less_than(x: Option<&Value>, y: Option<&Value>) -> bool {
    is_less_than(&to_primitive(x), &to_primitive(y)) == Some(true)
}

/// `x > y` with JavaScript's loose rules (`y < x`, operands converted left to right).
pub fn loose_greater_than(x: Option<&Value>, y: Option<&Value>) -> bool {
    is_less_than(&to_primitive(y), &to_primitive(x)) == Some(true)
}

/// IsLessThan on primitives: `None` is `undefined` (a NaN was involved).
fn is_less_than(x: &Primitive<'_>, y: &Primitive<'_>) -> Option<bool> {
    let number = |p: &Primitive<'_>| match p {
        Primitive::Number(n) => *n,
        Primitive::String(s) => string_to_number(s),
    };
    match (x, y) {
        (Primitive::String(a), Primitive::String(b)) => Some(cmp_utf16(a, b) == Ordering::Less),
        _ => {
            let (a, b) = (number(x), number(y));
            (!a.is_nan() && !b.is_nan()).then_some(a < b)
        }
    }
}

/// `Math.min(a, b)` on numbers: NaN if either is NaN, and -0 below +0.
pub fn math_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() { a } else { b }
    } else {
        a.min(b)
    }
}

/// `Array.prototype.sort` with a comparator: a stable sort that also
/// tolerates a comparator that is not a total order (JavaScript comparators
/// that return NaN, or that mix keys, are not), where the standard
/// library's sorts may panic. A merge sort: the right run's head goes first
/// only when it compares strictly less.
pub fn sort_by<T>(items: Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) -> Vec<T> {
    if items.len() <= 1 {
        return items;
    }
    // The merge sort orders positions, not the items themselves: a pagination
    // window sorts hundreds of rows after every op, and moving a position is
    // cheaper than moving a row through every level of the merge. The
    // comparator sees the same pairs in the same sequence as a merge of the
    // items would give it, so a comparator that is not a total order yields
    // the same result too.
    let mut order: Vec<usize> = (0..items.len()).collect();
    let mut scratch = vec![0; items.len()];
    merge_sort(&items, &mut order, &mut scratch, &mut compare);
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|position| slots.get_mut(position).and_then(Option::take)).collect()
}

/// Sorts the positions `order` of `items`: the left half (the first
/// `len / 2`) and the right half each sorted, then merged, the right run's
/// head going first only when it compares strictly less. `scratch` is as long
/// as `order`.
fn merge_sort<T>(
    items: &[T],
    order: &mut [usize],
    scratch: &mut [usize],
    compare: &mut impl FnMut(&T, &T) -> Ordering,
) {
    if order.len() <= 1 {
        return;
    }
    let middle = order.len() / 2;
    {
        let (left, right) = order.split_at_mut(middle);
        let (left_scratch, right_scratch) = scratch.split_at_mut(middle);
        merge_sort(items, left, left_scratch, compare);
        merge_sort(items, right, right_scratch, compare);
    }
    let (left, right) = order.split_at(middle);
    let (mut l, mut r) = (0, 0);
    for slot in scratch.iter_mut() {
        let take_right = match (left.get(l), right.get(r)) {
            (Some(&left_item), Some(&right_item)) => compare(&items[right_item], &items[left_item]) == Ordering::Less,
            (Some(_), None) => false,
            (None, _) => true,
        };
        if take_right {
            *slot = right[r];
            r += 1;
        } else {
            *slot = left[l];
            l += 1;
        }
    }
    order.copy_from_slice(scratch);
}

/// ICU's root collation with default options, as V8 builds it for
/// `localeCompare` without arguments (tertiary strength, non-ignorable
/// punctuation, no numeric ordering). `None` only if the compiled-in data
/// were unusable, which the tests rule out.
static ROOT_COLLATOR: LazyLock<Option<CollatorBorrowed<'static>>> =
    LazyLock::new(|| Collator::try_new(Default::default(), Default::default()).ok());

/// `a.localeCompare(b)` with no arguments, as V8 ships it: the ICU root
/// collation. Case-insensitive first (`a` < `B`), lower case before upper
/// case on a tie (`a` < `A`), punctuation and symbols before digits before
/// letters, `_` before `-` before `.`. Strings that differ only in
/// completely ignorable characters (most control characters) compare equal,
/// as they do in V8.
///
/// A lone surrogate collates as V8's ICU collates it: like an unassigned
/// code point of its own value (after U+D7FF, before the private-use
/// U+E000, in code-point order among themselves), where ICU4X would read it
/// as U+FFFD (after nearly everything). Each is compared as a private-use
/// stand-in ([`surrogate_stand_in`]), which collates the same way against
/// every character but the private-use ones it stands on, U+E000..=U+E7FF
/// (V8 puts every lone surrogate before those).
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let Some(collator) = ROOT_COLLATOR.as_ref() else { return cmp_utf16(a, b) };
    if a.contains(MARK) || b.contains(MARK) {
        // Lone surrogates (and a literal U+10FFFD) are held as marks.
        return collator.compare(&with_surrogate_stand_ins(a), &with_surrogate_stand_ins(b));
    }
    collator.compare(a, b)
}

/// The collation stand-in of a lone surrogate: U+D800..=U+DFFF go to
/// U+E000..=U+E7FF, the first private-use code points. ICU gives surrogates,
/// unassigned and private-use code points implicit weights in code-point
/// order, and no other character's weight falls between U+D7FF's and
/// U+E000's, so only the private-use characters stood on collate otherwise.
fn surrogate_stand_in(unit: u16) -> char {
    char::from_u32(u32::from(unit) + 0x800).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The text with each lone surrogate replaced by its stand-in.
fn with_surrogate_stand_ins(text: &str) -> String {
    js_chars(text)
        .map(|c| match c {
            JsChar::Scalar(c) => c,
            JsChar::LoneSurrogate(unit) => surrogate_stand_in(unit),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;
    use serde_json::json;

    /// The merge sort as it was written before it sorted positions: items
    /// moved through every level.
    fn moving_merge_sort<T>(mut items: Vec<T>, compare: &mut impl FnMut(&T, &T) -> Ordering) -> Vec<T> {
        if items.len() <= 1 {
            return items;
        }
        let right = items.split_off(items.len() / 2);
        let (left, right) = (moving_merge_sort(items, compare), moving_merge_sort(right, compare));
        let mut merged = Vec::with_capacity(left.len() + right.len());
        let mut left = left.into_iter().peekable();
        let mut right = right.into_iter().peekable();
        loop {
            let take_right = match (left.peek(), right.peek()) {
                (Some(l), Some(r)) => compare(r, l) == Ordering::Less,
                (Some(_), None) => false,
                (None, Some(_)) => true,
                (None, None) => break,
            };
            merged.extend(if take_right { right.next() } else { left.next() });
        }
        merged
    }

    #[test]
    fn sort_by_asks_and_orders_as_the_merge_of_items_did_even_for_comparators_that_are_no_order() {
        // A comparator that answers from a fixed pseudo-random stream (no
        // order at all) and one that is a preorder with ties, over lengths
        // that split unevenly: the pairs asked and the results must match.
        for length in 0..40usize {
            let items: Vec<(usize, u32)> = (0..length).map(|i| (i, (i as u32 * 7919) % 5)).collect();
            fn arbitrary(calls: &mut Vec<(usize, usize)>) -> impl FnMut(&(usize, u32), &(usize, u32)) -> Ordering + '_ {
                move |a, b| {
                    calls.push((a.0, b.0));
                    match (calls.len() * 2_654_435_761) % 3 {
                        0 => Ordering::Less,
                        1 => Ordering::Equal,
                        _ => Ordering::Greater,
                    }
                }
            }
            let (mut asked, mut asked_before) = (Vec::new(), Vec::new());
            let sorted = sort_by(items.clone(), arbitrary(&mut asked));
            let before = moving_merge_sort(items.clone(), &mut arbitrary(&mut asked_before));
            assert_eq!(sorted, before, "length {length}");
            assert_eq!(asked, asked_before, "length {length}");
            let by_key = sort_by(items.clone(), |a, b| a.1.cmp(&b.1));
            assert_eq!(by_key, moving_merge_sort(items.clone(), &mut |a, b| a.1.cmp(&b.1)));
            let mut stable = items.clone();
            stable.sort_by_key(|item| item.1);
            assert_eq!(by_key, stable, "length {length}");
        }
    }

    #[test]
    fn integers_are_read_as_javascript_numbers_however_written() {
        let read = |text: &str| js_uint(Some(&crate::json::parse_value(text).unwrap_or_else(|e| panic!("{e}"))));
        assert_eq!(
            (read("0"), read("-0"), read("0.0"), read("3"), read("3.0"), read("3e0")),
            (Some(0), Some(0), Some(0), Some(3), Some(3), Some(3))
        );
        assert_eq!((read("-1"), read("1.5"), read("\"1\""), read("null")), (None, None, None, None));
    }

    #[test]
    fn truthiness_follows_javascript() {
        for falsy in [json!(null), json!(false), json!(0), json!(-0.0), json!("")] {
            assert!(!truthy(Some(&falsy)), "{falsy}");
        }
        for truthy_value in [json!(true), json!(1), json!("false"), json!("0"), json!([]), json!({}), json!(0.5)] {
            assert!(truthy(Some(&truthy_value)), "{truthy_value}");
        }
        assert!(!truthy(None));
        assert_eq!(or(Some(&json!("")), Some(&json!("b"))), Some(&json!("b")));
    }

    #[test]
    fn trim_uses_the_javascript_whitespace_set() {
        assert_eq!(trim("\u{feff}\u{a0} x \u{3000}"), "x");
        // U+0085 is Unicode White_Space but not ECMAScript whitespace.
        assert_eq!(trim("\u{85}x\u{85}"), "\u{85}x\u{85}");
    }

    #[test]
    fn the_regexp_classes_match_the_character_predicates() -> Result<(), regex::Error> {
        let (space, non_space, dot) = (
            Regex::new(&format!("^{SPACE_CLASS}$"))?,
            Regex::new(&format!("^{NON_SPACE_CLASS}$"))?,
            Regex::new(&format!("^{DOT_CLASS}$"))?,
        );
        for c in (0..=0xFFFF).filter_map(char::from_u32) {
            let text = c.to_string();
            assert_eq!(space.is_match(&text), is_whitespace(c), "\\s on U+{:04X}", c as u32);
            assert_eq!(non_space.is_match(&text), !is_whitespace(c), "\\S on U+{:04X}", c as u32);
            assert_eq!(dot.is_match(&text), !is_line_terminator(c), ". on U+{:04X}", c as u32);
        }
        Ok(())
    }

    #[test]
    fn patterns_translate_to_javascript_meaning() -> Result<(), regex::Error> {
        let pattern = Regex::new(&js_pattern(r"^rm\s.\b\/"))?;
        assert!(pattern.is_match("rm\u{feff}x/"));
        assert!(!pattern.is_match("rm\u{85}x/"));
        assert!(!pattern.is_match("rm \nx/"));
        Ok(())
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
    fn string_to_number_follows_the_string_numeric_literal_grammar() {
        for (text, expected) in [
            ("", 0.0),
            (" \u{feff}\n", 0.0),
            (" 12 ", 12.0),
            ("-1.5e3", -1500.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("+Infinity", f64::INFINITY),
            ("0x1F", 31.0),
            ("0b101", 5.0),
            ("0o17", 15.0),
            ("00012", 12.0),
        ] {
            assert_eq!(string_to_number(text), expected, "{text:?}");
        }
        for text in ["abc", "1_000", "1n", "0x", "-0x1", "inf", "Infinityx", "1e", "e5", ".", "1 2", "\u{85}1"] {
            assert!(string_to_number(text).is_nan(), "{text:?}");
        }
    }

    #[test]
    fn loose_comparisons_convert_like_javascript() {
        let (one, two) = (json!(1), json!(2));
        // `"" < 1`, `" " < 1`, `[] < 1`, `null < 1`, `false < 1` (all 0), `true < 2`.
        for zero in [json!(""), json!(" "), json!([]), json!(null), json!(false)] {
            assert!(loose_less_than(Some(&zero), Some(&one)), "{zero} < 1");
            assert!(!loose_greater_than(Some(&zero), Some(&json!(0))), "{zero} > 0");
        }
        assert!(loose_less_than(Some(&json!(true)), Some(&two)));
        assert!(!loose_less_than(Some(&json!(true)), Some(&one)));
        // `{}` is NaN: never less, never greater.
        assert!(!loose_less_than(Some(&json!({})), Some(&one)));
        assert!(!loose_greater_than(Some(&json!({})), Some(&one)));
        assert!(!loose_less_than(None, Some(&one)));
        // `[5] < 6`: "5" then 5; two strings compare by code units.
        assert!(loose_less_than(Some(&json!([5])), Some(&json!(6))));
        assert!(loose_less_than(Some(&json!("10")), Some(&json!("9"))));
        assert!(!loose_less_than(Some(&json!("10")), Some(&json!(9))));
        assert_eq!(to_number(Some(&json!([[7]]))), 7.0);
        assert!(to_number(Some(&json!([1, 2]))).is_nan());
    }

    #[test]
    fn math_min_propagates_nan_and_prefers_negative_zero() {
        assert!(math_min(f64::NAN, 1.0).is_nan());
        assert!(math_min(1.0, f64::NAN).is_nan());
        assert!(math_min(0.0, -0.0).is_sign_negative());
        assert_eq!(math_min(3.0, -2.0), -2.0);
    }

    #[test]
    fn locale_compare_is_the_icu_root_collation() {
        // The order V8 (ICU 78, Node 20) gives these ids with `localeCompare`.
        let v8_order = ["_", "-", ".", "😀", "1", "a", "A", "a_b", "a-b", "ab", "aB", "Ab", "b", "B", "E", "é"];
        let mut ids = v8_order.to_vec();
        ids.reverse();
        ids.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(ids, v8_order);
        assert_eq!(locale_compare("a", "a"), Ordering::Equal);
        assert_eq!(locale_compare("a10", "a9"), Ordering::Less, "no numeric ordering");
        assert_eq!(locale_compare("msg_2", "msg-1"), Ordering::Less, "`_` sorts before `-`");
        assert_eq!(locale_compare("Z", "ä"), Ordering::Greater);
        // Completely ignorable characters do not count (V8 answers 0 too).
        assert_eq!(locale_compare("a\u{1}", "a"), Ordering::Equal);
    }

    #[test]
    fn lone_surrogates_collate_as_v8_collates_them() {
        // The order V8 (ICU 78, Node 20) gives these strings, as UTF-16 units:
        // lone surrogates after U+D7FF, in code-point order, before the
        // private-use U+E800, U+10FFFF and U+FFFD.
        let units: [&[u16]; 11] = [
            &[0x61],
            &[0x61, 0xDFFF],
            &[0x7A],
            &[0xD7FF],
            &[0xD800],
            &[0xD800, 0xD800],
            &[0xDBFF],
            &[0xDC00, 0x62],
            &[0xE800],
            &[0xDBFF, 0xDFFF],
            &[0xFFFD],
        ];
        let v8_order: Vec<String> = units.iter().map(|units| crate::json::from_utf16(units)).collect();
        let mut texts = v8_order.clone();
        texts.reverse();
        texts.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(texts, v8_order);
        // A literal U+10FFFD (held as a doubled mark) is itself.
        let literal = crate::json::from_utf16(&[0xDBFF, 0xDFFD]);
        assert!(literal.contains(MARK));
        assert_eq!(locale_compare(&literal, "\u{10FFFD}"), Ordering::Equal);
        assert_eq!(locale_compare(&literal, "\u{FFFD}"), Ordering::Less, "V8: -1");
    }

    #[test]
    fn collapse_whitespace_matches_replace_and_trim() {
        assert_eq!(collapse_whitespace("  Do  the\nthing \t"), "Do the thing");
        assert_eq!(collapse_whitespace(" \n "), "");
    }
}
