//! The STRINGIFY fallback text (chat-normalize §11).
//!
//! Messages the pipeline cannot decode are shown as text: a string as itself,
//! anything else as `JSON.stringify(value, null, 2)`. The fixture generator
//! sorts every input object's keys before running the pipeline, so the text
//! lists members in canonical order (index-like keys first, then UTF-16
//! order). Writing with that order directly makes the fallback independent of
//! the order the keys arrive in, which is what the corpus requires.

use crate::json::{KeyOrder, Style, write_value};
use serde_json::Value;
use std::borrow::Cow;

/// `JSON.stringify(value, null, 2)` over key-sorted input.
const FALLBACK_STYLE: Style = Style { indent: 2, order: KeyOrder::Canonical };

/// The fallback text of a possibly absent value.
pub fn stringify(value: Option<&Value>) -> Cow<'_, str> {
    match value {
        None => Cow::Borrowed("undefined"),
        Some(Value::String(s)) => Cow::Borrowed(s),
        Some(other) => Cow::Owned(write_value(other, FALLBACK_STYLE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_value;

    #[test]
    fn nested_payloads_print_with_two_spaces_and_sorted_keys() {
        // chat-normalize §15 example 1, on key-sorted input.
        let value =
            parse_value(r#"{"type":"output","data":{"type":"result","n":1e21,"s":"é\u0007","10":true,"2":[]}}"#)
                .unwrap();
        let expected = "{\n  \"data\": {\n    \"2\": [],\n    \"10\": true,\n    \"n\": 1e+21,\n    \"s\": \"é\\u0007\",\n    \"type\": \"result\"\n  },\n  \"type\": \"output\"\n}";
        assert_eq!(stringify(Some(&value)), expected);
    }

    #[test]
    fn strings_are_unquoted_and_absent_is_undefined() {
        assert_eq!(stringify(Some(&Value::String("plain".into()))), "plain");
        assert_eq!(stringify(None), "undefined");
        assert_eq!(stringify(Some(&Value::Null)), "null");
        assert_eq!(stringify(Some(&serde_json::json!(42))), "42");
        assert_eq!(stringify(Some(&serde_json::json!({}))), "{}");
    }
}
