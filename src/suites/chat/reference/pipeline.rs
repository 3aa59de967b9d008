//! The whole chat pipeline as the suite's reference function: input
//! `{messages, agentState, options}` → expected
//! `{blocks, hasReadyEvent, latestUsage, visibleBlocks}`.

use super::fold::fold;
use super::group::group_blocks;
use super::model::{AgentItem, Content, NormalizedMessage};
use super::normalize::normalize_message;
use super::options::ChatOptions;
use super::project::project;
use crate::suite_api::{RuleTrace, Scope};
use crate::suites::js::{get, truthy};
use serde_json::Value;

/// Runs normalize → fold → group → project over a chat case input of the
/// newest fixtureVersion.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    run_with(input, &ChatOptions::default(), trace)
}

/// The reference of fixtureVersion 1.
pub fn run_v1(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    run_with(input, &ChatOptions::V1, trace)
}

/// Runs normalize → fold → group → project over a chat case input by the
/// rules `options` selects.
///
/// Total: a `messages` member that is not an array counts as no messages,
/// an `agentState` that is not an object as null, and a missing
/// `options.hasMoreMessages` as false. Only an input that is not a JSON object
/// is an error.
pub fn run_with(input: &Value, options: &ChatOptions, trace: &mut dyn RuleTrace) -> Result<Value, String> {
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
    let mut normalized = Vec::with_capacity(messages.len());
    for message in messages {
        match normalize_message(message, options, trace) {
            Some(message) => {
                claim_normalized(&message, trace);
                normalized.push(message);
            }
            // A dropped row shows as missing or unexpected blocks.
            None => trace.emitted(Scope::Pointer("/blocks")),
        }
    }
    let folded = fold(&normalized, agent_state, options, trace);
    let visible = group_blocks(&folded.blocks, has_more_messages, options, trace);
    Ok(project(folded, &visible))
}

/// Provenance: the rules that normalized `message` decided the blocks made
/// from it (`<id>`, `<id>:<n>`) and the tool cards its calls and results make.
fn claim_normalized(message: &NormalizedMessage<'_>, trace: &mut dyn RuleTrace) {
    trace.emitted(Scope::Id(&message.id));
    if !trace.keeps_provenance() {
        return;
    }
    if let Content::Agent(items) = &message.content {
        for item in items {
            match item {
                AgentItem::ToolCall(call) => trace.also(Scope::Id(&call.id)),
                AgentItem::ToolResult(result) => trace.also(Scope::Id(&result.tool_use_id)),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::{NoTrace, RuleSet};
    use serde_json::json;

    fn user(id: &str, text: &str, created_at: u64) -> Value {
        json!({"id": id, "localId": null, "createdAt": created_at, "content": {"role": "user", "content": text}})
    }

    #[test]
    fn rows_that_are_not_objects_are_read_as_empty_rows_and_a_non_list_is_no_messages() {
        // The web pipeline reads `0` or `"x"` as a row without members (a
        // no-envelope fallback without id or createdAt) and throws on `null`.
        let mut trace = RuleSet::default();
        let output = run(&json!({"messages": [0, null, user("u1", "hi", 1)], "agentState": null}), &mut trace).unwrap();
        assert_eq!(output["blocks"][0], json!({"kind": "agent-text", "id": "undefined:0", "text": "undefined"}));
        assert_eq!(output["blocks"].as_array().map(Vec::len), Some(2));
        assert!(trace.0.contains("message.not-an-object-read-as-empty"));
        assert!(trace.0.contains("message.local-id-absent-left-out"), "no localId: none on the block");
        assert!(trace.0.contains("message.null-dropped"));

        let output = run(&json!({"messages": [{}]}), &mut NoTrace).unwrap();
        assert_eq!(
            output["blocks"][0],
            json!({"kind": "agent-text", "id": "undefined:0", "text": "undefined"}),
            "`{{}}`: no createdAt"
        );

        let mut trace = RuleSet::default();
        let output = run(&json!({"messages": {"0": user("u1", "hi", 1)}}), &mut trace).unwrap();
        assert_eq!(output["blocks"], json!([]));
        assert_eq!(output["latestUsage"], Value::Null);
        assert!(trace.0.contains("input.messages-not-a-list"));

        assert!(run(&json!([user("u1", "hi", 1)]), &mut NoTrace).is_err());
    }

    #[test]
    fn a_pending_request_without_created_at_is_stamped_with_the_wall_clock() {
        let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as f64;
        let input = json!({
            "messages": [user("u1", "hi", 1_000)],
            "agentState": {"requests": {"req-1": {"tool": "Bash", "arguments": {"command": "ls"}}}},
            "options": {"hasMoreMessages": false}
        });
        let mut trace = RuleSet::default();
        let output = run(&input, &mut trace).unwrap();
        let after = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as f64;
        let card = &output["blocks"][1];
        assert_eq!(card["id"], "req-1");
        assert_eq!(card["tool"]["state"], "pending");
        let created_at = card["createdAt"].as_f64().unwrap();
        assert!(before <= created_at && created_at <= after, "{created_at} not within [{before}, {after}]");
        assert!(trace.0.contains("reduce.permission.synthesized-wall-clock"));
    }

    #[test]
    fn ids_times_and_local_ids_of_other_types_are_copied_as_they_are() {
        let input = json!({"messages": [
            {"id": 7, "createdAt": "late", "localId": 3, "invokedAt": "soon", "content": {"role": "agent", "content": "x"}},
            {"id": 8, "createdAt": [1], "localId": {"k": 1}, "content": {"role": "user", "content": "hi"}}
        ]});
        let output = run(&input, &mut NoTrace).unwrap();
        // Item ids are built as text; the block whose id is the message id keeps it.
        assert_eq!(
            output["blocks"][0],
            json!({"kind": "agent-text", "id": "7:0", "createdAt": "late", "localId": 3, "text": "x"})
        );
        assert_eq!(
            output["blocks"][1],
            json!({"kind": "user-text", "id": 8, "createdAt": [1], "localId": {"k": 1}, "text": "hi"})
        );
    }
}
