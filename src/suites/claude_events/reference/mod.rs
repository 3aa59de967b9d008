//! Reference for the `claude-events` suite: Claude Agent SDK messages (what
//! the SDK's `query()` generator yielded, plus the stdout control frames of
//! `claude -p --output-format stream-json`) → normalized events, with one
//! disposition per message.
//!
//! Mapping (seed 002, "Claude SDK → normalized events"): `system/init` →
//! `session_ready`; assistant `text` → `delta`, `thinking` → `thinking`,
//! `tool_use` → `tool_start` (input fields lifted, `Task`/`Agent` marked as a
//! sub-agent spawn); user `tool_result` → `tool_result`; `result` frames emit
//! nothing but the last successful result text becomes the one `result`
//! event when the generator completes, followed by `done`; an aborted
//! generator ends with `done {stopped: true}`, a failed one with `error`.
//! Every event of a message with `parent_tool_use_id` carries `subagent_id`
//! (for a transcript's inline sidechain entry, that of the spawn it belongs
//! to). With partial messages on, `stream_event` text and thinking deltas
//! become `delta` / `thinking` events and the final blocks they streamed add
//! only what they did not carry; a block repeated under the same message id
//! maps once; a cut-off stream (`end: "cut-off"`) adds nothing at the end
//! and says `unfinished: true`.

pub mod kinds;
mod normalize;
pub mod rule_ids;
mod sidechains;

pub use rule_ids::RULES;

pub use normalize::{ClaudeNormalizer, End};

use crate::suite_api::RuleTrace;
use serde_json::Value;

/// The suite reference: `{sessionId, messages, end, source?}` → `{events, dispositions}`.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let input = input.as_object().ok_or("the input is not a JSON object")?;
    let session_id = input.get("sessionId").and_then(Value::as_str).ok_or("`sessionId` must be a string")?;
    let messages = input.get("messages").and_then(Value::as_array).ok_or("`messages` must be an array")?;
    let end = End::parse(input.get("end").unwrap_or(&Value::Null))?;
    let mut normalizer = match input.get("source").and_then(Value::as_str) {
        None | Some("stream-json") => ClaudeNormalizer::new(session_id),
        Some("transcript") => ClaudeNormalizer::for_transcript(session_id),
        Some(_) => return Err("`source` must be \"stream-json\" or \"transcript\"".to_owned()),
    };
    normalizer.feed(messages, trace);
    let mut output = normalizer.finish(&end, trace).to_value();
    if end == End::CutOff
        && let Some(object) = output.as_object_mut()
    {
        object.insert("unfinished".to_owned(), Value::Bool(true));
    }
    Ok(output)
}
