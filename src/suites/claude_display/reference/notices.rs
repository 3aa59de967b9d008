//! System notices: the chrome strip of banners and toasts (rate limits,
//! retries, compaction, hooks, session state, status, persisted files,
//! elicitations, run results, and human-readable harness messages). Each
//! builder maps one SDK frame to one notice object.

use serde_json::{Map, Value};

/// A notice of `kind` with the given fields (absent values are left out).
fn notice(kind: &str, fields: Vec<(&str, Option<Value>)>) -> Value {
    let mut out = Map::new();
    out.insert("kind".to_owned(), Value::from(kind));
    for (key, value) in fields {
        if let Some(value) = value {
            out.insert(key.to_owned(), value);
        }
    }
    Value::Object(out)
}

fn field(message: &Value, key: &str) -> Option<Value> {
    message.get(key).cloned()
}

fn string(message: &Value, key: &str) -> Option<Value> {
    message.get(key).and_then(Value::as_str).map(Value::from)
}

fn number(message: &Value, key: &str) -> Option<Value> {
    message.get(key).filter(|value| value.is_number()).cloned()
}

/// `rate_limit_event` → `{kind: "rate-limit", at?, info}`; `at` is the
/// frame's time (its `timestamp`, which rate-limit frames usually lack, else
/// its receive time).
pub fn rate_limit(message: &Value, at: Option<String>) -> Value {
    notice(
        "rate-limit",
        vec![("at", at.map(Value::from)), ("info", Some(field(message, "rate_limit_info").unwrap_or(Value::Null)))],
    )
}

/// `system/api_retry` → `{kind: "api-retry", attempt, max, delayMs, error?}`.
pub fn api_retry(message: &Value) -> Value {
    notice(
        "api-retry",
        vec![
            ("attempt", number(message, "attempt")),
            ("max", number(message, "max_retries")),
            ("delayMs", number(message, "retry_delay_ms")),
            ("error", string(message, "error")),
        ],
    )
}

/// `system/compact_boundary` → `{kind: "compact", metadata}`.
pub fn compact(message: &Value) -> Value {
    notice("compact", vec![("metadata", Some(field(message, "compact_metadata").unwrap_or(Value::Null)))])
}

/// `system/hook_*` → `{kind: "hook", hookName, event, status, output?,
/// exitCode?, outcome?}`.
pub fn hook(message: &Value, status: &str) -> Value {
    notice(
        "hook",
        vec![
            ("hookName", Some(string(message, "hook_name").unwrap_or_else(|| Value::from("")))),
            ("event", Some(string(message, "hook_event").unwrap_or_else(|| Value::from("")))),
            ("status", Some(Value::from(status))),
            ("output", string(message, "output")),
            ("exitCode", number(message, "exit_code")),
            ("outcome", string(message, "outcome")),
        ],
    )
}

/// `system/session_state_changed` → `{kind: "session-state", state}` with
/// the SDK's `requires_action` spelled `requires-action`.
pub fn session_state(message: &Value) -> Value {
    let state = message.get("state").and_then(Value::as_str).unwrap_or_default();
    let state = if state == "requires_action" { "requires-action" } else { state };
    notice("session-state", vec![("state", Some(Value::from(state)))])
}

/// `system/status` → `{kind: "status", status}`; the SDK sends `null` when
/// a status (such as compacting) ends.
pub fn status(message: &Value) -> Value {
    notice("status", vec![("status", Some(string(message, "status").unwrap_or(Value::Null)))])
}

/// `system/files_persisted` → `{kind: "files-persisted", files: [filename],
/// failed: [{filename, error}]}`.
pub fn files_persisted(message: &Value) -> Value {
    let list = |key: &str| message.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let files: Vec<Value> =
        list("files").iter().filter_map(|file| file.get("filename").and_then(Value::as_str)).map(Value::from).collect();
    let failed: Vec<Value> = list("failed")
        .iter()
        .filter(|entry| entry.is_object())
        .map(|entry| {
            let text = |key: &str| Value::from(entry.get(key).and_then(Value::as_str).unwrap_or_default());
            let mut out = Map::new();
            out.insert("filename".to_owned(), text("filename"));
            out.insert("error".to_owned(), text("error"));
            Value::Object(out)
        })
        .collect();
    notice("files-persisted", vec![("files", Some(Value::from(files))), ("failed", Some(Value::from(failed)))])
}

/// `system/elicitation_complete` → `{kind: "elicitation", server, id}`.
pub fn elicitation(message: &Value) -> Value {
    notice(
        "elicitation",
        vec![
            ("server", Some(string(message, "mcp_server_name").unwrap_or_else(|| Value::from("")))),
            ("id", Some(string(message, "elicitation_id").unwrap_or_else(|| Value::from("")))),
        ],
    )
}

/// `result/*` → `{kind: "result", subtype, cost?, turns?, isError?}`.
/// `isError` matters because API failures end as `success` with
/// `is_error: true`.
pub fn result(message: &Value) -> Value {
    notice(
        "result",
        vec![
            ("subtype", Some(string(message, "subtype").unwrap_or_else(|| Value::from("")))),
            ("cost", number(message, "total_cost_usd")),
            ("turns", number(message, "num_turns")),
            ("isError", message.get("is_error").filter(|value| value.is_boolean()).cloned()),
        ],
    )
}

/// Human-readable harness text → `{kind: "info", source, text, level?}`:
/// `system/informational` (content, level), `system/notification` (text,
/// priority as level), `auth_status` (output lines, `error` level and the
/// error appended when authentication failed).
pub fn info(message: &Value, kind: &str) -> Value {
    let (text, level) = match kind {
        "system/informational" => (string(message, "content"), string(message, "level")),
        "system/notification" => (string(message, "text"), string(message, "priority")),
        _ => {
            let mut lines: Vec<&str> = message
                .get("output")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let error = message.get("error").and_then(Value::as_str);
            lines.extend(error);
            (Some(Value::from(lines.join("\n"))), error.map(|_| Value::from("error")))
        }
    };
    notice(
        "info",
        vec![
            ("source", Some(Value::from(kind))),
            ("text", Some(text.unwrap_or_else(|| Value::from("")))),
            ("level", level),
        ],
    )
}
