//! What `conform explore` knows about codex-app-server-events inputs: the
//! JSON-RPC methods and item types the normalizer branches on, and one
//! mutation of how responses find their requests: a frame's JSON-RPC `id`
//! written as a string, as another frame's id, or as a fraction.

use crate::suite_api::mutate::{node_at, object_at_mut, objects_where};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &["id", "threadId", "turnId", "itemId", "callId"],
    order_members: &["emittedAtMs"],
    words: &[
        "thread/started",
        "turn/started",
        "turn/completed",
        "item/started",
        "item/completed",
        "item/agentMessage/delta",
        "item/reasoning/summaryTextDelta",
        "item/commandExecution/requestApproval",
        "item/fileChange/requestApproval",
        "error",
        "agentMessage",
        "reasoning",
        "commandExecution",
        "fileChange",
        "mcpToolCall",
        "webSearch",
        "completed",
        "failed",
        "interrupted",
        "inProgress",
        "accept",
        "decline",
    ],
    mutators: &[SuiteMutator { name: "codex-app-server/rpc-id", weight: 2, apply: rpc_id }],
    unpinnable_rules: &[],
};

/// Rewrites one frame's JSON-RPC `id`.
fn rpc_id(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let framed = |o: &serde_json::Map<String, Value>| o.get("id").is_some_and(|id| id.is_number() || id.is_string());
    let frames: Vec<_> = input
        .get("frames")?
        .as_array()?
        .iter()
        .enumerate()
        .filter(|(_, frame)| frame.as_object().is_some_and(framed))
        .map(|(index, _)| index)
        .collect();
    let index = *chooser.pick(&frames)?;
    let path =
        vec![crate::suite_api::mutate::Step::Key("frames".to_owned()), crate::suite_api::mutate::Step::Index(index)];
    let id = node_at(input, &path)?.get("id")?.clone();
    let others: Vec<Value> = objects_where(input, &framed)
        .iter()
        .filter_map(|other| node_at(input, other)?.get("id").cloned())
        .filter(|other| *other != id)
        .collect();
    let value = match chooser.below(3) {
        0 => Value::String(match &id {
            Value::String(text) => text.clone(),
            other => crate::json::to_compact_string(other),
        }),
        1 => chooser.pick(&others)?.clone(),
        _ => crate::suite_api::mutate::js_number(id.as_f64().unwrap_or(0.0) + 0.5),
    };
    if value == id {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    object_at_mut(input, &path)?.insert("id".to_owned(), value);
    Some(format!("set the JSON-RPC id of /frames/{index} to {described}"))
}
