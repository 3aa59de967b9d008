//! Message kinds and the route table: the single place that says which
//! track every SDK message kind feeds, or why it is not displayed. The fold
//! dispatches on [`Route`], so a kind missing here is reported as
//! `unknown-kind` and the inventory test notices it.

use serde_json::Value;

/// Where a kind of message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// `assistant`: a transcript turn, its tool calls and server-tool results.
    Assistant,
    /// `user`: classified by the six-row table (turns or tool calls).
    User,
    /// `system/init`: opens or refreshes the session snapshot.
    Init,
    /// `system/commands_changed`: refreshes the snapshot's slash commands.
    CommandsChanged,
    /// `system/status`: a status notice (and the snapshot's permission mode).
    Status,
    /// `result/*`: a result notice.
    Result,
    /// `system/compact_boundary`: a compact notice.
    CompactBoundary,
    /// `system/api_retry`: an api-retry notice.
    ApiRetry,
    /// `system/hook_*`: a hook notice with this status.
    Hook(&'static str),
    /// `system/session_state_changed`: a session-state notice.
    SessionState,
    /// `system/files_persisted`: a files-persisted notice.
    FilesPersisted,
    /// `system/elicitation_complete`: an elicitation notice.
    Elicitation,
    /// `rate_limit_event`: a rate-limit notice.
    RateLimit,
    /// `system/informational`, `system/notification`, `auth_status`: an info
    /// notice (human-readable harness text).
    Info,
    /// `system/local_command_output`: a synthetic assistant turn.
    LocalCommandOutput,
    /// `system/task_started`: opens the sub-agent record (or the background
    /// task) of a call.
    TaskStarted,
    /// `system/task_progress`: appends to a sub-agent's progress.
    TaskProgress,
    /// `system/task_notification`: finalises a sub-agent record or a
    /// background task.
    TaskNotification,
    /// `system/task_updated`: patches a task's status.
    TaskUpdated,
    /// `stream_event`: a streaming preview of an assistant message.
    StreamEvent,
    /// `tool_progress`: the call is running.
    ToolProgress,
    /// `control_request/can_use_tool`: the call awaits approval.
    PermissionRequest,
    /// `system/permission_denied`: the call was denied.
    PermissionDenied,
    /// `control_response`: the client's answer to a `can_use_tool` prompt
    /// (allow → running, deny → denied); other responses are control
    /// protocol.
    PermissionAnswer,
    /// Not displayed, for this reason id.
    Ignored(&'static str),
}

/// Every kind the display model knows, `type` or `type/subtype`.
pub const ROUTES: &[(&str, Route)] = &[
    ("assistant", Route::Assistant),
    ("user", Route::User),
    ("stream_event", Route::StreamEvent),
    ("result/success", Route::Result),
    ("result/error_during_execution", Route::Result),
    ("result/error_max_turns", Route::Result),
    ("result/error_max_budget_usd", Route::Result),
    ("result/error_max_structured_output_retries", Route::Result),
    ("system/init", Route::Init),
    ("system/compact_boundary", Route::CompactBoundary),
    ("system/status", Route::Status),
    ("system/api_retry", Route::ApiRetry),
    ("system/control_request_progress", Route::Ignored("control-protocol")),
    ("system/model_refusal_fallback", Route::Ignored("refusal-bookkeeping")),
    ("system/model_refusal_no_fallback", Route::Ignored("refusal-bookkeeping")),
    ("system/local_command_output", Route::LocalCommandOutput),
    ("system/hook_started", Route::Hook("started")),
    ("system/hook_progress", Route::Hook("progress")),
    ("system/hook_response", Route::Hook("response")),
    ("system/plugin_install", Route::Ignored("plugin-install-progress")),
    ("tool_progress", Route::ToolProgress),
    ("auth_status", Route::Info),
    ("system/task_notification", Route::TaskNotification),
    ("system/task_started", Route::TaskStarted),
    ("system/task_updated", Route::TaskUpdated),
    ("system/task_progress", Route::TaskProgress),
    ("system/background_tasks_changed", Route::Ignored("task-bookkeeping")),
    ("system/thinking_tokens", Route::Ignored("thinking-estimate")),
    ("system/session_state_changed", Route::SessionState),
    ("system/worker_shutting_down", Route::Ignored("process-lifecycle")),
    ("system/commands_changed", Route::CommandsChanged),
    ("system/notification", Route::Info),
    ("system/files_persisted", Route::FilesPersisted),
    ("tool_use_summary", Route::Ignored("tool-summary-label")),
    ("system/memory_recall", Route::Ignored("context-bookkeeping")),
    ("rate_limit_event", Route::RateLimit),
    ("system/elicitation_complete", Route::Elicitation),
    ("system/permission_denied", Route::PermissionDenied),
    ("prompt_suggestion", Route::Ignored("input-suggestion")),
    ("system/mirror_error", Route::Ignored("transcript-persistence")),
    ("system/informational", Route::Info),
    ("conversation_reset", Route::Ignored("session-lifecycle")),
    ("system/session_writes_lost", Route::Ignored("transcript-persistence")),
    ("active_goal", Route::Ignored("goal-state")),
    ("control_request/can_use_tool", Route::PermissionRequest),
    ("control_request", Route::Ignored("control-protocol")),
    ("control_response", Route::PermissionAnswer),
    ("control_cancel_request", Route::Ignored("control-protocol")),
    ("keep_alive", Route::Ignored("control-protocol")),
    ("command_lifecycle", Route::Ignored("command-queue-state")),
];

/// The kind of a frame: `type`, followed by `/subtype` when the frame has a
/// string `subtype` (for `control_request`, the inner `request.subtype`).
/// Frames that are not objects are `invalid`; objects without a string
/// `type` are `untyped`.
pub fn kind_of(message: &Value) -> String {
    let Some(object) = message.as_object() else {
        return "invalid".to_owned();
    };
    let Some(ty) = object.get("type").and_then(Value::as_str) else {
        return "untyped".to_owned();
    };
    let subtype = if ty == "control_request" {
        object.get("request").and_then(|request| request.get("subtype"))
    } else {
        object.get("subtype")
    };
    match subtype.and_then(Value::as_str) {
        Some(subtype) => format!("{ty}/{subtype}"),
        None => ty.to_owned(),
    }
}

/// The route of a kind: the exact `type/subtype` entry, else the entry for
/// the bare `type` when the type is routed as a whole (so `user` frames
/// with a stray `subtype` still classify, but an unknown `system/x` does not
/// fall back to anything).
pub fn route(kind: &str) -> Option<Route> {
    let exact = ROUTES.iter().find(|(name, _)| *name == kind).map(|(_, route)| *route);
    exact.or_else(|| {
        let (ty, _) = kind.split_once('/')?;
        if matches!(ty, "system" | "result") {
            return None;
        }
        ROUTES.iter().find(|(name, _)| *name == ty).map(|(_, route)| *route)
    })
}

/// What a content block becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockRule {
    /// A `text` part.
    Text,
    /// A `reasoning` part.
    Reasoning,
    /// A `file` part (base64 and URL sources), else the data escape hatch.
    File,
    /// Opens a tool call: a `tool-call` part.
    OpensCall,
    /// Settles the tool call it names (no part; a `data` part when the call
    /// is not in the stream). In a `user` frame it makes the frame a tool
    /// return (row 2).
    SettlesCall,
    /// The `data` escape hatch `{name: <block type>, data}`.
    Data,
}

/// Content blocks of `assistant` frames.
pub const ASSISTANT_BLOCKS: &[(&str, BlockRule)] = &[
    ("text", BlockRule::Text),
    ("thinking", BlockRule::Reasoning),
    ("redacted_thinking", BlockRule::Reasoning),
    ("tool_use", BlockRule::OpensCall),
    ("server_tool_use", BlockRule::OpensCall),
    ("mcp_tool_use", BlockRule::OpensCall),
    ("web_search_tool_result", BlockRule::SettlesCall),
    ("web_fetch_tool_result", BlockRule::SettlesCall),
    ("advisor_tool_result", BlockRule::SettlesCall),
    ("code_execution_tool_result", BlockRule::SettlesCall),
    ("bash_code_execution_tool_result", BlockRule::SettlesCall),
    ("text_editor_code_execution_tool_result", BlockRule::SettlesCall),
    ("tool_search_tool_result", BlockRule::SettlesCall),
    ("mcp_tool_result", BlockRule::SettlesCall),
    ("container_upload", BlockRule::Data),
    ("compaction", BlockRule::Data),
    ("fallback", BlockRule::Data),
    ("mcp_tool_listing", BlockRule::Data),
];

/// Content blocks of `user` frames. Tool-use blocks in a user frame are
/// history the harness resends, not calls made here, so they stay data.
pub const USER_BLOCKS: &[(&str, BlockRule)] = &[
    ("text", BlockRule::Text),
    ("image", BlockRule::File),
    ("document", BlockRule::File),
    ("search_result", BlockRule::Data),
    ("thinking", BlockRule::Reasoning),
    ("redacted_thinking", BlockRule::Reasoning),
    ("tool_use", BlockRule::Data),
    ("tool_result", BlockRule::SettlesCall),
    ("server_tool_use", BlockRule::Data),
    ("web_search_tool_result", BlockRule::SettlesCall),
    ("web_fetch_tool_result", BlockRule::SettlesCall),
    ("code_execution_tool_result", BlockRule::SettlesCall),
    ("bash_code_execution_tool_result", BlockRule::SettlesCall),
    ("text_editor_code_execution_tool_result", BlockRule::SettlesCall),
    ("tool_search_tool_result", BlockRule::SettlesCall),
    ("container_upload", BlockRule::Data),
];

/// The rule for a block type in `table`; types the table does not know use
/// the data escape hatch (except `*tool_result`, which always settles).
pub fn block_rule(table: &[(&str, BlockRule)], block_type: &str) -> BlockRule {
    match table.iter().find(|(name, _)| *name == block_type) {
        Some((_, rule)) => *rule,
        None if block_type.ends_with("tool_result") => BlockRule::SettlesCall,
        None => BlockRule::Data,
    }
}
