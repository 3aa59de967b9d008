//! Decoding one wire item. Fixture inputs may hold an item either as a JSON
//! value or as the raw line text (a JSON string), which keeps quirks such as
//! the duplicate `id` key of `codex exec` lines visible to implementations.

use crate::json::parse_value;
use serde_json::Value;
use std::borrow::Cow;

/// A wire item after decoding.
pub type DecodedFrame<'a> = Result<Cow<'a, Value>, String>;

/// Decodes a raw line (a JSON string) with JavaScript `JSON.parse` semantics
/// (a duplicate key keeps its first position and its last value); any other
/// value is already decoded and returned as is.
pub fn decode_frame(raw: &Value) -> DecodedFrame<'_> {
    match raw {
        Value::String(line) => parse_value(line).map(Cow::Owned).map_err(|err| format!("the line is not JSON ({err})")),
        other => Ok(Cow::Borrowed(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let line = json!(r#"{"id":"item_0","type":"web_search","id":"ws_1","query":"q"}"#);
        let decoded = decode_frame(&line).unwrap().into_owned();
        let keys: Vec<&str> = decoded.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "type", "query"]);
        assert_eq!(decoded["id"], "ws_1");
    }

    #[test]
    fn a_broken_line_is_an_error_not_a_panic() {
        assert!(decode_frame(&json!("{\"type\":")).is_err());
        assert_eq!(decode_frame(&json!({"a": 1})).unwrap().as_ref(), &json!({"a": 1}));
    }
}
