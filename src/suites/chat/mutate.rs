//! What `conform explore` knows about chat inputs beyond the generic
//! mutations: the words the decoder branches on, and mutations of the two
//! places where the reference decides what the specs leave open and a port
//! most easily differs: CodexAgent card ids (an empty `agentId` is no id)
//! and error flags of tool results (JavaScript truthiness).

use crate::suite_api::mutate::{has_type, object_at_mut, objects_where, set_member_of_one};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &[],
    order_members: &[],
    words: &[
        "user",
        "agent",
        "assistant",
        "system",
        "output",
        "event",
        "codex",
        "text",
        "tool_use",
        "tool_result",
        "thinking",
        "summary",
        "tool-call",
        "tool-call-result",
        "agent-run-start",
        "agent-run-update",
        "agent-run-trace",
        "message",
        "reasoning",
        "token_count",
        "plan",
        "Task",
        "Bash",
        "ready",
    ],
    mutators: &[
        SuiteMutator { name: "chat/agent-ids", weight: 3, apply: agent_ids },
        SuiteMutator { name: "chat/error-flag", weight: 2, apply: error_flag },
    ],
    unpinnable_rules: &["reduce.permission.synthesized-wall-clock"],
};

fn is_agent_run(members: &serde_json::Map<String, Value>) -> bool {
    members.get("type").and_then(Value::as_str).is_some_and(|kind| kind.starts_with("agent-run-"))
}

/// Blanks or swaps the agent and card ids of a Codex agent-run event.
fn agent_ids(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let runs = objects_where(input, &is_agent_run);
    let path = chooser.pick(&runs)?.clone();
    let keys = ["agentId", "agent_id", "cardId", "card_id"];
    let key = *chooser.pick(&keys)?;
    let other = chooser
        .pick(&runs)
        .and_then(|other| crate::suite_api::mutate::node_at(input, other)?.get("agentId").cloned())
        .unwrap_or(Value::from("agent-2"));
    let value = if chooser.chance(2, 3) { Value::from("") } else { other };
    let run = object_at_mut(input, &path)?;
    if run.get(key) == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    run.insert(key.to_owned(), value);
    Some(format!("set `{key}` of an agent-run event to {described}"))
}

/// Sets the error flag of a tool result (Claude or Codex) to a boolean or
/// to a value whose JavaScript truthiness differs from its look.
fn error_flag(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let values = [
        Value::Bool(true),
        Value::Bool(false),
        Value::from("false"),
        Value::from(0),
        Value::from(""),
        Value::from(1),
        Value::from(-1),
    ];
    let results = |members: &serde_json::Map<String, Value>| has_type(members, &["tool_result", "tool-call-result"]);
    set_member_of_one(input, chooser, &results, "a tool result", "is_error", &values)
}
