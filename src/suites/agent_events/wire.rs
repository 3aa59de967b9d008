//! Reading a case input: the list of wire items and the optional adapter
//! session id, then each item. Fixture inputs may hold an item either as a
//! JSON value or as the raw line text (a JSON string), which keeps quirks
//! such as the duplicate `id` key of `codex exec` lines visible to
//! implementations.

use crate::json::parse_js_string;
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The items of a `{sessionId?, <list>}` input and its adapter session id.
pub fn stream_input<'a>(input: &'a Value, list: &str) -> Result<(&'a [Value], Option<String>), String> {
    let input = input.as_object().ok_or("the input is not a JSON object")?;
    let items = input.get(list).and_then(Value::as_array).ok_or_else(|| format!("`{list}` must be an array"))?;
    let session_id = match input.get("sessionId") {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => return Err("`sessionId` must be a string".to_owned()),
    };
    Ok((items, session_id))
}

/// Whether a Codex suite's input says the stream was cut off: its optional
/// `end` member is `"cut-off"` (the recording stops before the runtime
/// finished). Absent and `"completed"` mean the stream is complete as given.
pub fn ends_cut_off(input: &Value) -> Result<bool, String> {
    match input.get("end") {
        None => Ok(false),
        Some(Value::String(end)) if end == "completed" => Ok(false),
        Some(Value::String(end)) if end == "cut-off" => Ok(true),
        Some(_) => Err("`end` must be \"completed\" or \"cut-off\"".to_owned()),
    }
}

/// The rule ids a normalizer reports for an item it cannot read.
#[derive(Clone, Copy, Debug)]
pub struct InvalidItemRules {
    /// A raw line that is not JSON.
    pub not_json: &'static str,
    /// An item that is not a JSON object.
    pub not_an_object: &'static str,
}

/// Decodes a wire item into the JSON object every normalizer reads. A raw
/// line (a JSON string) is parsed with JavaScript `JSON.parse` semantics (a
/// duplicate key keeps its first position and its last value); any other
/// value is already decoded. An item that is not an object is `invalid`,
/// for the returned reason.
pub fn decode_object<'a>(
    raw: &'a Value,
    rules: InvalidItemRules,
    trace: &mut dyn RuleTrace,
) -> Result<Cow<'a, Map<String, Value>>, Cow<'static, str>> {
    let decoded = match raw {
        Value::String(line) => match parse_js_string(line) {
            Ok(value) => Cow::Owned(value),
            // No position or parser message: every JSON library words those its own way, and an
            // expected output must be one any port can produce.
            Err(_) => {
                trace.hit(rules.not_json);
                return Err(Cow::Borrowed("the line is not JSON"));
            }
        },
        other => Cow::Borrowed(other),
    };
    match decoded {
        Cow::Borrowed(Value::Object(object)) => Ok(Cow::Borrowed(object)),
        Cow::Owned(Value::Object(object)) => Ok(Cow::Owned(object)),
        _ => {
            trace.hit(rules.not_an_object);
            Err(Cow::Borrowed("not a JSON object"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::RuleSet;
    use serde_json::json;

    const RULES: InvalidItemRules = InvalidItemRules { not_json: "test.not-json", not_an_object: "test.not-an-object" };

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let line = json!(r#"{"id":"item_0","type":"web_search","id":"ws_1","query":"q"}"#);
        let decoded = decode_object(&line, RULES, &mut RuleSet::default()).unwrap().into_owned();
        let keys: Vec<&str> = decoded.keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "type", "query"]);
        assert_eq!(decoded["id"], "ws_1");
    }

    #[test]
    fn what_is_not_an_object_is_an_error_not_a_panic() {
        let mut trace = RuleSet::default();
        assert!(decode_object(&json!("{\"type\":"), RULES, &mut trace).is_err());
        assert_eq!(decode_object(&json!("[1]"), RULES, &mut trace), Err(Cow::Borrowed("not a JSON object")));
        assert_eq!(decode_object(&json!(7), RULES, &mut trace), Err(Cow::Borrowed("not a JSON object")));
        assert_eq!(trace.0.into_iter().collect::<Vec<_>>(), ["test.not-an-object", "test.not-json"]);
        let object = json!({"a": 1});
        assert_eq!(decode_object(&object, RULES, &mut crate::suite_api::NoTrace).map(|o| o.len()), Ok(1));
    }
}
