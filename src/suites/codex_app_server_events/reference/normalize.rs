//! The Codex app-server normalizer: JSON-RPC frames in (server
//! notifications, server requests, responses, and the client's answers to
//! server requests), normalized events out, one frame at a time.
//!
//! It keeps the state the seed's adapter keeps across frames: the session's
//! main thread and its child (sub-agent) threads, which items already
//! streamed deltas, which tools started, open approval requests, and the
//! error each thread's current turn already reported.

use super::methods::{MethodRule, UNKNOWN_METHOD, rule};
use crate::json::to_compact_string;
use crate::suite_api::RuleTrace;
use crate::suites::agent_events::{
    ALREADY_STARTED, EventType, InvalidItemRules, ItemKind, StreamOutput, ToolTracker, command_tool_name,
    decode_object, delta_data, done_data, error_data, put, session_ready_data, thinking_data,
};
use crate::suites::js::{non_empty_str, or, truthy};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// An approval request the server sent.
#[derive(Debug)]
struct Approval {
    tool_name: Value,
    answered: bool,
}

/// Normalizes a Codex app-server frame stream. See the module docs.
#[derive(Debug, Default)]
pub struct AppServerNormalizer {
    session_id: Option<String>,
    out: StreamOutput,
    main_thread: Option<String>,
    /// Child thread id → the `subagent_id` its events carry.
    child_threads: HashMap<String, Value>,
    /// Items whose text or reasoning arrived as deltas.
    streamed: HashSet<String>,
    /// Tool items whose `tool_start` was emitted.
    tools: ToolTracker,
    /// Server request id (compact JSON) → approval.
    approvals: HashMap<String, Approval>,
    /// Thread id → the error message its current turn already reported.
    turn_errors: HashMap<String, String>,
}

/// Why a frame produced nothing; borrowed reasons are the common case.
type Reason = Cow<'static, str>;

impl AppServerNormalizer {
    /// A normalizer for the adapter session `session_id` (echoed in
    /// `session_ready` when given).
    pub fn new(session_id: Option<String>) -> Self {
        AppServerNormalizer { session_id, ..AppServerNormalizer::default() }
    }

    /// Feeds the next frames of the stream.
    pub fn feed(&mut self, frames: &[Value], trace: &mut dyn RuleTrace) {
        for raw in frames {
            let before = self.out.lengths();
            self.feed_one(raw, trace);
            self.out.claim_since(before, trace);
        }
    }

    /// What the stream has produced so far (a live adapter reads the events
    /// each item adds).
    pub fn output(&self) -> &StreamOutput {
        &self.out
    }

    /// Ends the stream and returns everything produced.
    pub fn finish(self) -> StreamOutput {
        self.out
    }

    fn feed_one(&mut self, raw: &Value, trace: &mut dyn RuleTrace) {
        const INVALID: InvalidItemRules =
            InvalidItemRules { not_json: "app-server.invalid-line", not_an_object: "app-server.not-an-object" };
        let first = self.out.next_index();
        let (kind, reason) = match decode_object(raw, INVALID, trace) {
            Ok(frame) => self.frame(&frame, trace),
            Err(reason) => ("invalid".to_owned(), reason),
        };
        self.out.settle(kind, first, reason);
    }

    /// Dispatches one frame; returns its kind and why it produced nothing
    /// (used only when it did).
    fn frame(&mut self, frame: &Map<String, Value>, trace: &mut dyn RuleTrace) -> (String, Reason) {
        if let (1, Some(Value::Object(client))) = (frame.len(), frame.get("client")) {
            return self.client_frame(client, trace);
        }
        let id = frame.get("id").filter(|id| !id.is_null());
        let Some(method) = frame.get("method").and_then(Value::as_str) else {
            if id.is_some() && (frame.contains_key("result") || frame.contains_key("error")) {
                trace.hit("app-server.response");
                return ("response".to_owned(), Cow::Borrowed("the response to a client request"));
            }
            trace.hit("app-server.unrecognized");
            return (
                "(unrecognized frame)".to_owned(),
                Cow::Borrowed("neither a notification, a request nor a response"),
            );
        };
        let empty = Map::new();
        let params = frame.get("params").and_then(Value::as_object).unwrap_or(&empty);
        let context = self.subagent_for(params);
        let mut kind = method.to_owned();
        let reason = match (method, id) {
            (
                "item/commandExecution/requestApproval"
                | "item/fileChange/requestApproval"
                | "item/permissions/requestApproval"
                | "execCommandApproval"
                | "applyPatchApproval",
                Some(id),
            ) => self.approval_request(method, id, params, &context, trace),
            ("thread/started", None) => self.thread_started(params, trace),
            ("turn/started", None) => {
                trace.hit("app-server.turn-started.thinking");
                if let Some(thread) = thread_id(params) {
                    self.turn_errors.remove(thread);
                }
                self.emit(EventType::Thinking, thinking_data("", Some(false)), &context);
                Cow::Borrowed("")
            }
            ("turn/completed", None) => self.turn_completed(params, &context, trace),
            ("item/started" | "item/completed", None) => {
                let item = params.get("item").and_then(Value::as_object).unwrap_or(&empty);
                let item_type = item.get("type").and_then(Value::as_str).unwrap_or("(none)");
                kind = format!("{method}/{item_type}");
                self.item(method == "item/completed", item, &context, trace)
            }
            ("item/agentMessage/delta", None) => match params.get("delta").and_then(Value::as_str) {
                Some(delta) => {
                    trace.hit("app-server.agent-message.delta");
                    self.mark_streamed(params);
                    let item_id = params.get("itemId").and_then(Value::as_str);
                    self.emit(EventType::Delta, delta_data(delta, item_id), &context);
                    Cow::Borrowed("")
                }
                None => Cow::Borrowed("a delta without text"),
            },
            (
                "item/reasoning/textDelta"
                | "item/reasoning/summaryTextDelta"
                | "reasoning/textDelta"
                | "reasoning/summaryTextDelta",
                None,
            ) => {
                if method.starts_with("reasoning/") {
                    trace.hit("app-server.reasoning.unprefixed-alias");
                }
                match non_empty_str(params.get("delta")) {
                    Some(delta) => {
                        trace.hit("app-server.reasoning.delta");
                        self.mark_streamed(params);
                        self.emit(EventType::Thinking, thinking_data(delta, None), &context);
                        Cow::Borrowed("")
                    }
                    None => Cow::Borrowed("an empty reasoning delta"),
                }
            }
            ("error", None) => self.error(params, &context, trace),
            ("serverRequest/resolved", None) => self.request_resolved(params, &context, trace),
            _ => match rule(method) {
                Some(MethodRule::Ignored(reason)) => {
                    trace.hit("app-server.method.ignored");
                    Cow::Borrowed(reason)
                }
                Some(MethodRule::Mapped) => {
                    Cow::Borrowed("a mapped method in the wrong frame shape (request vs notification)")
                }
                None => {
                    trace.hit("app-server.method.unknown");
                    Cow::Borrowed(UNKNOWN_METHOD)
                }
            },
        };
        (kind, reason)
    }

    /// The seed's `resolveSubagentId`: a known child thread's sub-agent id,
    /// else an `agent_id` other than the main thread.
    fn subagent_for(&self, params: &Map<String, Value>) -> Option<Value> {
        if let Some(subagent) = thread_id(params).and_then(|thread| self.child_threads.get(thread)) {
            return Some(subagent.clone());
        }
        let agent = params.get("agent_id").filter(|agent| truthy(Some(agent)))?;
        let is_main = self.main_thread.as_deref().is_some_and(|main| agent.as_str() == Some(main));
        (!is_main).then(|| agent.clone())
    }

    fn emit(&mut self, event_type: EventType, mut data: Map<String, Value>, subagent: &Option<Value>) {
        if let Some(subagent) = subagent {
            data.insert("subagent_id".to_owned(), subagent.clone());
        }
        self.out.push(event_type, data);
    }

    fn mark_streamed(&mut self, params: &Map<String, Value>) {
        if let Some(item) = params.get("itemId").and_then(Value::as_str) {
            self.streamed.insert(item.to_owned());
        }
    }

    /// `thread/started` → `session_ready`. A thread whose parent is the main
    /// thread (or one of its children) is a sub-agent: its events carry
    /// `subagent_id` from now on.
    fn thread_started(&mut self, params: &Map<String, Value>, trace: &mut dyn RuleTrace) -> Reason {
        let thread = params.get("thread");
        let id = or(thread.and_then(|t| t.get("id")), params.get("thread_id")).and_then(Value::as_str);
        let Some(id) = id else {
            return Cow::Borrowed("a thread/started without a thread id");
        };
        let parent =
            or(thread.and_then(|t| t.get("parentThreadId")), params.get("parent_thread_id")).and_then(Value::as_str);
        let is_child = parent.is_some_and(|parent| {
            self.main_thread.as_deref() == Some(parent) || self.child_threads.contains_key(parent)
        });
        let mut data = session_ready_data(self.session_id.as_deref(), id);
        if is_child {
            trace.hit("app-server.thread-started.child");
            let subagent = or(params.get("agent_id"), None).cloned().unwrap_or_else(|| Value::from(id));
            let nickname = thread.and_then(|t| or(t.get("agentNickname"), t.get("agentRole")));
            let name = or(params.get("agent_name"), nickname).cloned().unwrap_or_else(|| Value::from("sub-agent"));
            data.insert("subagent_name".to_owned(), name);
            self.child_threads.insert(id.to_owned(), subagent.clone());
            self.emit(EventType::SessionReady, data, &Some(subagent));
        } else {
            trace.hit("app-server.thread-started.session-ready");
            if self.main_thread.is_none() {
                self.main_thread = Some(id.to_owned());
            }
            self.emit(EventType::SessionReady, data, &None);
        }
        Cow::Borrowed("")
    }

    /// `turn/completed` → `done` (`stopped` when interrupted); a failed
    /// turn whose error no `error` notification reported also emits it.
    fn turn_completed(
        &mut self,
        params: &Map<String, Value>,
        context: &Option<Value>,
        trace: &mut dyn RuleTrace,
    ) -> Reason {
        let turn = params.get("turn");
        let status = turn.and_then(|t| t.get("status")).and_then(Value::as_str);
        if status == Some("failed") {
            let message = turn.and_then(|t| t.get("error")).and_then(|e| e.get("message")).and_then(Value::as_str);
            let reported = thread_id(params).and_then(|thread| self.turn_errors.get(thread));
            match message {
                Some(message) if reported.map(String::as_str) != Some(message) => {
                    trace.hit("app-server.turn-failed.error");
                    let code = turn.and_then(|t| t.get("error")).and_then(|e| error_code(e.get("codexErrorInfo")));
                    self.emit(EventType::Error, error_data(message, code), context);
                }
                Some(_) => trace.hit("app-server.turn-failed.error-already-reported"),
                None => {}
            }
        }
        let stopped = status == Some("interrupted");
        trace.hit(if stopped { "app-server.turn-completed.stopped" } else { "app-server.turn-completed.done" });
        self.emit(EventType::Done, done_data(stopped), context);
        Cow::Borrowed("")
    }

    /// `error` → `error`, unless the server will retry.
    fn error(&mut self, params: &Map<String, Value>, context: &Option<Value>, trace: &mut dyn RuleTrace) -> Reason {
        if params.get("willRetry") == Some(&Value::Bool(true)) {
            trace.hit("app-server.error.will-retry");
            return Cow::Borrowed("the server will retry (willRetry: true)");
        }
        let error_object = params.get("error");
        let message = error_object
            .and_then(|e| e.get("message"))
            .or_else(|| params.get("message"))
            .or(error_object.filter(|e| e.is_string()))
            .and_then(Value::as_str);
        let Some(message) = message else {
            return Cow::Borrowed("an error notification without a message");
        };
        trace.hit("app-server.error.emitted");
        if let Some(thread) = thread_id(params) {
            self.turn_errors.insert(thread.to_owned(), message.to_owned());
        }
        let code = error_object.and_then(|e| error_code(e.get("codexErrorInfo")));
        self.emit(EventType::Error, error_data(message, code), context);
        Cow::Borrowed("")
    }

    /// `item/started` and `item/completed`.
    fn item(
        &mut self,
        completed: bool,
        item: &Map<String, Value>,
        context: &Option<Value>,
        trace: &mut dyn RuleTrace,
    ) -> Reason {
        let kind = ItemKind::parse(item.get("type").and_then(Value::as_str).unwrap_or(""));
        let id = item.get("id").and_then(Value::as_str).map(str::to_owned);
        let streamed = id.as_ref().is_some_and(|id| self.streamed.contains(id));
        match kind {
            ItemKind::UserMessage => Cow::Borrowed("the user's own message; the client records it"),
            ItemKind::AgentMessage if !completed => Cow::Borrowed("the text arrives as item/agentMessage/delta"),
            ItemKind::AgentMessage if streamed => {
                trace.hit("app-server.agent-message.completed-skipped");
                Cow::Borrowed("text already delivered by item/agentMessage/delta; emitting it again would duplicate it")
            }
            ItemKind::AgentMessage => match non_empty_str(item.get("text")) {
                Some(text) => {
                    trace.hit("app-server.agent-message.completed-unstreamed");
                    self.emit(EventType::Delta, delta_data(text, id.as_deref()), context);
                    Cow::Borrowed("")
                }
                None => Cow::Borrowed("an agent message without text"),
            },
            ItemKind::Reasoning if !completed => {
                trace.hit("app-server.reasoning.started");
                self.emit(EventType::Thinking, thinking_data("", Some(false)), context);
                Cow::Borrowed("")
            }
            ItemKind::Reasoning => {
                let text = if streamed {
                    trace.hit("app-server.reasoning.completed");
                    String::new()
                } else {
                    let text = reasoning_text(item);
                    if text.is_empty() {
                        // An empty summary: a UI would show an empty thinking block.
                        trace.hit("app-server.reasoning.empty-dropped");
                        return Cow::Borrowed("a reasoning item with an empty summary and no content; nothing to show");
                    }
                    trace.hit("app-server.reasoning.completed-unstreamed");
                    text
                };
                self.emit(EventType::Thinking, thinking_data(&text, Some(true)), context);
                Cow::Borrowed("")
            }
            ItemKind::FunctionCall | ItemKind::FunctionCallOutput if !completed => {
                Cow::Borrowed("function calls are mapped from their item/completed")
            }
            ItemKind::Plan => Cow::Borrowed("plan text; no event in the normalized model"),
            ItemKind::TodoList => Cow::Borrowed("a to-do list; no event in the normalized model"),
            ItemKind::Error => Cow::Borrowed("an error item; errors are mapped from `error` and failed turns"),
            ItemKind::Other(other) => Cow::Borrowed(other_item_reason(other)),
            ItemKind::Unknown => {
                trace.hit("app-server.item.unknown");
                Cow::Borrowed("unknown item type")
            }
            // Tool-like items: `tool_start` when they start, `tool_result`
            // when they complete (with a `tool_start` first if none was seen).
            _ => match self.tools.item_events(completed, kind, item, trace) {
                Some(events) => {
                    for (event_type, data) in events {
                        self.emit(event_type, data, context);
                    }
                    Cow::Borrowed(ALREADY_STARTED)
                }
                None => Cow::Borrowed("unknown item type"),
            },
        }
    }

    /// Approval requests → `permission_request`.
    fn approval_request(
        &mut self,
        method: &str,
        id: &Value,
        params: &Map<String, Value>,
        context: &Option<Value>,
        trace: &mut dyn RuleTrace,
    ) -> Reason {
        let command = params.get("command");
        let mut tool_input = Map::new();
        let tool_name = match method {
            "item/commandExecution/requestApproval" | "execCommandApproval" => {
                // The legacy request gives argv; quote it back into one
                // command line so the wrapper and the classifier see it.
                let joined = command.and_then(Value::as_array).map(|words| {
                    let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
                    Value::from(shlex::try_join(words.iter().copied()).unwrap_or_else(|_| words.join(" ")))
                });
                put(&mut tool_input, "command", command.cloned());
                command_tool_name(joined.as_ref().or(command)).0
            }
            "item/fileChange/requestApproval" => {
                put(&mut tool_input, "grantRoot", params.get("grantRoot").cloned());
                "apply_patch".to_owned()
            }
            "applyPatchApproval" => {
                put(&mut tool_input, "fileChanges", params.get("fileChanges").cloned());
                put(&mut tool_input, "grantRoot", params.get("grantRoot").cloned());
                "apply_patch".to_owned()
            }
            _ => {
                put(&mut tool_input, "permissions", params.get("permissions").cloned());
                "permissions".to_owned()
            }
        };
        put(&mut tool_input, "reason", params.get("reason").filter(|r| !r.is_null()).cloned());
        trace.hit("app-server.approval.request");
        let tool_name = Value::from(tool_name);
        self.approvals.insert(to_compact_string(id), Approval { tool_name: tool_name.clone(), answered: false });
        let mut data = Map::new();
        data.insert("tool_name".to_owned(), tool_name);
        data.insert("tool_input".to_owned(), Value::Object(tool_input));
        self.emit(EventType::PermissionRequest, data, context);
        Cow::Borrowed("")
    }

    /// The client's answer to a server request → `permission_resolved`.
    fn client_frame(&mut self, client: &Map<String, Value>, trace: &mut dyn RuleTrace) -> (String, Reason) {
        if let Some(method) = client.get("method").and_then(Value::as_str) {
            trace.hit("app-server.client.request");
            return (
                format!("client/{method}"),
                Cow::Borrowed("a client request or notification; only answers to server requests are mapped"),
            );
        }
        let kind = "client/response".to_owned();
        let approval = client.get("id").and_then(|id| self.approvals.get_mut(&to_compact_string(id)));
        let Some(approval) = approval.filter(|approval| !approval.answered) else {
            return (kind, Cow::Borrowed("answers no open approval request"));
        };
        approval.answered = true;
        let tool_name = approval.tool_name.clone();
        let allowed = match client.get("result") {
            Some(result) => decision_allowed(result),
            None => Some(false),
        };
        trace.hit(if allowed.is_some() {
            "app-server.approval.answered"
        } else {
            "app-server.approval.answer-unreadable"
        });
        let mut data = Map::new();
        data.insert("tool_name".to_owned(), tool_name);
        put(&mut data, "allowed", allowed.map(Value::Bool));
        self.out.push(EventType::PermissionResolved, data);
        (kind, Cow::Borrowed(""))
    }

    /// `serverRequest/resolved`: resolves an approval the client's answer
    /// did not already resolve (the decision is then unknown).
    fn request_resolved(
        &mut self,
        params: &Map<String, Value>,
        context: &Option<Value>,
        trace: &mut dyn RuleTrace,
    ) -> Reason {
        let approval = params.get("requestId").and_then(|id| self.approvals.get_mut(&to_compact_string(id)));
        match approval {
            Some(approval) if approval.answered => {
                trace.hit("app-server.request-resolved.already-answered");
                Cow::Borrowed("acknowledges an answer already mapped from the client's response")
            }
            Some(approval) => {
                trace.hit("app-server.request-resolved.without-answer");
                approval.answered = true;
                let mut data = Map::new();
                data.insert("tool_name".to_owned(), approval.tool_name.clone());
                self.emit(EventType::PermissionResolved, data, context);
                Cow::Borrowed("")
            }
            None => Cow::Borrowed("resolves a server request that was no approval"),
        }
    }
}

/// `params.thread_id || params.threadId`.
fn thread_id(params: &Map<String, Value>) -> Option<&str> {
    or(params.get("thread_id"), params.get("threadId")).and_then(Value::as_str)
}

/// `codexErrorInfo` as a code: the string, or the one key of an object.
fn error_code(info: Option<&Value>) -> Option<String> {
    match info? {
        Value::String(code) => Some(code.clone()),
        Value::Object(object) if object.len() == 1 => object.keys().next().cloned(),
        _ => None,
    }
}

/// The text a completed reasoning item would have streamed: its summary
/// parts, then its content parts, concatenated like the deltas are.
fn reasoning_text(item: &Map<String, Value>) -> String {
    let parts = |key: &str| -> Vec<String> {
        match item.get(key) {
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|part| part.as_str().or_else(|| part.get("text").and_then(Value::as_str)))
                .map(str::to_owned)
                .collect(),
            Some(Value::String(text)) => vec![text.clone()],
            _ => Vec::new(),
        }
    };
    let mut text = parts("summary").concat();
    text.push_str(&parts("content").concat());
    if text.is_empty() {
        item.get("text").and_then(Value::as_str).unwrap_or("").clone_into(&mut text);
    }
    text
}

/// Whether the client's answer allowed the request: `None` when the answer
/// does not say.
fn decision_allowed(result: &Value) -> Option<bool> {
    if let Some(decision) = result.get("decision") {
        let (name, detail) = match decision {
            Value::String(name) => (name.as_str(), None),
            Value::Object(object) if object.len() == 1 => {
                let (name, detail) = object.iter().next()?;
                (name.as_str(), Some(detail))
            }
            _ => return None,
        };
        return match name {
            "accept"
            | "acceptForSession"
            | "acceptWithExecpolicyAmendment"
            | "approved"
            | "approved_for_session"
            | "approved_execpolicy_amendment"
            | "approved_mcp_policy_amendment" => Some(true),
            "decline" | "cancel" | "denied" | "abort" | "timed_out" => Some(false),
            "applyNetworkPolicyAmendment" | "network_policy_amendment" => {
                let action = detail?.get("network_policy_amendment")?.get("action")?.as_str()?;
                match action {
                    "allow" => Some(true),
                    "deny" => Some(false),
                    _ => None,
                }
            }
            _ => None,
        };
    }
    let permissions = result.get("permissions")?.as_object()?;
    Some(permissions.values().any(|granted| truthy(Some(granted))))
}

fn other_item_reason(item_type: &str) -> &'static str {
    match item_type {
        "hookPrompt" => "a hook's prompt fragment, not agent output",
        "imageView" => "an image the agent viewed; no event in the normalized model",
        "sleep" => "the agent waited; no event in the normalized model",
        "imageGeneration" => "image generation; no event in the normalized model",
        "enteredReviewMode" | "exitedReviewMode" => "a review-mode marker",
        "contextCompaction" => "a compaction marker",
        _ => "sub-agent coordination; the child thread's own frames carry subagent_id",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decisions_read_strings_and_single_key_objects() {
        assert_eq!(decision_allowed(&json!({"decision": "accept"})), Some(true));
        assert_eq!(decision_allowed(&json!({"decision": {"acceptWithExecpolicyAmendment": {}}})), Some(true));
        assert_eq!(decision_allowed(&json!({"decision": {"denied": {"rejection": "no"}}})), Some(false));
        let network =
            json!({"decision": {"applyNetworkPolicyAmendment": {"network_policy_amendment": {"action": "deny"}}}});
        assert_eq!(decision_allowed(&network), Some(false));
        assert_eq!(decision_allowed(&json!({"permissions": {}})), Some(false));
        assert_eq!(decision_allowed(&json!({"something": 1})), None);
    }
}
