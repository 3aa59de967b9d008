//! What `conform explore` knows about runtime-session inputs: the step verbs
//! and answers the adapters branch on, and one mutation of which session a
//! step addresses: another session of the script, one never created, or
//! none.

use crate::suite_api::mutate::{node_at, object_at_mut, objects_where};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &["session", "from", "providerSessionId", "id", "threadId", "turnId", "itemId"],
    order_members: &[],
    words: &[
        "create",
        "send",
        "steer",
        "stop",
        "resume",
        "fork",
        "archive",
        "answer",
        "codex",
        "claude",
        "implementation",
        "planner",
        "ask",
        "allow",
        "deny",
        "completed",
        "aborted",
    ],
    mutators: &[SuiteMutator { name: "runtime-session/step-session", weight: 2, apply: step_session }],
    unpinnable_rules: &[],
};

/// Points one step at another session.
fn step_session(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let steps = objects_where(input, &|o| o.get("session").is_some_and(Value::is_string));
    let at = chooser.pick(&steps)?.clone();
    let sessions: Vec<Value> = steps.iter().filter_map(|path| node_at(input, path)?.get("session").cloned()).collect();
    let value = match chooser.below(4) {
        0 => Value::from("s-never-created"),
        1 => Value::from(""),
        _ => chooser.pick(&sessions)?.clone(),
    };
    let step = object_at_mut(input, &at)?;
    if step.get("session") == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    step.insert("session".to_owned(), value);
    Some(format!("point a step at session {described}"))
}
