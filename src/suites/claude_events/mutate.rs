//! What `conform explore` knows about claude-events inputs: the SDK message
//! and content-block types the normalizer branches on, and two mutations of
//! the places a port most easily differs from JavaScript: a tool result's
//! `is_error` passed on as `block.is_error || false` (a truthy non-boolean
//! stays what it is), and the stream's `end`.

use crate::suite_api::mutate::{has_type, set_member_of_one};
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
        "error_during_execution",
        "error_max_turns",
        "compact_boundary",
        "api_retry",
        "text",
        "thinking",
        "tool_use",
        "tool_result",
        "Bash",
        "Read",
        "Task",
        "TodoWrite",
        "completed",
        "aborted",
    ],
    mutators: &[
        SuiteMutator { name: "claude-events/error-flag", weight: 3, apply: error_flag },
        SuiteMutator { name: "claude-events/end", weight: 1, apply: end },
    ],
    unpinnable_rules: &[],
};

/// Sets a tool result's `is_error` to a boolean or a truthy or falsy
/// non-boolean.
fn error_flag(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let values =
        [Value::Bool(true), Value::Bool(false), Value::from(1), Value::from(0), Value::from("yes"), Value::from("")];
    set_member_of_one(input, chooser, &|o| has_type(o, &["tool_result"]), "a tool result", "is_error", &values)
}

/// Sets how the stream ended.
fn end(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let values = [
        Value::from("completed"),
        Value::from("aborted"),
        serde_json::json!({"error": "the process exited with code 1"}),
        serde_json::json!({"error": ""}),
    ];
    let value = chooser.pick(&values)?.clone();
    let object = input.as_object_mut()?;
    if object.get("end") == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    object.insert("end".to_owned(), value);
    Some(format!("set /end to {described}"))
}
