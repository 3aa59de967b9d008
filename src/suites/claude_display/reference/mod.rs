//! Reference for the `claude-display` suite: a Claude Code (Agent SDK)
//! stream folded into what a UI lays out. Three tracks (transcript turns,
//! system notices, the session snapshot), one evolving tool call per call,
//! sub-agent records with nested transcripts, skills, MCP and server-tool
//! callers, and the six-row classification of `user` envelopes. Every input
//! frame gets a disposition, so nothing disappears without a reason.
//!
//! The modules follow the stages of the fold: `kinds` routes a frame,
//! `classification` and `text_rules` decide what a user envelope is,
//! `turns`, `sidechains`, `tools`, `parts`, `subagents` and `skills` build
//! the transcript, `previews` the streaming previews, `snapshot` and
//! `notices` the other two tracks, `projection` writes JSON.
//! Captures become inputs in [`crate::capture::claude_stream`].

pub mod classification;
mod ingest;
pub mod kinds;
mod model;
mod notices;
pub mod parts;
mod previews;
mod projection;
mod refusals;
pub mod rule_ids;
mod sidechains;
mod skills;
mod snapshot;
mod subagents;
mod text_rules;
mod tools;
mod turns;

pub use rule_ids::RULES;

use crate::suite_api::RuleTrace;
use serde_json::Value;

/// Maps a case's input `{messages: [SDKMessage…], end?, receivedAt?}` to
/// its expected part `{turns, notices, snapshot, dispositions, previews?,
/// unfinished?}`.
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let messages = input.get("messages").and_then(Value::as_array).ok_or("the input has no `messages` array")?;
    let cut_off = match input.get("end") {
        None => false,
        Some(Value::String(end)) if end == "completed" => false,
        Some(Value::String(end)) if end == "cut-off" => true,
        Some(_) => return Err("`end` must be \"completed\" or \"cut-off\"".to_owned()),
    };
    let received_at = match input.get("receivedAt") {
        None => Vec::new(),
        Some(Value::Array(times)) => times
            .iter()
            .map(|time| match time {
                Value::String(time) => Ok(Some(time.clone())),
                Value::Null => Ok(None),
                _ => Err("`receivedAt` entries must be strings or null".to_owned()),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("`receivedAt` must be an array".to_owned()),
    };
    let facts = ingest::StreamFacts { received_at, cut_off };
    Ok(projection::project(&ingest::ingest(messages, facts, trace)))
}

/// The display projection of a complete stream of SDK frames (no receive
/// times).
pub fn display(messages: &[Value], trace: &mut dyn RuleTrace) -> Value {
    projection::project(&ingest::ingest(messages, ingest::StreamFacts::default(), trace))
}

/// The id of the text rule that names a `user` frame as CLI machinery
/// (every content block is a text block matching a rule), whatever its
/// flags say; `None` for frames the text rules do not recognise.
pub fn text_rule(message: &Value) -> Option<&'static str> {
    let blocks = parts::content_blocks(message)?;
    classification::machinery_rule(&blocks).map(text_rules::Rule::id)
}
