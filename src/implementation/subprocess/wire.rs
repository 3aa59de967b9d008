//! JSON on the wire.
//!
//! A case's input goes out as its exact canonical text ([`write_input`]):
//! members in canonical key order and numbers as JavaScript writes them,
//! the text a JavaScript hub would send for the input the reference computes
//! on (see [`crate::json::canonical`]). A port that reads integers strictly
//! or keeps members in arrival order sees what the reference saw.
//!
//! Results (the adapter's replies) are written and every reply is read with
//! serde_json's own (much faster) writer and parser whenever that gives
//! exactly what the crate's JavaScript-exact [`crate::json`] module would,
//! and with that module otherwise: the only values where the two differ are
//! strings holding lone surrogates (or a literal U+10FFFD, the character
//! [`crate::json::MARK`] the JSON module uses to store them) and documents
//! nested deeper than serde_json's recursion limit. Key order and number
//! spelling of a result do not matter: outputs are compared canonically.

use crate::json::{self, JsonError, Style};
use serde::Serialize;
use serde_json::Value;

/// UTF-8 of [`crate::json::MARK`] (U+10FFFD).
const MARK_BYTES: [u8; 4] = [0xF4, 0x8F, 0xBF, 0xBD];

fn contains_mark(bytes: &[u8]) -> bool {
    bytes.windows(4).any(|window| window == MARK_BYTES)
}

/// Appends the canonical text of a case's input to `out`: one line, the
/// text of [`crate::json::canonical`]`(input)`.
pub fn write_input(input: &Value, out: &mut String) {
    out.push_str(&json::write_value(input, Style::CANONICAL_COMPACT));
}

/// Appends `value` as compact JSON to `out` (a result: any spelling).
pub fn write(value: &Value, out: &mut String) {
    let mut bytes = Vec::with_capacity(256);
    let mut serializer = serde_json::Serializer::new(&mut bytes);
    // serde_stacker grows the stack for deep values, as the JSON module does.
    let written = value.serialize(serde_stacker::Serializer::new(&mut serializer));
    match (written, String::from_utf8(bytes)) {
        (Ok(()), Ok(text)) if !contains_mark(text.as_bytes()) => out.push_str(&text),
        _ => out.push_str(&json::write_value(value, Style::STRINGIFY_COMPACT)),
    }
}

/// Texts at least this long take the careful path, which bounds the number
/// of values and allocates arrays at their final size (a large reply).
const FAST_PATH_BYTES: usize = 64 << 10;

/// Parses one JSON value, exactly as [`crate::json::parse_bounded`] does
/// (same value, same errors).
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let bytes = text.as_bytes();
    // A value takes at least two bytes of text (`1,`, `[]`), so a short
    // text cannot exceed the value limit.
    let short = text.len() < FAST_PATH_BYTES && (text.len() as u64) / 2 < json::max_values();
    let escapes_surrogates = bytes.windows(3).any(|w| w[0] == b'\\' && w[1] == b'u' && matches!(w[2], b'd' | b'D'));
    if short
        && !escapes_surrogates
        && !contains_mark(bytes)
        && let Ok(value) = serde_json::from_str::<Value>(text)
    {
        return Ok(value);
    }
    json::parse_bounded(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(value: &Value) -> String {
        let mut out = String::new();
        write(value, &mut out);
        out
    }

    #[test]
    fn values_survive_the_wire_exactly() {
        let texts = [
            r#"{"a":[1,2.5,-0,1e21,1e-7,12345678901234567890,-9007199254740993],"b":null,"c":true}"#,
            r#"{"s":"tab\tquote\"back\\slash/ \u2028 é 😀 \u0001"}"#,
            r#"{"lone":"\ud800x\udc00","pair":"\ud83d\ude00","mark":"\udbff\udffd","raw":"􏿽"}"#,
            r#"{"10":1,"2":2,"b":3,"a":4}"#,
        ];
        for text in texts {
            let careful = json::parse_value(text).unwrap();
            let fast = parse(text).unwrap();
            assert_eq!(fast, careful, "{text}");
            let line = written(&careful);
            assert!(!line.contains('\n'));
            assert_eq!(json::parse_value(&line).unwrap(), careful, "{line}");
            assert_eq!(parse(&line).unwrap(), careful, "{line}");
        }
        let lone = json::parse_value(r#""\ud800""#).unwrap();
        assert_eq!(written(&lone), r#""\ud800""#, "lone surrogates go out as escapes");
    }

    #[test]
    fn deep_values_take_the_careful_path() {
        for depth in [200usize, 20_000] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let run = move || {
                let fast = parse(&text);
                let careful = json::parse_value(&text);
                assert_eq!(fast, careful);
                if let Ok(value) = fast {
                    assert_eq!(written(&value), text);
                }
            };
            std::thread::Builder::new().stack_size(64 << 20).spawn(run).unwrap().join().unwrap();
        }
    }

    #[test]
    fn errors_are_those_of_the_json_module() {
        for text in ["", "{", "[1,]", "{} x", "nul", "[1e400]"] {
            assert_eq!(parse(text), json::parse_value(text), "{text:?}");
        }
        assert_eq!(parse("{\"output\": -1e400}").unwrap_err().message, json::OUT_OF_RANGE);
    }

    #[test]
    fn a_large_reply_is_bounded_by_the_value_limit() {
        let text = format!("[{}0]", "0,".repeat(usize::try_from(json::max_values()).unwrap()));
        assert_eq!(parse(&text).unwrap_err().kind, json::JsonErrorKind::TooManyValues);
        let large = format!("[{}0]", "123456,".repeat(20_000));
        assert_eq!(parse(&large).unwrap().as_array().unwrap().capacity(), 20_001, "allocated at its final size");
    }
}
