//! Sub-agents of session transcripts. Outside SDK mode, Claude Code 1.x
//! writes a `Task` sub-agent's entries into the session transcript inline,
//! flagged `isSidechain: true` and without `parent_tool_use_id`: the prompt
//! the `Task` call sent opens a chain of entries linked by `parentUuid`, and
//! the call's `tool_result` in the main thread closes it. Such entries belong
//! in the call's sub-agent transcript (seed 000 §5, §14), not in the main
//! thread.
//!
//! A sidechain entry is attributed, in this order:
//!
//! 1. to the transcript of the entry its `parentUuid` names, when that entry
//!    was a sidechain entry already attributed (the chain);
//! 2. a chain's first entry: to the oldest open sub-agent call (not settled,
//!    no sidechain yet) whose input `prompt` is the entry's text;
//! 3. else to the oldest open sub-agent call without a sidechain;
//! 4. else to the main thread: a file of nothing but sidechain entries (the
//!    `agent-*.jsonl` file of a sub-agent) is that sub-agent's own
//!    transcript.

use super::model::{Caller, Container, Model};
use super::parts::{block_text, content_blocks};
use crate::suite_api::RuleTrace;
use serde_json::Value;

/// Whether a frame is a transcript's inline sub-agent entry: flagged
/// `isSidechain: true` with no `parent_tool_use_id` to say where it goes.
pub fn is_inline_sidechain(message: &Value) -> bool {
    message.get("isSidechain") == Some(&Value::Bool(true))
        && message.get("parent_tool_use_id").is_none_or(Value::is_null)
}

/// The transcript an inline sidechain entry belongs to (see the module
/// docs); the entry's `uuid` is remembered so that its children follow it.
pub fn attribute(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Container {
    let parent = message.get("parentUuid").and_then(Value::as_str);
    let container = match parent.and_then(|parent| model.sidechain_hosts.get(parent)).copied() {
        Some(container) => {
            trace.hit("claude-display.sidechain.chain");
            container
        }
        None => root(model, message, trace),
    };
    if let Some(uuid) = message.get("uuid").and_then(Value::as_str) {
        model.sidechain_hosts.insert(uuid.to_owned(), container);
    }
    container
}

/// The transcript of the first entry of a chain.
fn root(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Container {
    let open: Vec<usize> = (0..model.calls.len())
        .filter(|ix| {
            let call = &model.calls[*ix];
            call.caller == Caller::Subagent && !call.state.is_settled() && !model.sidechain_calls.contains(ix)
        })
        .collect();
    let text = (message.get("type").and_then(Value::as_str) == Some("user")).then(|| prompt_text(message)).flatten();
    let by_prompt = text.and_then(|text| {
        open.iter().copied().find(|&ix| {
            model.calls[ix].input.get("prompt").and_then(Value::as_str).is_some_and(|prompt| prompt.trim() == text)
        })
    });
    let chosen = match by_prompt {
        Some(ix) => {
            trace.hit("claude-display.sidechain.prompt-match");
            Some(ix)
        }
        None => {
            let first = open.first().copied();
            if first.is_some() {
                trace.hit("claude-display.sidechain.open-call");
            }
            first
        }
    };
    match chosen {
        Some(ix) => {
            model.sidechain_calls.insert(ix);
            Container::Call(ix)
        }
        None => {
            trace.hit("claude-display.sidechain.unattributed");
            Container::Main
        }
    }
}

/// The text of a user entry (its text blocks joined by newlines), trimmed.
fn prompt_text(message: &Value) -> Option<String> {
    let blocks = content_blocks(message)?;
    let texts: Vec<&str> = blocks.iter().filter_map(block_text).collect();
    (!texts.is_empty()).then(|| texts.join("\n").trim().to_owned())
}
