//! Parsing JSON documents: exact numbers, insertion order, lone surrogates,
//! deep nesting without stack overflow, bounded memory (see [`super::scan`]),
//! and errors with line and column.
//!
//! Numbers must be finite: `1e400` is refused (see [`OUT_OF_RANGE`]).

use super::jsstring::encode_lone_surrogates;
use super::scan::{max_values, scan};
use super::sized::SizedValue;
use serde::de::DeserializeSeed;
use serde_json::Value;
use std::cell::Cell;
use thiserror::Error;

/// Deepest nesting of arrays and objects a document may have.
///
/// Deeper documents are rejected with [`JsonErrorKind::TooDeep`] before
/// anything recursive touches them.
pub const MAX_DEPTH: usize = 10_000;

/// Why a JSON text could not be parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonErrorKind {
    /// Not valid JSON (including trailing characters and invalid UTF-8).
    Syntax,
    /// The text ended in the middle of a value.
    Eof,
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The text is empty or only whitespace.
    Empty,
    /// More values than [`super::max_values`] allows.
    TooManyValues,
}

/// Why a number beyond the range of a double (`1e400`, `-1e400`) is refused
/// rather than read as `JSON.parse` reads it (`Infinity`): no JSON text can
/// hold an infinity (`JSON.stringify` writes it as `null`), so a document
/// holding one could never be written back canonically, and an output
/// holding one could not cross the protocol as JSON. The suites follow the
/// documents as JSON carries them: finite numbers only.
pub const OUT_OF_RANGE: &str = "number out of range: JSON.parse reads it as Infinity, which no JSON text can hold \
                                (JSON.stringify writes null); conform accepts finite numbers only";

/// A parse failure with a 1-based position in the text.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}, column {column}: {message}")]
pub struct JsonError {
    /// What kind of failure this is.
    pub kind: JsonErrorKind,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number (in characters).
    pub column: usize,
    /// Human-readable description.
    pub message: String,
}

/// A parsed document and the form problems noticed while reading it.
#[derive(Debug)]
pub struct ParsedDocument {
    /// The parsed value.
    pub value: Value,
    /// The text started with a UTF-8 byte order mark (which was ignored).
    pub had_bom: bool,
    /// The text used CRLF line endings somewhere.
    pub had_crlf: bool,
}

/// Parses a document read from a file: a leading byte order mark is ignored
/// (and reported), everything else must be exactly one JSON value, of at
/// most [`super::max_values`] values.
pub fn parse_document(text: &str) -> Result<ParsedDocument, JsonError> {
    let (body, had_bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, true),
        None => (text, false),
    };
    let value = parse_bounded(body)?;
    Ok(ParsedDocument { value, had_bom, had_crlf: body.contains("\r\n") })
}

/// Parses the JSON text a JavaScript string holds (a raw protocol line
/// carried as a string value), as `JSON.parse` would: `text` is stored as
/// the crate stores strings (see [`super::jsstring`]), so a literal U+10FFFD
/// in it counts once and a lone surrogate in it reads as one.
pub fn parse_js_string(text: &str) -> Result<Value, JsonError> {
    if !text.contains(super::MARK) {
        return parse_value(text);
    }
    let mut plain = String::with_capacity(text.len());
    for c in super::js_chars(text) {
        match c {
            super::JsChar::Scalar(c) => plain.push(c),
            // Only inside a string is a lone surrogate valid JSON text; there
            // the escape means the same code unit.
            super::JsChar::LoneSurrogate(unit) => plain.push_str(&format!("\\u{unit:04x}")),
        }
    }
    parse_value(&plain)
}

/// Parses exactly one JSON value, of any number of values: for texts the
/// crate holds already (embedded schemas, JSON inside a parsed document,
/// which a reference must read as `JSON.parse` would). What comes from
/// outside goes through [`parse_bounded`] or [`parse_document`].
pub fn parse_value(text: &str) -> Result<Value, JsonError> {
    parse_within(text, u64::MAX)
}

/// Parses exactly one JSON value of at most [`super::max_values`] values:
/// for texts from outside (a reply, a request, an input on stdin).
pub fn parse_bounded(text: &str) -> Result<Value, JsonError> {
    parse_within(text, max_values())
}

fn parse_within(text: &str, max_values: u64) -> Result<Value, JsonError> {
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(JsonError {
            kind: JsonErrorKind::Empty,
            line: 1,
            column: 1,
            message: "the file is empty; expected a JSON document".to_owned(),
        });
    }
    let shape = scan(text, max_values)?;
    let text = encode_lone_surrogates(text);
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    // The scan above bounds the nesting; serde_stacker grows the stack so
    // that this bounded recursion cannot overflow it.
    deserializer.disable_recursion_limit();
    let next = Cell::new(0);
    let seed = SizedValue { sizes: &shape.sizes, next: &next };
    let value = seed
        .deserialize(serde_stacker::Deserializer::new(&mut deserializer))
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|err| from_serde(&err))?;
    Ok(value)
}

/// One member of a document's top-level object, read without building the
/// rest: the text is checked exactly as [`parse_bounded`] checks it (syntax,
/// nesting, value count), but only the member named `name` becomes a
/// [`Value`]. `Ok(None)` when the document is not an object or has no such
/// member. Corpus-wide checks (the version a table document takes from its
/// tree) read thousands of documents this way at a fraction of a parse.
pub fn parse_member(text: &str, name: &str) -> Result<Option<Value>, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(JsonError {
            kind: JsonErrorKind::Empty,
            line: 1,
            column: 1,
            message: "the file is empty; expected a JSON document".to_owned(),
        });
    }
    scan(text, max_values())?;
    let text = encode_lone_surrogates(text);
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    deserializer.disable_recursion_limit();
    MemberSeed { name }
        .deserialize(serde_stacker::Deserializer::new(&mut deserializer))
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|err| from_serde(&err))
}

/// The seed of [`parse_member`]: keeps one top-level member, skips the rest.
struct MemberSeed<'a> {
    name: &'a str,
}

impl<'de> DeserializeSeed<'de> for MemberSeed<'_> {
    type Value = Option<Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Option<Value>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for MemberSeed<'_> {
    type Value = Option<Value>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Option<Value>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == self.name {
                // JSON.parse keeps the last of repeated members.
                found = Some(map.next_value::<Value>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(found)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Value>, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_str<E>(self, _: &str) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Option<Value>, E> {
        Ok(None)
    }
}

fn from_serde(err: &serde_json::Error) -> JsonError {
    let kind = if err.is_eof() { JsonErrorKind::Eof } else { JsonErrorKind::Syntax };
    // serde_json appends " at line L column C"; the position is kept separately.
    let full = err.to_string();
    let message = match full.rfind(" at line ") {
        Some(cut) => full[..cut].to_owned(),
        None => full,
    };
    let message = if message == "number out of range" { OUT_OF_RANGE.to_owned() } else { message };
    JsonError { kind, line: err.line().max(1), column: err.column().max(1), message }
}

/// 1-based line and character column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Style, to_canonical_string, write_value};

    #[test]
    fn json_text_held_in_a_javascript_string_parses_as_json_parse_would() {
        // The line `{"a":"<U+10FFFD>x","b":"<lone U+D800>"}` as a parsed
        // document stores it (the literal U+10FFFD doubled, the lone
        // surrogate as a mark): each reads back once, as JSON.parse gives.
        let line = crate::json::from_utf16(
            &"{\"a\":\"\u{10FFFD}x\",\"b\":\""
                .encode_utf16()
                .chain([0xD800])
                .chain("\"}".encode_utf16())
                .collect::<Vec<_>>(),
        );
        let parsed = parse_js_string(&line).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(crate::json::to_utf16(parsed["a"].as_str().unwrap_or_default()), [0xDBFF, 0xDFFD, u16::from(b'x')]);
        assert_eq!(crate::json::to_utf16(parsed["b"].as_str().unwrap_or_default()), [0xD800]);
        // Without marks it is parse_value.
        assert_eq!(parse_js_string("[1]").ok(), parse_value("[1]").ok());
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse_value("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!((err.kind, err.line, err.column), (JsonErrorKind::Syntax, 3, 7));
        assert!(err.message.contains("expected `:`"), "{}", err.message);
    }

    #[test]
    fn trailing_characters_are_an_error() {
        assert_eq!(parse_value("{} x").unwrap_err().kind, JsonErrorKind::Syntax);
        assert_eq!(parse_value("[1, 2").unwrap_err().kind, JsonErrorKind::Eof);
        assert_eq!(parse_value(" \n").unwrap_err().kind, JsonErrorKind::Empty);
    }

    #[test]
    fn ten_thousand_levels_parse_and_serialize() {
        let text = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        let value = parse_value(&text).unwrap();
        // The indented form of this is 400 MB (indentation grows with depth),
        // so exercise the same recursion through the compact layout.
        assert_eq!(write_value(&value, Style::CANONICAL_COMPACT), text);
        // Dropping the value recurses too; keep it on this (large) test stack.
        drop(value);
    }

    #[test]
    fn deeper_input_is_rejected_with_a_position() {
        let text = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
        let err = parse_value(&text).unwrap_err();
        assert_eq!((err.kind, err.line, err.column), (JsonErrorKind::TooDeep, 1, MAX_DEPTH + 1));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_toward_depth() {
        let text = format!("[\"{}\\\"{}\"]", "[".repeat(MAX_DEPTH * 2), "{".repeat(10));
        assert!(parse_value(&text).is_ok());
    }

    #[test]
    fn bom_and_crlf_are_reported_not_fatal() {
        let doc = parse_document("\u{feff}{\r\n\"a\": 1\r\n}").unwrap();
        assert!(doc.had_bom && doc.had_crlf);
        assert_eq!(doc.value["a"], 1);
    }

    #[test]
    fn numbers_beyond_a_double_are_refused_and_say_why() {
        for text in ["1e400", "[-1e400]", "{\"a\": 2e308}"] {
            let err = parse_value(text).unwrap_err();
            assert_eq!(err.message, OUT_OF_RANGE, "{text}");
        }
        // Underflow is a plain zero, in JavaScript and here.
        assert_eq!(parse_value("1e-400").unwrap(), serde_json::json!(0.0));
    }

    #[test]
    fn too_many_values_are_refused_before_parsing() {
        let text = format!("[{}1]", "1,".repeat(usize::try_from(max_values()).unwrap()));
        let err = parse_bounded(&text).unwrap_err();
        assert_eq!(err.kind, JsonErrorKind::TooManyValues);
        assert_eq!(parse_document(&text).unwrap_err().kind, JsonErrorKind::TooManyValues);
        assert!(parse_value(&text).is_ok(), "texts the crate holds already are not bounded");
        assert!(parse_bounded(&format!("[{}1]", "1,".repeat(1000))).is_ok());
    }

    #[test]
    fn arrays_and_objects_are_allocated_at_their_final_size() {
        let value = parse_value(r#"{"a": [1, 2, 3], "b": {"x": [], "y": [[4], 5]}}"#).unwrap();
        assert_eq!(value["a"].as_array().unwrap().capacity(), 3);
        assert_eq!(value["b"]["y"].as_array().unwrap().capacity(), 2);
        assert_eq!(value["b"]["x"].as_array().unwrap().capacity(), 0);
        let text = format!("[{}0]", "12345,".repeat(100_000));
        assert_eq!(parse_value(&text).unwrap().as_array().unwrap().capacity(), 100_001);
    }

    #[test]
    fn lone_surrogates_survive_a_round_trip() {
        let value = parse_value(r#"["\ud800x", "\uDC00"]"#).unwrap();
        assert_eq!(to_canonical_string(&value), "[\n    \"\\ud800x\",\n    \"\\udc00\"\n]\n");
    }

    #[test]
    fn duplicate_keys_keep_the_first_position_and_the_last_value() {
        let value = parse_value(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        let keys: Vec<_> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(value["b"], 3);
    }
}
