//! What `conform explore` knows about claude-display inputs: the message and
//! block types and tool names the display model branches on, and one
//! mutation of what nests a message under a tool call: its
//! `parent_tool_use_id`, pointed at a tool call of the input, at one no
//! message made, or emptied.

use crate::suite_api::mutate::{has_type, node_at, object_at_mut, objects_where};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &[],
    order_members: &[],
    words: &[
        "system",
        "assistant",
        "user",
        "result",
        "stream_event",
        "init",
        "success",
        "compact_boundary",
        "text",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "image",
        "Bash",
        "Read",
        "Edit",
        "Write",
        "Task",
        "Agent",
        "TodoWrite",
        "ExitPlanMode",
        "AskUserQuestion",
    ],
    mutators: &[SuiteMutator { name: "claude-display/parent", weight: 3, apply: parent }],
    unpinnable_rules: &[],
};

/// Points a message's `parent_tool_use_id` at a tool call of the input, at
/// an unknown one, or at nothing (`null`, `""`).
fn parent(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let messages = objects_where(input, &|o| o.contains_key("parent_tool_use_id"));
    let at = chooser.pick(&messages)?.clone();
    let calls: Vec<Value> = objects_where(input, &|o| has_type(o, &["tool_use"]))
        .iter()
        .filter_map(|path| node_at(input, path)?.get("id").cloned())
        .collect();
    let value = match chooser.below(4) {
        0 => Value::Null,
        1 => Value::from(""),
        2 => Value::from("toolu_unknown"),
        _ => chooser.pick(&calls)?.clone(),
    };
    let message = object_at_mut(input, &at)?;
    if message.get("parent_tool_use_id") == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    message.insert("parent_tool_use_id".to_owned(), value);
    Some(format!("set `parent_tool_use_id` of a message to {described}"))
}
