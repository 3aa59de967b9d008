//! The whole chat pipeline as the suite's reference function: input
//! `{messages, agentState, options}` → expected
//! `{blocks, hasReadyEvent, latestUsage, visibleBlocks}`.

use super::group::group_blocks;
use super::js::{get, truthy};
use super::normalize::normalize_message;
use super::project::project;
use super::reduce::reduce;
use crate::reference::RuleTrace;
use serde_json::Value;

/// Runs normalize → reduce → group → project over a chat case input.
///
/// Total: a `messages` member that is not an array counts as no messages,
/// an `agentState` that is not an object as null, and a missing
/// `options.hasMoreMessages` as false. Only an input that is not a JSON object
/// is an error.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    if !input.is_object() {
        return Err("the chat input must be a JSON object {messages, agentState, options}".to_owned());
    }
    let messages: &[Value] = match get(input, "messages") {
        Some(Value::Array(messages)) => messages,
        _ => {
            trace.hit("input.messages-not-a-list");
            &[]
        }
    };
    let agent_state = get(input, "agentState").filter(|state| state.is_object());
    let has_more_messages = truthy(get(input, "options").and_then(|options| get(options, "hasMoreMessages")));
    let normalized: Vec<_> = messages.iter().filter_map(|message| normalize_message(message, trace)).collect();
    let reduced = reduce(&normalized, agent_state, trace);
    let visible = group_blocks(&reduced.blocks, has_more_messages, trace);
    Ok(project(&reduced, &visible))
}
