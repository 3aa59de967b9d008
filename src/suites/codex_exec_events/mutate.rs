//! What `conform explore` knows about codex-exec-events inputs: the line and
//! item types the normalizer branches on, and two mutations of its state
//! and its reading: a second turn that fails the way an earlier one did
//! (the error a turn reported is forgotten at `turn.started`), and a decoded
//! line turned back into its raw text.

use crate::suite_api::mutate::has_type;
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &["id", "thread_id"],
    order_members: &[],
    words: &[
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "error",
        "reasoning",
        "agent_message",
        "command_execution",
        "file_change",
        "mcp_tool_call",
        "web_search",
        "function_call",
        "function_call_output",
        "todo_list",
        "Reconnecting... 1/5",
        "completed",
        "cut-off",
    ],
    mutators: &[
        SuiteMutator { name: "codex-exec/repeat-turn", weight: 2, apply: repeat_turn },
        SuiteMutator { name: "codex-exec/raw-line", weight: 1, apply: raw_line },
    ],
    unpinnable_rules: &[],
};

/// Inserts `turn.started` and a copy of an `error` or `turn.failed` line of
/// the input after one of its lines: a new turn failing as an earlier did.
fn repeat_turn(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let lines = input.get_mut("lines")?.as_array_mut()?;
    let failures: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.as_object().is_some_and(|o| has_type(o, &["error", "turn.failed"])))
        .map(|(index, _)| index)
        .collect();
    let copied = *chooser.pick(&failures)?;
    let copy = lines[copied].clone();
    let at = copied + 1 + chooser.below(lines.len() - copied);
    lines.splice(at..at, [serde_json::json!({"type": "turn.started"}), copy]);
    Some(format!("insert turn.started and a copy of /lines/{copied} at {at}"))
}

/// Replaces a decoded line with its raw JSON text.
fn raw_line(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let lines = input.get_mut("lines")?.as_array_mut()?;
    let decoded: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.is_object()).map(|(i, _)| i).collect();
    let index = *chooser.pick(&decoded)?;
    // The text holds what its JavaScript string would: stored as the crate
    // stores strings (a literal U+10FFFD doubled), like a parsed raw line.
    let text = crate::json::to_compact_string(&lines[index]);
    lines[index] = Value::String(crate::json::from_utf16(&crate::json::to_utf16(&text)));
    Some(format!("write /lines/{index} as raw text"))
}
