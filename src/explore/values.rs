//! The values mutations plant: type-confusing and boundary values, and
//! small edits of strings and numbers where decoders written in other
//! languages tend to differ from JavaScript (UTF-16 lengths, lone
//! surrogates, the JavaScript whitespace set, number formatting).

use crate::json::{from_utf16, to_utf16};
use crate::suite_api::Chooser;
use serde_json::{Map, Number, Value};

/// Length of the "very long string" values, in characters.
pub const LONG_STRING_CHARS: usize = 10_000;

/// Deepest nesting a mutation plants (far inside the harness's 10,000-level
/// document limit, and deep enough for a recursive decoder to notice).
pub const MAX_PLANTED_DEPTH: usize = 200;

/// A lone high surrogate as the crate stores it.
pub fn lone_high() -> String {
    from_utf16(&[0xD800])
}

/// A lone low surrogate as the crate stores it.
pub fn lone_low() -> String {
    from_utf16(&[0xDC00])
}

/// `value` as parsing its JavaScript text would store it (see
/// [`crate::suite_api::mutate::js_number`]).
pub fn number(value: f64) -> Value {
    crate::suite_api::mutate::js_number(value)
}

/// A type-confusing or boundary value, with a short name for the mutation
/// path.
pub fn boundary(chooser: &mut Chooser) -> (Value, String) {
    let choice = chooser.below(22);
    let value = match choice {
        0 => Value::String(String::new()),
        1 => Value::Null,
        2 => Value::from(0),
        3 => Value::from(-1),
        4 => number(1.5),
        5 => number(1e21),
        6 => number(-0.0),
        7 => Value::String("x".repeat(LONG_STRING_CHARS)),
        8 => Value::String(lone_high()),
        9 => Value::String(format!("a{}b", lone_low())),
        10 => Value::String("line\u{2028}separator".to_owned()),
        11 => Value::String("😀".to_owned()),
        12 => Value::Bool(true),
        13 => Value::Bool(false),
        14 => Value::Array(Vec::new()),
        15 => Value::Object(Map::new()),
        16 => Value::String("0".to_owned()),
        17 => Value::String(" ".to_owned()),
        18 => nested(chooser.below(MAX_PLANTED_DEPTH) + 2),
        19 => number(9_007_199_254_740_993.0),
        20 => Value::String("\u{FEFF}".to_owned()),
        _ => Value::String("false".to_owned()),
    };
    let name = describe(&value);
    (value, name)
}

/// `[[[…]]]` nested `depth` levels.
pub fn nested(depth: usize) -> Value {
    (0..depth).fold(Value::Array(Vec::new()), |inner, _| Value::Array(vec![inner]))
}

/// A short description of a planted value for the mutation path.
pub fn describe(value: &Value) -> String {
    match value {
        Value::String(text) if text.chars().count() > 40 => format!("a string of {} characters", text.chars().count()),
        Value::Array(items) if items.len() == 1 && items[0].is_array() => {
            let mut depth = 0;
            let mut node = value;
            while let Some(Value::Array(inner)) = Some(node) {
                depth += 1;
                match inner.first() {
                    Some(next) => node = next,
                    None => break,
                }
            }
            format!("arrays nested {depth} deep")
        }
        Value::Number(n) if n.as_f64().is_some_and(|f| f == 0.0 && f.is_sign_negative()) => "-0".to_owned(),
        other => {
            let text = crate::json::to_compact_string(other);
            if text.chars().count() > 60 { format!("{}…", text.chars().take(60).collect::<String>()) } else { text }
        }
    }
}

/// A small edit of a string, with what it did. The result is a JavaScript
/// string in the crate's encoding (see [`crate::json::from_utf16`]): edits
/// work on UTF-16 code units, so a cut may split a surrogate pair (a lone
/// surrogate, as JavaScript would make it) but never the two characters
/// that store one, and a lone high surrogate put before a lone low one
/// becomes the pair JavaScript would see.
pub fn tweak_string(text: &str, chooser: &mut Chooser) -> (String, &'static str) {
    let (edited, how) = match chooser.below(14) {
        0 => (String::new(), "empty"),
        1 => (format!("{text}{}", lone_high()), "a lone surrogate appended"),
        2 => (format!("{}{text}", lone_low()), "a lone surrogate prepended"),
        3 => (format!("\u{FEFF}{text}\u{FEFF}"), "wrapped in U+FEFF"),
        4 => (format!("{text}\u{2028}"), "U+2028 appended"),
        5 => (format!("😀{text}"), "an emoji prepended"),
        6 => (format!(" \t{text}\n "), "wrapped in whitespace"),
        7 => (text.to_uppercase(), "upper-cased"),
        8 => {
            let units = to_utf16(text);
            let long: Vec<u16> =
                units.iter().copied().cycle().take(if units.is_empty() { 0 } else { LONG_STRING_CHARS }).collect();
            (from_utf16(&long), "made long")
        }
        9 => (format!("\u{1C}{text}\u{85}"), "wrapped in U+001C and U+0085"),
        10 => (format!("{text}\u{00A0}"), "U+00A0 appended"),
        11 => {
            let units = to_utf16(text);
            (from_utf16(&units[..units.len() / 2]), "cut in half (UTF-16 units)")
        }
        12 => (format!("{text}\u{0301}"), "a combining mark appended"),
        _ => (format!("{}{text}", from_utf16(&[0xDBFF, 0xDFFD])), "U+10FFFD prepended"),
    };
    // Joining stored strings joins their code units: normalize the storage.
    (from_utf16(&to_utf16(&edited)), how)
}

/// A small edit of a number, with what it became.
pub fn tweak_number(value: &Number, chooser: &mut Chooser) -> Value {
    let n = value.as_f64().unwrap_or(0.0);
    match chooser.below(9) {
        0 => number(n + 1.0),
        1 => number(n - 1.0),
        2 => number(-n),
        3 => Value::from(0),
        4 => number(n + 0.5),
        5 => number(n * 1000.0),
        6 => number(1e21),
        7 => number(-0.0),
        _ => Value::String(crate::json::format_js_number(n)),
    }
}

/// Keys for unknown members: array-index-like ones (JavaScript orders them
/// first, ascending), names with meaning in JavaScript, and plain ones.
pub const UNKNOWN_KEYS: &[&str] =
    &["0", "1", "10", "2", "4294967295", "__proto__", "constructor", "toString", "", "zz_unknown", "-1", "01"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_values_cover_the_issue_list() {
        let mut chooser = Chooser::new(9);
        let names: std::collections::BTreeSet<String> = (0..2000).map(|_| boundary(&mut chooser).1).collect();
        for wanted in ["\"\"", "null", "0", "-1", "1.5", "1e+21", "-0", "true", "[]", "{}", "\"😀\""] {
            assert!(names.contains(wanted), "{wanted} missing from {names:?}");
        }
        assert!(names.iter().any(|n| n.starts_with("a string of 10000")));
        assert!(names.iter().any(|n| n.starts_with("arrays nested")));
        let lone = crate::json::to_compact_string(&Value::String(lone_high()));
        assert_eq!(lone, "\"\\ud800\"");
    }

    #[test]
    fn string_edits_keep_the_storage_of_javascript_strings_canonical() {
        // A lone low surrogate before an astral character, then cut: every
        // edit's result must read back the same after a canonical round trip
        // (the protocol path), or the two sides would see different strings.
        let mut chooser = Chooser::new(5);
        let texts =
            [format!("{}😀x", lone_low()), format!("a{}", lone_high()), "\u{10FFFD}".to_owned(), "😀".to_owned()];
        for _ in 0..400 {
            for text in &texts {
                let text = from_utf16(&to_utf16(text));
                let (edited, how) = tweak_string(&text, &mut chooser);
                let written = crate::json::to_compact_string(&Value::String(edited.clone()));
                let back = crate::json::parse_value(&written).unwrap_or_else(|err| panic!("{how}: {err}"));
                assert_eq!(back, Value::String(edited), "{how} on {written}");
            }
        }
        // A lone high surrogate then a lone low one is the pair JavaScript sees.
        let joined = from_utf16(&to_utf16(&format!("{}{}", lone_high(), lone_low())));
        assert_eq!(to_utf16(&joined), [0xD800, 0xDC00]);
        assert_eq!(joined, "\u{10000}");
    }

    #[test]
    fn nesting_stays_within_the_planted_limit() {
        let mut chooser = Chooser::new(1);
        for _ in 0..500 {
            let (value, _) = boundary(&mut chooser);
            let mut depth = 0;
            let mut node = &value;
            while let Value::Array(items) = node {
                depth += 1;
                match items.first() {
                    Some(next) => node = next,
                    None => break,
                }
            }
            assert!(depth <= MAX_PLANTED_DEPTH + 2);
        }
    }
}
