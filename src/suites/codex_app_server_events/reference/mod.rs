//! Reference for the `codex-app-server-events` suite: the JSON-RPC frames a
//! `codex app-server` session shows (server notifications, server requests,
//! responses, and the client's answers to server requests written as
//! `{"client": …}`) → normalized events, one disposition per frame.
//!
//! Mapping (seed 002, "Codex app-server → normalized events"):
//! `thread/started` → `session_ready`; `turn/started` → empty `thinking`
//! (`done: false`); `item/agentMessage/delta` → `delta`; `item/completed`
//! agentMessage skipped; reasoning `item/started` → empty `thinking`,
//! `item/reasoning/textDelta` / `summaryTextDelta` (and the unprefixed
//! aliases) → `thinking`, `item/completed` → `thinking {done: true}`;
//! commandExecution → `tool_start` / `tool_result` with the file-read
//! classifier; functionCall / functionCallOutput → `tool_start` /
//! `tool_result`; approval requests → `permission_request`, the client's
//! answer → `permission_resolved`; `turn/completed` → `done`; `error` →
//! `error` unless `willRetry`; frames of child threads carry `subagent_id`.

pub mod methods;
mod normalize;
pub mod rule_ids;

pub use rule_ids::RULES;

pub use normalize::AppServerNormalizer;

use crate::suite_api::RuleTrace;
use crate::suites::agent_events::{ends_cut_off, stream_input};
use serde_json::Value;

/// The suite reference: `{sessionId?, frames, end?}` → `{events, dispositions, unfinished?}`.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let (frames, session_id) = stream_input(input, "frames")?;
    let mut normalizer = AppServerNormalizer::new(session_id);
    let cut_off = ends_cut_off(input)?;
    normalizer.feed(frames, trace);
    let mut output = normalizer.finish();
    if cut_off {
        // The prefix is all there is: no `done`, no error for the unfinished
        // turn, open tools stay open (the normalizer never synthesizes them).
        trace.hit("app-server.stream.cut-off");
        output.unfinished = true;
    }
    Ok(output.to_value())
}
