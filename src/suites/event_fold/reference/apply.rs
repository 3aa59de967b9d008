//! Applying one normalized event to the message list: the seed's
//! accumulation rules and `applyEventBlocksToMessage`, shared by the live
//! path and the replay path so the two cannot drift.
//!
//! - `user_message` opens a user bubble and finishes the open agent bubble.
//! - `thinking`, `delta`, `tool_start`, `permission_request`, `error` and
//!   `result` go to the open agent bubble, creating one when the last
//!   bubble is done or not an agent's ("ensure current agent message").
//! - `tool_result` and `permission_resolved` update the block they answer in
//!   the last agent bubble; they never open one.
//! - `result` fills empty content and, like `done`, closes the bubble.
//! - Events with `subagent_id` go to that sub-agent's block (created on
//!   first sight when no spawn announced it) and fold recursively there.

use super::model::{
    AgentMessage, Block, Message, PermissionBlock, SubagentState, SubagentStatus, TextBlock, ToolBlock, ToolStatus,
    derived_content,
};
use crate::suite_api::RuleTrace;
use crate::suites::js::truthy;
use serde_json::{Map, Value};

/// Sub-agents nest at most this deep; a deeper spawn becomes a plain tool
/// block, which bounds recursion on hostile input.
pub const MAX_SUBAGENT_DEPTH: usize = 16;

/// Applies one event.
pub fn apply_event(
    messages: &mut Vec<Message>,
    event_type: &str,
    data: &Map<String, Value>,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) {
    if event_type == "user_message" {
        trace.hit("fold.user-message.new-bubble");
        if let Some(Message::Agent(open)) = messages.last_mut() {
            open.done = true;
        }
        let text = data.get("text").and_then(Value::as_str).unwrap_or("").to_owned();
        messages.push(Message::User { text });
        return;
    }
    let subagent_id = data.get("subagent_id").filter(|id| truthy(Some(id)));
    if event_type == "session_ready" && subagent_id.is_none() {
        trace.hit("fold.session-ready.no-block");
        return;
    }
    let Some(message) = target_message(messages, event_type) else {
        trace.hit("fold.no-open-message");
        return;
    };
    match subagent_id {
        Some(id) => route_to_subagent(message, id, event_type, data, ts, trace),
        None => apply_to_message(message, event_type, data, ts, trace),
    }
}

/// The bubble an event goes to: the open agent bubble (created if needed)
/// for events that add something, the last agent bubble for events that
/// answer something, and nothing when there is no such bubble.
fn target_message<'a>(messages: &'a mut Vec<Message>, event_type: &str) -> Option<&'a mut AgentMessage> {
    let answers = matches!(event_type, "tool_result" | "permission_resolved");
    let open = matches!(messages.last(), Some(Message::Agent(message)) if !message.done);
    if answers {
        return messages.iter_mut().rev().find_map(|m| match m {
            Message::Agent(message) => Some(message),
            Message::User { .. } => None,
        });
    }
    if !open && !adds_content(event_type) {
        return None;
    }
    if !open {
        messages.push(Message::Agent(AgentMessage::default()));
    }
    match messages.last_mut() {
        Some(Message::Agent(message)) => Some(message),
        _ => None,
    }
}

/// Events that add something to a bubble (and may open one).
fn adds_content(event_type: &str) -> bool {
    matches!(
        event_type,
        "thinking" | "delta" | "tool_start" | "permission_request" | "error" | "result" | "session_ready"
    )
}

fn apply_to_message(
    message: &mut AgentMessage,
    event_type: &str,
    data: &Map<String, Value>,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) {
    match event_type {
        "thinking" => {
            trace.hit("fold.thinking.append");
            if let Some(text) = data.get("text").and_then(Value::as_str) {
                message.thinking.push_str(text);
            }
            if let Some(done) = data.get("done").and_then(Value::as_bool) {
                message.thinking_done = done;
            }
        }
        "result" => {
            if let Some(text) = data.get("text").and_then(Value::as_str).filter(|t| !t.is_empty())
                && derived_content(&message.blocks).is_empty()
            {
                trace.hit("fold.result.fills-empty-content");
                message.blocks.push(Block::Text(TextBlock::new(text, None)));
            }
            trace.hit("fold.result.done");
            message.done = true;
        }
        "done" => {
            trace.hit("fold.done");
            message.done = true;
        }
        _ => {
            if apply_to_blocks(&mut message.blocks, 0, event_type, data, ts, trace) == Applied::No {
                trace.hit("fold.event.no-effect");
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Applied {
    Yes,
    No,
}

/// The block-level events, on a message's or a sub-agent's blocks.
fn apply_to_blocks(
    blocks: &mut Vec<Block>,
    depth: usize,
    event_type: &str,
    data: &Map<String, Value>,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) -> Applied {
    match event_type {
        "delta" => {
            let Some(text) = data.get("text").and_then(Value::as_str) else {
                return Applied::No;
            };
            let message_id = data.get("message_id");
            match blocks.last_mut() {
                Some(Block::Text(last)) if !other_message(last.message_id.as_ref(), message_id) => {
                    trace.hit("fold.delta.append");
                    last.text.push_str(text);
                    if last.message_id.is_none() {
                        last.message_id = message_id.cloned();
                    }
                }
                Some(Block::Text(_)) => {
                    trace.hit("fold.delta.new-message");
                    blocks.push(Block::Text(TextBlock::new(text, message_id)));
                }
                _ => {
                    trace.hit("fold.delta.new-text-block");
                    blocks.push(Block::Text(TextBlock::new(text, message_id)));
                }
            }
        }
        "tool_start" => {
            let spawn = data.get("subagent_spawn") == Some(&Value::Bool(true));
            if spawn && depth < MAX_SUBAGENT_DEPTH {
                trace.hit("fold.tool-start.subagent-spawn");
                let id = data.get("tool_use_id").cloned().unwrap_or(Value::Null);
                let mut subagent = new_subagent(id, data, ts, trace);
                subagent.spawn = Some(Box::new(tool_block(data)));
                blocks.push(Block::Subagent(subagent));
            } else {
                trace.hit("fold.tool-start.tool-block");
                blocks.push(Block::Tool(Box::new(tool_block(data))));
            }
        }
        "tool_result" => return tool_result(blocks, data, ts, trace),
        "permission_request" => {
            trace.hit("fold.permission.request");
            blocks.push(Block::Permission(PermissionBlock {
                tool_name: data.get("tool_name").cloned(),
                tool_input: data.get("tool_input").cloned(),
                allowed: None,
                resolved: false,
            }));
        }
        "permission_resolved" => {
            let tool_name = data.get("tool_name");
            let pending = blocks.iter_mut().rev().find_map(|block| match block {
                Block::Permission(permission) if !permission.resolved && permission.tool_name.as_ref() == tool_name => {
                    Some(permission)
                }
                _ => None,
            });
            let Some(permission) = pending else {
                trace.hit("fold.permission.resolved-unmatched");
                return Applied::No;
            };
            trace.hit("fold.permission.resolved");
            permission.resolved = true;
            permission.allowed = data.get("allowed").and_then(Value::as_bool);
        }
        "error" => {
            trace.hit("fold.error.block");
            let message = data.get("message").and_then(Value::as_str).unwrap_or("").to_owned();
            blocks.push(Block::Error(message));
        }
        _ => return Applied::No,
    }
    Applied::Yes
}

/// Whether a delta of `message_id` belongs to another assistant message than
/// the text block of `block_id`: both are known and differ.
fn other_message(block_id: Option<&Value>, message_id: Option<&Value>) -> bool {
    matches!((block_id, message_id), (Some(block), Some(delta)) if block != delta)
}

/// A running sub-agent opened by an event at `ts` (seed 002's
/// `SubAgentState.startedAt`).
fn new_subagent(id: Value, data: &Map<String, Value>, ts: Option<&Value>, trace: &mut dyn RuleTrace) -> SubagentState {
    let name = data.get("subagent_name").filter(|name| truthy(Some(name))).cloned();
    if ts.is_some() {
        trace.hit("fold.subagent.started-at");
    }
    SubagentState {
        id,
        name: name.unwrap_or_else(|| Value::from("sub-agent")),
        status: SubagentStatus::Running,
        blocks: Vec::new(),
        spawn: None,
        started_at: ts.cloned(),
        completed_at: None,
    }
}

/// A sub-agent completed or failed by an event at `ts` (seed 002's
/// `SubAgentState.completedAt`): the last such event's time, absent when
/// it has none.
fn finish_subagent(
    subagent: &mut SubagentState,
    status: SubagentStatus,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) {
    if ts.is_some() {
        trace.hit("fold.subagent.completed-at");
    }
    subagent.status = status;
    subagent.completed_at = ts.cloned();
}

/// `tool_start` → a tool block; `file_path` and `pattern` fall back to the
/// nested input for events stored before the adapter lifted them.
fn tool_block(data: &Map<String, Value>) -> ToolBlock {
    let input = data.get("input").filter(|input| input.is_object());
    let lifted = |key: &str| data.get(key).filter(|v| !v.is_null()).or_else(|| input.and_then(|i| i.get(key))).cloned();
    ToolBlock {
        tool_use_id: data.get("tool_use_id").cloned(),
        tool: data.get("tool").cloned(),
        input: data.get("input").cloned(),
        command: data.get("command").cloned(),
        file_path: lifted("file_path"),
        pattern: lifted("pattern"),
        search_path: data.get("search_path").cloned(),
        is_file_read: data.get("is_file_read").cloned(),
        status: ToolStatus::Running,
        output: None,
        is_error: None,
        exit_code: None,
    }
}

/// `tool_result` upgrades the last tool block with its id, or completes the
/// sub-agent it spawned.
fn tool_result(
    blocks: &mut [Block],
    data: &Map<String, Value>,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) -> Applied {
    let id = data.get("tool_use_id");
    let tool = blocks.iter_mut().rev().find_map(|block| match block {
        Block::Tool(tool) if tool.tool_use_id.as_ref() == id => Some(tool),
        _ => None,
    });
    if let Some(tool) = tool {
        trace.hit("fold.tool-result.upgrade");
        complete_tool(tool, data);
        return Applied::Yes;
    }
    let position =
        blocks.iter().rposition(|block| matches!(block, Block::Subagent(subagent) if Some(&subagent.id) == id));
    let Some(slot) = position.and_then(|position| blocks.get_mut(position)) else {
        trace.hit("fold.tool-result.unmatched");
        return Applied::No;
    };
    if let Block::Subagent(subagent) = slot
        && let Some(mut spawn) = never_ran(subagent, data)
    {
        trace.hit("fold.subagent.never-ran");
        complete_tool(&mut spawn, data);
        *slot = Block::Tool(spawn);
        return Applied::Yes;
    }
    let Block::Subagent(subagent) = slot else { return Applied::No };
    let failed = truthy(data.get("is_error"));
    trace.hit(if failed { "fold.subagent.failed" } else { "fold.subagent.completed" });
    finish_subagent(subagent, if failed { SubagentStatus::Failed } else { SubagentStatus::Completed }, ts, trace);
    Applied::Yes
}

/// A tool block done with the result's output, error flag and exit code.
fn complete_tool(tool: &mut ToolBlock, data: &Map<String, Value>) {
    tool.output = data.get("output").cloned();
    tool.is_error = data.get("is_error").cloned();
    tool.exit_code = data.get("exit_code").cloned();
    tool.status = ToolStatus::Done;
}

/// The spawn's tool block when the sub-agent never ran: its result is an
/// error the harness wrote before starting anything (output beginning
/// `<tool_use_error>`, Claude Code's input validation) and no event of the
/// sub-agent came. Such a call is a failed tool call, not a failed
/// sub-agent.
fn never_ran(subagent: &SubagentState, data: &Map<String, Value>) -> Option<Box<ToolBlock>> {
    let validation = data
        .get("output")
        .and_then(Value::as_str)
        .is_some_and(|output| output.trim_start().starts_with("<tool_use_error>"));
    (truthy(data.get("is_error")) && validation && subagent.blocks.is_empty()).then(|| subagent.spawn.clone()).flatten()
}

/// Routes an event carrying `subagent_id` into that sub-agent's blocks.
fn route_to_subagent(
    message: &mut AgentMessage,
    id: &Value,
    event_type: &str,
    data: &Map<String, Value>,
    ts: Option<&Value>,
    trace: &mut dyn RuleTrace,
) {
    if find_subagent(&mut message.blocks, id, 0).is_none() {
        if !adds_content(event_type) {
            trace.hit("fold.subagent.unknown-id-dropped");
            return;
        }
        trace.hit("fold.subagent.implicit-block");
        let subagent = new_subagent(id.clone(), data, ts, trace);
        message.blocks.push(Block::Subagent(subagent));
    }
    let Some((subagent, depth)) = find_subagent(&mut message.blocks, id, 0) else {
        return;
    };
    trace.hit("fold.subagent.routed");
    match event_type {
        "done" => {
            trace.hit("fold.subagent.done-completes");
            finish_subagent(subagent, SubagentStatus::Completed, ts, trace);
        }
        _ => {
            apply_to_blocks(&mut subagent.blocks, depth + 1, event_type, data, ts, trace);
        }
    }
}

/// The sub-agent with `id` anywhere under `blocks` (latest first), with its
/// nesting depth.
fn find_subagent<'a>(blocks: &'a mut [Block], id: &Value, depth: usize) -> Option<(&'a mut SubagentState, usize)> {
    if let Some(position) = blocks.iter().rposition(|block| matches!(block, Block::Subagent(s) if s.id == *id)) {
        return match blocks.get_mut(position) {
            Some(Block::Subagent(subagent)) => Some((subagent, depth)),
            _ => None,
        };
    }
    let position =
        blocks.iter().rposition(|block| matches!(block, Block::Subagent(s) if contains_subagent(&s.blocks, id)))?;
    match blocks.get_mut(position) {
        Some(Block::Subagent(subagent)) => find_subagent(&mut subagent.blocks, id, depth + 1),
        _ => None,
    }
}

fn contains_subagent(blocks: &[Block], id: &Value) -> bool {
    blocks.iter().any(|block| match block {
        Block::Subagent(subagent) => subagent.id == *id || contains_subagent(&subagent.blocks, id),
        _ => false,
    })
}
