//! Reference for the `claude-display` suite: a Claude Code (Agent SDK)
//! stream folded into what a UI lays out. Three tracks (transcript turns,
//! system notices, the session snapshot), one evolving tool call per call,
//! sub-agent records with nested transcripts, skills, MCP and server-tool
//! callers, and the six-row classification of `user` envelopes. Every input
//! frame gets a disposition, so nothing disappears without a reason.
//!
//! The modules follow the stages of the fold: `kinds` routes a frame,
//! `classification` and `text_rules` decide what a user envelope is,
//! `turns`, `tools`, `parts`, `subagents` and `skills` build the transcript,
//! `snapshot` and `notices` the other two tracks, `projection` writes JSON.
//! Captures become inputs in [`crate::capture::claude_stream`].

mod classification;
mod ingest;
pub mod kinds;
mod model;
mod notices;
mod parts;
mod projection;
pub mod rule_ids;
mod skills;
mod snapshot;
mod subagents;
mod text_rules;
mod tools;
mod turns;

pub use rule_ids::RULES;

use crate::suite::RuleTrace;
use serde_json::Value;

/// Maps a case's input `{messages: [SDKMessage…]}` to its expected part
/// `{turns, notices, snapshot, dispositions}`.
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let messages = input.get("messages").and_then(Value::as_array).ok_or("the input has no `messages` array")?;
    Ok(display(messages, trace))
}

/// The display projection of a stream of SDK frames.
pub fn display(messages: &[Value], trace: &mut dyn RuleTrace) -> Value {
    projection::project(&ingest::ingest(messages, trace))
}

/// The id of the text rule that names a `user` frame as CLI machinery
/// (every content block is a text block matching a rule), whatever its
/// flags say; `None` for frames the text rules do not recognise.
pub fn text_rule(message: &Value) -> Option<&'static str> {
    let blocks = parts::content_blocks(message)?;
    classification::machinery_rule(&blocks).map(text_rules::Rule::id)
}
