//! Claude message kinds and the disposition rule for each: every member of
//! the SDK's `SDKMessage` union (claude-agent-sdk 0.3.332), the stdout-only
//! control frames, the partial-message stream events and the content blocks
//! either map to events or are ignored for a stated reason. A kind with no
//! entry here falls back to "unknown", which the inventory test forbids for
//! every kind the SDK declares.

use serde_json::{Map, Value};

/// What the normalizer does with a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindRule {
    /// It maps to events by the named rule (it may still be ignored per
    /// message, e.g. an `init` without a `session_id`).
    Mapped(&'static str),
    /// It never produces events, for this reason.
    Ignored(&'static str),
}

/// The dotted kind of a message: `assistant`, `user`, `user/replay`,
/// `system/<subtype>`, `result/<subtype>`, `stream_event/<event>[/<delta>]`,
/// `control_request/<subtype>`, or the bare `type` for everything else.
pub fn message_kind(message: &Map<String, Value>) -> String {
    let text = |value: Option<&Value>| value.and_then(Value::as_str).unwrap_or("(none)").to_owned();
    let Some(message_type) = message.get("type").and_then(Value::as_str) else {
        return "(no type)".to_owned();
    };
    match message_type {
        "system" | "result" => format!("{message_type}/{}", text(message.get("subtype"))),
        "user" if message.get("isReplay") == Some(&Value::Bool(true)) => "user/replay".to_owned(),
        "stream_event" => {
            let event = message.get("event");
            let event_type = text(event.and_then(|e| e.get("type")));
            match event.and_then(|e| e.get("delta")).and_then(|d| d.get("type")).and_then(Value::as_str) {
                Some(delta) if event_type == "content_block_delta" => format!("stream_event/{event_type}/{delta}"),
                _ => format!("stream_event/{event_type}"),
            }
        }
        "control_request" => format!("control_request/{}", text(message.get("request").and_then(|r| r.get("subtype")))),
        other => other.to_owned(),
    }
}

const PARTIAL: &str = "a partial-message stream event; the complete assistant frame that follows is mapped instead";
const TASK: &str = "sub-agent task bookkeeping; the sub-agent's own frames carry parent_tool_use_id and are mapped";
const HOOK: &str = "hook lifecycle output for the host, not agent output";

/// Mapped kinds and the rule that handles them.
const MAPPED: &[(&str, &str)] = &[
    ("system/init", "claude.init.session-ready"),
    ("assistant", "claude.assistant.blocks"),
    ("user", "claude.user.tool-results"),
    ("result/success", "claude.result.final-text"),
    ("result/error_during_execution", "claude.result.final-text"),
    ("result/error_max_turns", "claude.result.final-text"),
    ("result/error_max_budget_usd", "claude.result.final-text"),
    ("result/error_max_structured_output_retries", "claude.result.final-text"),
    ("control_request/can_use_tool", "claude.permission.request"),
    ("control_response", "claude.permission.resolved"),
    ("stream_event/content_block_delta/text_delta", "claude.stream-event.text-delta"),
    ("stream_event/content_block_delta/thinking_delta", "claude.stream-event.thinking-delta"),
];

/// Kinds that never produce events, with the reason recorded in their
/// disposition.
const IGNORED: &[(&str, &str)] = &[
    ("user/replay", "an echo of a user message the client sent itself (--replay-user-messages)"),
    ("system/status", "status and compaction progress for the host's status line"),
    ("system/compact_boundary", "a compaction marker; no event in the normalized model"),
    ("system/api_retry", "the CLI retries the request itself; the final outcome is mapped"),
    ("system/control_request_progress", "progress of a control request, not agent output"),
    ("system/model_refusal_fallback", "refusal bookkeeping; the retried answer arrives as assistant frames"),
    ("system/model_refusal_no_fallback", "refusal bookkeeping; the refusal text arrives as an assistant frame"),
    ("system/local_command_output", "output of a local slash command, not of the agent"),
    ("system/hook_started", HOOK),
    ("system/hook_progress", HOOK),
    ("system/hook_response", HOOK),
    ("system/plugin_install", "plugin installation progress"),
    ("system/task_started", TASK),
    ("system/task_updated", TASK),
    ("system/task_progress", TASK),
    ("system/task_notification", TASK),
    ("system/background_tasks_changed", TASK),
    ("system/thinking_tokens", "a token estimate; the thinking text arrives as an assistant frame"),
    ("system/session_state_changed", "session state for the host (running/idle/requires_action)"),
    ("system/worker_shutting_down", "process lifecycle of the CLI worker"),
    ("system/commands_changed", "the slash-command list changed"),
    ("system/notification", "a host notification, not agent output"),
    ("system/files_persisted", "file persistence bookkeeping"),
    ("system/memory_recall", "memory recall bookkeeping"),
    ("system/elicitation_complete", "an MCP elicitation finished; no event in the normalized model"),
    ("system/permission_denied", "the denial reaches the model as an error tool_result, which is mapped"),
    ("system/mirror_error", "a transcript mirroring failure of the host"),
    ("system/informational", "an informational notice for the host"),
    ("system/session_writes_lost", "transcript persistence failure of the host"),
    ("tool_progress", "a progress heartbeat of a running tool"),
    ("auth_status", "authentication progress of the CLI"),
    ("tool_use_summary", "a summary of earlier tool calls; the calls themselves are mapped"),
    ("rate_limit_event", "rate-limit state for the host"),
    ("prompt_suggestion", "a suggested next prompt for the host"),
    ("conversation_reset", "the CLI started a new conversation; no event in the normalized model"),
    ("active_goal", "goal tracking state for the host"),
    ("keep_alive", "a transport keep-alive"),
    ("control_cancel_request", "cancels a control request; the permission prompt stays unanswered"),
    ("command_lifecycle", "queue state of a stream-json input command"),
    ("stream_event/message_start", "opens a streamed assistant message; its text and thinking deltas are mapped"),
    ("stream_event/message_delta", PARTIAL),
    ("stream_event/message_stop", PARTIAL),
    ("stream_event/content_block_start", "opens a streamed content block; its text and thinking deltas are mapped"),
    ("stream_event/content_block_stop", PARTIAL),
    ("stream_event/content_block_delta/input_json_delta", PARTIAL),
    ("stream_event/content_block_delta/citations_delta", PARTIAL),
    ("stream_event/content_block_delta/signature_delta", PARTIAL),
    ("stream_event/content_block_delta/compaction_delta", PARTIAL),
];

/// Any other control request (there are dozens of subtypes).
pub const OTHER_CONTROL_REQUEST: &str = "a control request other than a tool permission prompt";

/// The reason recorded for a kind no rule knows.
pub const UNKNOWN_KIND: &str = "unknown message kind; no rule maps or ignores it";

/// The rule for a message kind, or `None` when no rule knows it.
pub fn rule(kind: &str) -> Option<KindRule> {
    if let Some((_, rule)) = MAPPED.iter().find(|(known, _)| *known == kind) {
        return Some(KindRule::Mapped(rule));
    }
    if let Some((_, reason)) = IGNORED.iter().find(|(known, _)| *known == kind) {
        return Some(KindRule::Ignored(reason));
    }
    kind.starts_with("control_request/").then_some(KindRule::Ignored(OTHER_CONTROL_REQUEST))
}

/// Whether a content block sits in an assistant or a user message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `assistant` message content (the Messages API response blocks).
    Assistant,
    /// `user` message content (MessageParam blocks).
    User,
}

/// Server-side tool results that come back inside assistant content.
pub const SERVER_TOOL_RESULTS: [&str; 8] = [
    "mcp_tool_result",
    "web_search_tool_result",
    "web_fetch_tool_result",
    "advisor_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "tool_search_tool_result",
];

const USER_INPUT: &str = "the user's own input (text, media, echoed history), not agent output";

/// The rule for a content block type in a message of `role`.
pub fn block_rule(role: Role, block_type: &str) -> Option<KindRule> {
    let rule = match (role, block_type) {
        (Role::Assistant, "text") => KindRule::Mapped("claude.block.text-delta"),
        (Role::Assistant, "thinking") => KindRule::Mapped("claude.block.thinking"),
        (Role::Assistant, "tool_use") => KindRule::Mapped("claude.block.tool-start"),
        (Role::Assistant, "server_tool_use" | "mcp_tool_use") => KindRule::Mapped("claude.block.server-tool-start"),
        (Role::Assistant, kind) if SERVER_TOOL_RESULTS.contains(&kind) => {
            KindRule::Mapped("claude.block.server-tool-result")
        }
        (Role::Assistant, "redacted_thinking") => KindRule::Ignored("encrypted thinking; nothing displayable"),
        (Role::Assistant, "container_upload") => KindRule::Ignored("a file uploaded to the code-execution container"),
        (Role::Assistant, "compaction") => KindRule::Ignored("a summary of compacted context, not new output"),
        (Role::Assistant, "fallback") => KindRule::Ignored("a model-fallback marker, not output"),
        (Role::Assistant, "mcp_tool_listing") => KindRule::Ignored("the tool list of an MCP server"),
        (Role::User, "tool_result") => KindRule::Mapped("claude.block.tool-result"),
        (
            Role::User,
            "text" | "image" | "document" | "search_result" | "thinking" | "redacted_thinking" | "tool_use"
            | "server_tool_use" | "container_upload",
        ) => KindRule::Ignored(USER_INPUT),
        (Role::User, kind) if SERVER_TOOL_RESULTS.contains(&kind) => KindRule::Ignored(USER_INPUT),
        _ => return None,
    };
    Some(rule)
}

/// The reason recorded for a content block type no rule knows.
pub const UNKNOWN_BLOCK: &str = "unknown content block type";
