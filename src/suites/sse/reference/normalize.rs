//! Schema normalization of a cached `Session` and of a `SessionPatch`.
//!
//! The client validates both with schemas that also rewrite values (defaults,
//! the legacy `"fleet"` agent mode, dropped unknown keys). The corpus stores
//! its inputs already normalized, where every rule here is a no-op; raw wire
//! payloads need them to fold identically. A patch key outside the patch
//! schema is an error, because the strict patch schema rejects the whole
//! payload (the client then refetches instead of folding).
//!
//! Nested objects (`Metadata`, `AgentState`, `TeamState`) have schemas of
//! their own that also drop unknown keys; the specification does not list
//! their members, so they are carried verbatim apart from the defaults below.

use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// Top-level members a normalized `Session` may carry; others are dropped.
pub const SESSION_KEYS: [&str; 29] = [
    "id",
    "namespace",
    "seq",
    "createdAt",
    "updatedAt",
    "pinned",
    "globalPinned",
    "active",
    "activeAt",
    "metadata",
    "metadataVersion",
    "agentState",
    "agentStateVersion",
    "thinking",
    "thinkingAt",
    "activeTurnStartedAt",
    "backgroundTaskCount",
    "todos",
    "teamState",
    "todosUpdatedAt",
    "teamStateUpdatedAt",
    "model",
    "modelReasoningEffort",
    "effort",
    "serviceTier",
    "permissionMode",
    "collaborationMode",
    "copilotAgentMode",
    // The reply clock (v2.md C1); no reply-clock version member: `seq` is its watermark.
    "lastAssistantMessageAt",
];

/// Flat patch members: last write wins, no gate.
pub const FLAT_PATCH_KEYS: [&str; 11] = [
    "active",
    "thinking",
    "activeAt",
    "model",
    "modelReasoningEffort",
    "effort",
    "serviceTier",
    "permissionMode",
    "collaborationMode",
    "copilotAgentMode",
    "backgroundTaskCount",
];

/// Versioned patch members (`{version, value}` wrappers).
pub const WRAPPER_PATCH_KEYS: [&str; 4] = ["metadata", "agentState", "todos", "teamState"];

/// The reply-clock patch members (v2.md C2): the clock and its version,
/// gated against the session's `seq` ([`super::reply_clock`]).
pub const REPLY_CLOCK_PATCH_KEYS: [&str; 2] = ["lastAssistantMessageAt", "lastAssistantMessageVersion"];

/// Patch members that are accepted but never written to the session.
pub const IGNORED_PATCH_KEYS: [&str; 2] = ["activeTurnStartedAt", "scratchlistUpdatedAt"];

/// String members that a session always carries, `null` when absent.
const NULLABLE_STRINGS: [&str; 4] = ["model", "modelReasoningEffort", "effort", "serviceTier"];

/// Normalizes a cached session (a no-op on schema-normalized input).
pub fn session(value: &Value, trace: &mut dyn RuleTrace) -> Result<Map<String, Value>, String> {
    let object = value.as_object().ok_or("a session must be a JSON object")?;
    let mut session: Map<String, Value> = Map::new();
    for (key, member) in object {
        if SESSION_KEYS.contains(&key.as_str()) {
            session.insert(key.clone(), member.clone());
        } else {
            trace.hit("sse.normalize.session-unknown-key-dropped");
        }
    }
    if session.contains_key("lastAssistantMessageAt") {
        trace.hit("v2.c1.session-reply-clock");
    }
    if session.get("activeAt").is_none_or(Value::is_null) {
        trace.hit("sse.normalize.session-active-at-defaults-to-0");
        session.insert("activeAt".to_owned(), Value::from(0));
    }
    for key in NULLABLE_STRINGS {
        if !session.contains_key(key) {
            trace.hit("sse.normalize.session-absent-nullable-string-is-null");
            session.insert(key.to_owned(), Value::Null);
        }
    }
    legacy_agent_mode(session.get_mut("copilotAgentMode"), trace);
    if let Some(Value::Object(metadata)) = session.get_mut("metadata") {
        legacy_agent_mode(metadata.get_mut("preferredCopilotAgentMode"), trace);
    }
    if let Some(Value::Array(todos)) = session.get_mut("todos") {
        todo_defaults(todos, trace);
    }
    Ok(session)
}

/// Normalizes a patch, rejecting what the strict patch schema rejects.
pub fn patch(value: &Value, trace: &mut dyn RuleTrace) -> Result<Map<String, Value>, String> {
    let object = value.as_object().ok_or("a patch must be a JSON object")?;
    let mut patch = Map::new();
    for (key, member) in object {
        let key_str = key.as_str();
        let member = if WRAPPER_PATCH_KEYS.contains(&key_str) {
            wrapper(key_str, member, trace)?
        } else if REPLY_CLOCK_PATCH_KEYS.contains(&key_str) {
            reply_clock_member(key_str, member, trace)?
        } else if FLAT_PATCH_KEYS.contains(&key_str) || IGNORED_PATCH_KEYS.contains(&key_str) || key_str == "updatedAt"
        {
            member.clone()
        } else {
            return Err(format!("unknown key `{key}` (a session patch is strict: the whole payload is invalid)"));
        };
        patch.insert(key.clone(), member);
    }
    legacy_agent_mode(patch.get_mut("copilotAgentMode"), trace);
    Ok(patch)
}

/// A reply-clock member as the patch schema types it: the clock a number or
/// null, its version a number. The fold compares them numerically, so other
/// types are refused like any other schema violation of the strict patch.
fn reply_clock_member(key: &str, member: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let valid = match key {
        "lastAssistantMessageVersion" => member.is_number(),
        _ => member.is_number() || member.is_null(),
    };
    if !valid {
        let expected = if key == "lastAssistantMessageVersion" { "a number" } else { "a number or null" };
        return Err(format!("`{key}` must be {expected}"));
    }
    trace.hit("v2.c2.reply-clock-patch-member");
    Ok(member.clone())
}

/// Keeps `version` and `value` of a wrapper (extra members are dropped) and
/// applies the todo defaults.
fn wrapper(key: &str, member: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let object = member.as_object().ok_or_else(|| format!("`{key}` must be a {{version, value}} wrapper"))?;
    let version = object.get("version").filter(|version| version.is_number());
    let version = version.ok_or_else(|| format!("`{key}` wrapper has no numeric `version`"))?;
    let mut value = object.get("value").ok_or_else(|| format!("`{key}` wrapper has no `value`"))?.clone();
    if object.len() > 2 {
        trace.hit("sse.normalize.wrapper-extra-keys-dropped");
    }
    if key == "todos" {
        let todos = value.as_array_mut().ok_or("`todos` wrapper value must be an array")?;
        todo_defaults(todos, trace);
    }
    let mut wrapper = Map::new();
    wrapper.insert("version".to_owned(), version.clone());
    wrapper.insert("value".to_owned(), value);
    Ok(Value::Object(wrapper))
}

/// `TodoItem` defaults: `priority` `"medium"`, `id` `""`.
fn todo_defaults(todos: &mut [Value], trace: &mut dyn RuleTrace) {
    for todo in todos.iter_mut().filter_map(Value::as_object_mut) {
        if !todo.contains_key("priority") {
            trace.hit("sse.normalize.todo-priority-defaults-to-medium");
            todo.insert("priority".to_owned(), Value::from("medium"));
        }
        if !todo.contains_key("id") {
            trace.hit("sse.normalize.todo-id-defaults-to-empty");
            todo.insert("id".to_owned(), Value::from(""));
        }
    }
}

/// The legacy copilot agent mode `"fleet"` reads as `"interactive"`.
fn legacy_agent_mode(mode: Option<&mut Value>, trace: &mut dyn RuleTrace) {
    if let Some(mode) = mode.filter(|mode| mode.as_str() == Some("fleet")) {
        trace.hit("sse.normalize.fleet-is-interactive");
        *mode = Value::from("interactive");
    }
}
