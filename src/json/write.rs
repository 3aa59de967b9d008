//! JSON text exactly as JavaScript writes it.
//!
//! One writer serves two layouts: the canonical fixture format (4-space
//! indent, index-like keys first and the rest sorted by UTF-16 code units, one
//! trailing newline) and `JSON.stringify(value, null, n)` (insertion order),
//! which the chat pipeline's fallback texts use. Numbers follow ECMAScript's
//! Number-to-String rule and strings follow `JSON.stringify`'s escaping, so
//! the bytes match what the HAPI web generator writes.

use super::jsstring::{JsChar, js_chars};
use super::order::{KeyOrder, ordered_keys};
use serde_json::{Number, Value};
use std::fmt::Write as _;

/// Layout options for [`write_value`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Spaces per nesting level; 0 writes compact JSON with no whitespace.
    pub indent: usize,
    /// How object keys are ordered.
    pub order: KeyOrder,
}

impl Style {
    /// The fixture file format: 4 spaces, canonical key order.
    pub const CANONICAL: Style = Style { indent: 4, order: KeyOrder::Canonical };
    /// `JSON.stringify(value, null, 2)`.
    pub const STRINGIFY_PRETTY: Style = Style { indent: 2, order: KeyOrder::Insertion };
    /// `JSON.stringify(value)`.
    pub const STRINGIFY_COMPACT: Style = Style { indent: 0, order: KeyOrder::Insertion };
    /// Compact JSON with canonical key order (for one-line messages).
    pub const CANONICAL_COMPACT: Style = Style { indent: 0, order: KeyOrder::Canonical };
}

/// Serializes a value in the canonical fixture format, with a trailing newline.
pub fn to_canonical_string(value: &Value) -> String {
    let mut out = write_value(value, Style::CANONICAL);
    out.push('\n');
    out
}

/// Serializes a value in the given style (no trailing newline).
pub fn write_value(value: &Value, style: Style) -> String {
    let mut out = String::new();
    write_into(&mut out, value, style, 0, usize::MAX);
    out
}

/// The first bytes of [`write_value`]'s text: writing stops soon after
/// `max_bytes` (at the next array item or object member), so a huge value
/// costs no more than that. The flag says whether the text is complete.
pub fn write_value_prefix(value: &Value, style: Style, max_bytes: usize) -> (String, bool) {
    let mut out = String::new();
    write_into(&mut out, value, style, 0, max_bytes);
    let complete = out.len() <= max_bytes;
    (out, complete)
}

/// Serializes a value as one line with canonical key order.
pub fn to_compact_string(value: &Value) -> String {
    write_value(value, Style::CANONICAL_COMPACT)
}

fn write_into(out: &mut String, value: &Value, style: Style, depth: usize, limit: usize) {
    // Fixtures may nest thousands of levels deep; grow the stack instead of
    // overflowing it.
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) if out.len().saturating_add(s.len()) > limit => {
            // Past the limit anyway: write only the head of a huge string.
            let mut end = limit.saturating_sub(out.len()).min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            write_string(out, &s[..end]);
            out.push('\u{2026}');
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if out.len() > limit {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                newline_and_indent(out, style, depth + 1);
                write_into(out, item, style, depth + 1, limit);
            }
            newline_and_indent(out, style, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, key) in ordered_keys(map.keys(), style.order).into_iter().enumerate() {
                if out.len() > limit {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                newline_and_indent(out, style, depth + 1);
                write_string(out, key);
                out.push(':');
                if style.indent > 0 {
                    out.push(' ');
                }
                if let Some(member) = map.get(key) {
                    write_into(out, member, style, depth + 1, limit);
                }
            }
            newline_and_indent(out, style, depth);
            out.push('}');
        }
    })
}

fn newline_and_indent(out: &mut String, style: Style, depth: usize) {
    if style.indent == 0 {
        return;
    }
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', style.indent * depth));
}

/// Writes a number as ECMAScript's Number::toString does.
///
/// Integers that do not fit a double exactly are rounded to the nearest
/// double first, as `JSON.parse` would have done.
pub fn write_number(out: &mut String, number: &Number) {
    let value = number.as_f64().unwrap_or(f64::NAN);
    out.push_str(&format_js_number(value));
}

/// Formats a double as ECMAScript's Number::toString, with non-finite values
/// written as `null` (what `JSON.stringify` does).
pub fn format_js_number(value: f64) -> String {
    if !value.is_finite() {
        return "null".to_owned();
    }
    if value == 0.0 {
        // Covers -0, which JavaScript prints as "0".
        return "0".to_owned();
    }
    let mut buffer = ryu_js::Buffer::new();
    buffer.format_finite(value).to_owned()
}

/// Writes a string literal with `JSON.stringify`'s escaping.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    // Most strings need no escape and hold no mark (whose UTF-8 starts with
    // 0xF4): copied whole.
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b != 0xF4) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut chars = js_chars(s).peekable();
    while let Some(c) = chars.next() {
        match c {
            JsChar::Scalar(c) => match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\u{c}' => out.push_str("\\f"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            },
            // A lone high surrogate stored before a lone low one is the
            // pair JavaScript holds: written as its character.
            JsChar::LoneSurrogate(high @ 0xD800..0xDC00)
                if let Some(&JsChar::LoneSurrogate(low @ 0xDC00..0xE000)) = chars.peek() =>
            {
                chars.next();
                let scalar = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                out.push(char::from_u32(scalar).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            JsChar::LoneSurrogate(unit) => {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_follow_ecmascript_number_to_string() {
        let cases = [
            (1e2, "100"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (999999999999999900000.0, "999999999999999900000"),
            (-0.0, "0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (1755000000000.0, "1755000000000"),
            (-4.21, "-4.21"),
        ];
        for (value, expected) in cases {
            assert_eq!(format_js_number(value), expected, "{value:e}");
        }
        assert_eq!(format_js_number(f64::INFINITY), "null");
    }

    #[test]
    fn integers_beyond_2_pow_53_round_like_json_parse() {
        let value: Value = serde_json::from_str("12345678901234567890").unwrap();
        assert_eq!(write_value(&value, Style::CANONICAL), "12345678901234567000");
    }

    #[test]
    fn strings_are_escaped_like_json_stringify() {
        let s = "\"\\\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}/\u{2028}é";
        let mut out = String::new();
        write_string(&mut out, s);
        assert_eq!(out, "\"\\\"\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\u{7f}/\u{2028}é\"");
    }

    #[test]
    fn canonical_layout_matches_the_fixture_files() {
        let value = json!({"b": [1, {}], "10": [], "9": {"z": null, "a": true}, "a": "x"});
        let expected = "{\n    \"9\": {\n        \"a\": true,\n        \"z\": null\n    },\n    \"10\": [],\n    \"a\": \"x\",\n    \"b\": [\n        1,\n        {}\n    ]\n}\n";
        assert_eq!(to_canonical_string(&value), expected);
    }

    #[test]
    fn stringify_keeps_insertion_order_after_index_keys() {
        let value: Value =
            serde_json::from_str(r#"{"type":"result","n":1e21,"s":"é\u0007","10":true,"2":[]}"#).unwrap();
        let expected =
            "{\n  \"2\": [],\n  \"10\": true,\n  \"type\": \"result\",\n  \"n\": 1e+21,\n  \"s\": \"é\\u0007\"\n}";
        assert_eq!(write_value(&value, Style::STRINGIFY_PRETTY), expected);
        assert_eq!(write_value(&json!({"a": [1, 2]}), Style::STRINGIFY_COMPACT), r#"{"a":[1,2]}"#);
    }
}
