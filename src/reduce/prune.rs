//! The stored expectation of a shrunken case, when only the original's is
//! known.
//!
//! When the implementation under test is the reference itself, the only
//! trusted expectation is the one stored in the fixture, for the whole input.
//! Once messages are removed, the blocks they produced must go too. Blocks
//! carry ids taken from their input (a message id, `<message id>:<n>`, a
//! tool call id), so [`prune_unreferenced`] drops every array element that
//! is an object whose `id` the remaining input no longer mentions. Whatever
//! else the removal changes in the true output (a tool call left without its
//! result, say) is not predicted: such candidates show new differences and
//! the reducer rejects them, so stored-expectation reduction only removes
//! what provably does not matter.

use serde_json::{Map, Value};
use std::collections::HashSet;

/// `expected` without the array elements whose `id` `input` no longer
/// mentions (as a string value, or as the part of the id before a `:`).
pub fn prune_unreferenced(expected: &Value, input: &Value) -> Value {
    let mut mentioned = HashSet::new();
    collect_strings(input, &mut mentioned);
    prune(expected, &mentioned)
}

fn collect_strings<'a>(value: &'a Value, into: &mut HashSet<&'a str>) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::String(text) => {
            into.insert(text.as_str());
        }
        Value::Array(items) => items.iter().for_each(|item| collect_strings(item, into)),
        Value::Object(members) => members.values().for_each(|member| collect_strings(member, into)),
        _ => {}
    })
}

fn prune(value: &Value, mentioned: &HashSet<&str>) -> Value {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Array(items) => Value::Array(
            items.iter().filter(|item| still_produced(item, mentioned)).map(|item| prune(item, mentioned)).collect(),
        ),
        Value::Object(members) => {
            let pruned: Map<String, Value> =
                members.iter().map(|(key, member)| (key.clone(), prune(member, mentioned))).collect();
            Value::Object(pruned)
        }
        other => other.clone(),
    })
}

fn still_produced(item: &Value, mentioned: &HashSet<&str>) -> bool {
    let Some(id) = item.get("id").and_then(Value::as_str) else { return true };
    mentioned.contains(id) || id.split_once(':').is_some_and(|(source, _)| mentioned.contains(source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_of_removed_messages_go_and_everything_else_stays() {
        let stored = json!({
            "blocks": [
                {"id": "m1", "kind": "user-text"},
                {"id": "m2:0", "kind": "agent-text"},
                {"id": "toolu_1", "kind": "tool-call", "children": [{"id": "m9:0"}]},
                {"kind": "no-id"}
            ],
            "ready": true
        });
        let input = json!({"messages": [{"id": "m2"}, {"id": "m3", "content": {"type": "tool_use", "id": "toolu_1"}}]});
        assert_eq!(
            prune_unreferenced(&stored, &input),
            json!({
                "blocks": [
                    {"id": "m2:0", "kind": "agent-text"},
                    {"id": "toolu_1", "kind": "tool-call", "children": []},
                    {"kind": "no-id"}
                ],
                "ready": true
            })
        );
    }
}
