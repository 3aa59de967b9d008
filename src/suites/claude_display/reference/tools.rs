//! Tool calls: one evolving record per call. A `tool_use` (or
//! `server_tool_use` / `mcp_tool_use`) block opens it, and results, progress
//! frames and permission frames move its state. The caller says who issued
//! it: the model, a server tool, an MCP server or (for `Agent`/`Task`) a
//! sub-agent.

use super::model::{Caller, Skill, Subagent, ToolCall, ToolState, Transcript};
use super::parts::content_text;
use super::refusals::{self, RefusalKind};
use serde_json::Value;

/// Tool names that run a sub-agent (`Task` is the older name of `Agent`).
const SUBAGENT_TOOLS: [&str; 2] = ["Agent", "Task"];

/// Opens a call from a call block; `None` when the block has no string id.
pub fn open_call(block: &Value, block_type: &str, depth: usize) -> Option<ToolCall> {
    let id = block.get("id").and_then(Value::as_str)?.to_owned();
    let name = block.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
    let (caller, mcp_server) = caller_of(block, block_type, &name);
    let input = block.get("input").cloned().unwrap_or(Value::Null);
    let skill = (block_type == "tool_use" && name == "Skill").then(|| Skill {
        skill_name: input.get("skill").and_then(Value::as_str).unwrap_or_default().to_owned(),
        body: None,
    });
    Some(ToolCall {
        id,
        name,
        caller,
        mcp_server,
        state: ToolState::Pending,
        input,
        output: None,
        error_text: None,
        sidecar: None,
        subagent: None,
        skill,
        task: None,
        elapsed_seconds: None,
        depth,
    })
}

/// Who issued a call. Server tools by block type or by a non-direct
/// `caller`; MCP by block type or by the `mcp__<server>__<tool>` name the
/// CLI gives MCP tools; sub-agents by tool name; the model otherwise.
fn caller_of(block: &Value, block_type: &str, name: &str) -> (Caller, Option<String>) {
    match block_type {
        "server_tool_use" => return (Caller::ServerTool, None),
        "mcp_tool_use" => {
            let server = block.get("server_name").and_then(Value::as_str).unwrap_or_default();
            return (Caller::Mcp, Some(server.to_owned()));
        }
        _ => {}
    }
    let caller_type = block.get("caller").and_then(|caller| caller.get("type")).and_then(Value::as_str);
    if caller_type.is_some_and(|ty| ty != "direct") {
        return (Caller::ServerTool, None);
    }
    if let Some(server) = mcp_server_of(name) {
        return (Caller::Mcp, Some(server.to_owned()));
    }
    if SUBAGENT_TOOLS.contains(&name) {
        return (Caller::Subagent, None);
    }
    (Caller::Model, None)
}

/// The server part of `mcp__<server>__<tool>`.
pub fn mcp_server_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some(server)
}

/// What a result block did to its call.
pub struct ResultFacts<'a> {
    /// The message's `tool_use_result` envelope (set on the first result of
    /// the message only).
    pub sidecar: Option<&'a Value>,
    /// The permission decision recorded for this call rejected it.
    pub rejected: bool,
}

/// Settles `call` from a result block. Errors on a call that was awaiting
/// approval, or whose permission decision was a rejection, are denials.
pub fn apply_result(call: &mut ToolCall, block: &Value, block_type: &str, facts: ResultFacts<'_>) {
    let content = block.get("content");
    let error = match block_type {
        "tool_result" | "mcp_tool_result" => {
            (block.get("is_error") == Some(&Value::Bool(true))).then(|| content_text(content))
        }
        _ => server_error(content),
    };
    match error {
        Some(text) => {
            let denied = facts.rejected || matches!(call.state, ToolState::ApprovalPending | ToolState::ApprovalDenied);
            call.state = if denied { ToolState::ApprovalDenied } else { ToolState::Error };
            call.error_text = Some(text);
            call.output = None;
        }
        None => {
            call.state = ToolState::Success;
            call.output = content.map(without_system_reminders);
            call.error_text = None;
        }
    }
    if let Some(sidecar) = facts.sidecar {
        call.sidecar = Some(sidecar.clone());
    }
}

/// A tool result's content without the `<system-reminder>` envelopes the CLI
/// appends for the model (after a Read: "Whenever you read a file, you
/// should consider whether it would be considered malware…"): harness
/// injections, not tool output, hidden from a tool card as seed 000 hides
/// them from user text. Only complete envelopes go, with the whitespace they
/// leave at the end; a text without one, and every other value, is kept as
/// sent.
fn without_system_reminders(content: &Value) -> Value {
    match content {
        Value::String(text) => Value::from(strip_reminders(text).unwrap_or_else(|| text.clone())),
        Value::Array(blocks) => Value::Array(
            blocks
                .iter()
                .map(|block| {
                    let text = (block.get("type").and_then(Value::as_str) == Some("text"))
                        .then(|| block.get("text").and_then(Value::as_str))
                        .flatten();
                    match (text.and_then(strip_reminders), block.as_object()) {
                        (Some(stripped), Some(object)) => {
                            let mut object = object.clone();
                            object.insert("text".to_owned(), Value::from(stripped));
                            Value::Object(object)
                        }
                        _ => block.clone(),
                    }
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `text` without its complete `<system-reminder>…</system-reminder>`
/// envelopes and the trailing whitespace they leave, or `None` when it has
/// none.
fn strip_reminders(text: &str) -> Option<String> {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let mut rest = text;
    let mut out = String::new();
    let mut removed = false;
    while let Some(at) = rest.find(OPEN) {
        let after_open = at + OPEN.len();
        let Some(close_at) = rest.get(after_open..).and_then(|tail| tail.find(CLOSE)) else { break };
        out.push_str(rest.get(..at).unwrap_or_default());
        rest = rest.get(after_open + close_at + CLOSE.len()..).unwrap_or_default();
        removed = true;
    }
    if !removed {
        return None;
    }
    out.push_str(rest);
    Some(out.trim_end().to_owned())
}

/// Whether a sub-agent call never ran: Claude Code refused its input before
/// starting anything (`<tool_use_error>InputValidationError: Task failed due
/// to the following issue: …</tool_use_error>`, an unknown agent type) and
/// nothing of a sub-agent was seen. Such a call is a failed tool call, not a
/// failed sub-agent: it gets no sub-agent record.
pub fn never_ran(call: &ToolCall) -> bool {
    call.caller == Caller::Subagent
        && call.subagent.is_none()
        && call.state == ToolState::Error
        && call.error_text.as_deref().is_some_and(|text| text.trim_start().starts_with("<tool_use_error>"))
}

/// A sub-agent record no task frame reported (one opened by the frames of
/// its transcript, such as a session transcript's sidechain, or none at all:
/// the result then opens it) ends with its call's result: `completed` on success, `failed` otherwise, with the usage
/// totals the `Task` result's sidecar reports (`totalTokens`,
/// `totalToolUseCount`, `totalDurationMs`). Returns whether it did.
/// Records that task frames report wait for their `task_notification`: a
/// background sub-agent's call returns while it still runs.
pub fn settle_subagent(call: &mut ToolCall) -> bool {
    let state = call.state;
    let sidecar = call.sidecar.clone();
    if call.caller == Caller::Subagent && call.subagent.is_none() {
        // SDK-mode transcripts record no task frames and no nested entries:
        // the result is all there is to say about the sub-agent.
        let description = call.input.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
        call.subagent = Some(Subagent {
            task_id: None,
            description,
            progress: Vec::new(),
            status: "running".to_owned(),
            usage: None,
            transcript: Transcript::default(),
            finished: false,
        });
    }
    let Some(record) = call.subagent.as_mut().filter(|record| !record.finished && record.task_id.is_none()) else {
        return false;
    };
    record.status = if state == ToolState::Success { "completed" } else { "failed" }.to_owned();
    record.finished = true;
    let totals = sidecar.as_ref().and_then(Value::as_object);
    for (from, to) in
        [("totalTokens", "totalTokens"), ("totalToolUseCount", "toolUses"), ("totalDurationMs", "durationMs")]
    {
        if let Some(number) = totals.and_then(|totals| totals.get(from)).filter(|value| value.is_number()) {
            record.usage.get_or_insert_with(serde_json::Map::new).insert(to.to_owned(), number.clone());
        }
    }
    true
}

/// A server tool's error object (`{type: "…_tool_result_error", error_code}`)
/// reads as an error with its code as the text.
fn server_error(content: Option<&Value>) -> Option<String> {
    let object = content?.as_object()?;
    let ty = object.get("type").and_then(Value::as_str).unwrap_or_default();
    let code = object.get("error_code");
    if !ty.ends_with("_error") && code.is_none() {
        return None;
    }
    Some(code.and_then(Value::as_str).unwrap_or(ty).to_owned())
}

/// The sidecar strings (`tool_use_result`) of a refused call that say so in
/// other words than the result text.
const REJECTION_SIDECARS: [&str; 1] = ["User rejected tool use"];

/// What the CLI's record in an error result says about the call: a refusal
/// or an interruption (the rows of [`refusals`]), matched at the start of
/// the result text or of the `tool_use_result` sidecar string. Returns the
/// row's rule id and refusal kind.
pub fn cli_refusal(block: &Value, sidecar: Option<&Value>) -> Option<(&'static str, RefusalKind)> {
    if block.get("is_error") != Some(&Value::Bool(true)) {
        return None;
    }
    let sidecar = sidecar.and_then(Value::as_str);
    refusals::classify(&content_text(block.get("content"))).or_else(|| sidecar.and_then(refusals::classify)).or_else(
        || {
            let rejected = sidecar.is_some_and(|sidecar| REJECTION_SIDECARS.contains(&sidecar.trim()));
            rejected.then_some(("claude-display.refusal.rejected", RefusalKind::Refused))
        },
    )
}

/// Whether the message's `tool_result_meta` (an undeclared field the CLI
/// adds) records a rejected permission decision for `tool_call_id`.
pub fn rejected_by_meta(message: &Value, tool_call_id: &str) -> bool {
    let Some(entries) = message.get("tool_result_meta").and_then(Value::as_array) else {
        return false;
    };
    entries.iter().any(|entry| {
        entry.get("id").and_then(Value::as_str) == Some(tool_call_id)
            && entry.get("permission_decision").and_then(|d| d.get("decision")).and_then(Value::as_str)
                == Some("reject")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn system_reminders_leave_tool_output() {
        let read = "     1\tfn main() {}\n\n<system-reminder>\nWhenever you read a file, consider malware.\n</system-reminder>\n";
        assert_eq!(without_system_reminders(&json!(read)), json!("     1\tfn main() {}"));
        let blocks = json!([{"type": "text", "text": "ok<system-reminder>x</system-reminder>"}, {"type": "image"}]);
        assert_eq!(without_system_reminders(&blocks), json!([{"type": "text", "text": "ok"}, {"type": "image"}]));
        let open = "a <system-reminder> never closed";
        assert_eq!(without_system_reminders(&json!(open)), json!(open));
        assert_eq!(without_system_reminders(&json!({"k": 1})), json!({"k": 1}));
    }

    #[test]
    fn callers_follow_block_type_name_and_caller() {
        let open = |block: Value| {
            let ty = block["type"].as_str().unwrap_or_default().to_owned();
            let call = open_call(&block, &ty, 0).expect("has an id");
            (call.caller, call.mcp_server)
        };
        assert_eq!(open(json!({"type": "tool_use", "id": "a", "name": "Bash"})), (Caller::Model, None));
        assert_eq!(open(json!({"type": "tool_use", "id": "a", "name": "Agent"})), (Caller::Subagent, None));
        assert_eq!(
            open(json!({"type": "tool_use", "id": "a", "name": "mcp__docs__search"})),
            (Caller::Mcp, Some("docs".to_owned()))
        );
        assert_eq!(
            open(json!({"type": "tool_use", "id": "a", "name": "Bash", "caller": {"type": "code_execution_20250825"}})),
            (Caller::ServerTool, None)
        );
        assert_eq!(
            open(json!({"type": "server_tool_use", "id": "a", "name": "web_search"})),
            (Caller::ServerTool, None)
        );
        assert_eq!(mcp_server_of("mcp__x"), None);
    }
}
