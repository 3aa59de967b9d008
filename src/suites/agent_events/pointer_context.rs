//! Mismatch context shared by the agent-runtime event suites: a differing
//! pointer under `/dispositions/N` or `/events/N` is labelled with the input
//! item it belongs to, so a failure reads `frames[12] item/completed/reasoning`.

use crate::json::pointer::{push, tokens};
use crate::suite_api::PointerContext;
use serde_json::Value;

/// Labels `/dispositions/N/…` with input item N and its kind, and
/// `/events/N/…` with the event index.
pub fn normalized_pointer_context(input: &Value, items_key: &str, pointer: &str) -> Option<PointerContext> {
    let parts = tokens(pointer);
    let (section, index) = match parts.as_slice() {
        [section, index, ..] => (section.as_str(), index.parse::<usize>().ok()?),
        _ => return None,
    };
    let rest = parts.iter().skip(2).fold(String::new(), |pointer, token| push(&pointer, token));
    let label = match section {
        "dispositions" => {
            let item = input.get(items_key).and_then(|items| items.get(index));
            let kind = item.map(describe).unwrap_or_default();
            format!("{items_key}[{index}]{kind}")
        }
        "events" => format!("event {index}"),
        "messages" => format!("message {index}"),
        _ => return None,
    };
    Some(PointerContext { label, rest })
}

/// A short description of an input item: its type or method.
fn describe(item: &Value) -> String {
    let name = ["type", "method"].iter().find_map(|key| item.get(*key).and_then(Value::as_str));
    let subtype = item.get("subtype").and_then(Value::as_str);
    match (name, subtype) {
        (Some(name), Some(subtype)) => format!(" {name}/{subtype}"),
        (Some(name), None) => format!(" {name}"),
        _ => String::new(),
    }
}
