//! The JavaScript semantics the seed's rules are written in: truthiness,
//! `String.prototype.trim`, and the `\s` / `.` character classes of
//! `RegExp`, spelled out so Rust regular expressions match exactly what the
//! JavaScript originals match.

use serde_json::Value;

/// `RegExp`'s `\s`: ECMAScript WhiteSpace plus LineTerminator. Unlike
/// Unicode `White_Space` it includes U+FEFF and excludes U+0085.
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
/// `\s`, `\b` and `.` become the classes above, `\/` becomes `/`.
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

/// Whether `c` is whitespace to `String.prototype.trim` and `\s`.
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// `String.prototype.trim`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// JavaScript truthiness of a JSON value (`undefined` is `None`).
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `a || b` for JSON values: the first operand when truthy, else the second.
pub fn or<'a>(a: Option<&'a Value>, b: Option<&'a Value>) -> Option<&'a Value> {
    if truthy(a) { a } else { b }
}

/// A string member that is present and non-empty (the common `if (x.y)`
/// guard on a string field).
pub fn non_empty_str(value: Option<&Value>) -> Option<&str> {
    value.and_then(Value::as_str).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn trim_follows_ecmascript_not_unicode_white_space() {
        assert_eq!(trim("\u{FEFF} a \u{A0}"), "a");
        // U+0085 is Unicode White_Space but not ECMAScript whitespace.
        assert_eq!(trim("\u{85}a"), "\u{85}a");
    }

    #[test]
    fn truthiness_matches_javascript() {
        for falsy in [json!(null), json!(false), json!(0), json!(-0.0), json!("")] {
            assert!(!truthy(Some(&falsy)), "{falsy} should be falsy");
        }
        for truthy_value in [json!(true), json!(1), json!("0"), json!([]), json!({})] {
            assert!(truthy(Some(&truthy_value)), "{truthy_value} should be truthy");
        }
        assert!(!truthy(None));
    }
}
