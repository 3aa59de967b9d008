//! Reference for the `codex-exec-events` suite: the JSON Lines events of
//! `codex exec --json` (as decoded values, or as raw line text) → normalized
//! events, one disposition per line.
//!
//! Mapping (seed 002, "Codex exec JSON → normalized events"): item.started
//! command_execution → `tool_start`; item.completed reasoning → `thinking`,
//! agent_message → `delta`, command_execution → `tool_result`,
//! function_call → `tool_start`, function_call_output → `tool_result`;
//! turn.completed → `done`. The seed's table stops there; the remaining
//! events follow the app-server rows they mirror (see the suite's README.md):
//! thread.started → `session_ready`, turn.started → empty `thinking`,
//! turn.failed → `error` (unless just reported) and `done`, `error` →
//! `error` except retry notices, and the file_change / mcp_tool_call /
//! web_search items → `tool_start` / `tool_result`.

mod normalize;
pub mod rule_ids;

pub use rule_ids::RULES;

pub use normalize::{ExecNormalizer, RETRY_NOTICE_PREFIX, line_kind, rule};

use crate::suite_api::RuleTrace;
use crate::suites::agent_events::{ends_cut_off, stream_input};
use serde_json::Value;

/// The suite reference: `{sessionId?, lines, end?}` → `{events, dispositions, unfinished?}`.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let (lines, session_id) = stream_input(input, "lines")?;
    let mut normalizer = ExecNormalizer::new(session_id);
    let cut_off = ends_cut_off(input)?;
    normalizer.feed(lines, trace);
    let mut output = normalizer.finish();
    if cut_off {
        // The prefix is all there is: no `done`, no error for the unfinished
        // turn, open tools stay open (the normalizer never synthesizes them).
        trace.hit("exec.stream.cut-off");
        output.unfinished = true;
    }
    Ok(output.to_value())
}
