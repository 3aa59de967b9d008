//! Codex-family plans (chat-normalize §10.4): `plan` (cursor) and
//! `plan_update` (codex) become a synthetic, completed `update_plan` tool pair
//! with a fixed id, so every snapshot updates the same card.

use super::envelope::Wire;
use crate::suites::chat::reference::model::{AgentItem, ToolCall, ToolResult};
use crate::suites::js::{first_present, get, is_whitespace, lowercase, str_of, string, trim};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The tool pair for a plan payload; `None` when the plan has no entries.
pub(super) fn plan_items<'a>(wire: &Wire<'a>, data: &'a Value, is_update: bool) -> Option<Vec<AgentItem<'a>>> {
    let candidates: &[&str] = if is_update { &["plan", "update", "items", "steps"] } else { &["entries", "items"] };
    let source = first_present(Some(data), candidates).unwrap_or(data);
    let entries: &[Value] = match source {
        Value::Array(items) => items,
        Value::Object(_) => ["plan", "items", "steps"]
            .iter()
            .find_map(|key| get(source, key).and_then(Value::as_array))
            .map_or(&[], Vec::as_slice),
        _ => &[],
    };
    let plan: Vec<Value> = entries.iter().filter_map(plan_entry).collect();
    if plan.is_empty() {
        return None;
    }
    let (tool_id, flavor) = if is_update { ("codex-plan-state", "codex") } else { ("cursor-plan-state", "cursor") };
    let uuid: Cow<'a, str> = str_of(get(data, "id")).map_or_else(|| wire.id.clone(), Cow::Borrowed);

    let mut input = Map::new();
    input.insert("plan".to_owned(), Value::Array(plan));
    input.insert("source".to_owned(), string(flavor));
    let mut result = input.clone();
    let result_uuid = if is_update {
        result.insert("status".to_owned(), string("updated"));
        Cow::Owned(format!("{uuid}:result"))
    } else {
        uuid.clone()
    };
    let call = ToolCall {
        id: Cow::Borrowed(tool_id),
        name: Cow::Borrowed("update_plan"),
        input: Some(Cow::Owned(Value::Object(input))),
        description: None,
        native_title: None,
        native_kind: None,
        progress: None,
        uuid,
        parent_uuid: None,
    };
    let result = ToolResult {
        tool_use_id: Cow::Borrowed(tool_id),
        content: Some(Cow::Owned(Value::Object(result))),
        is_error: false,
        uuid: result_uuid,
        parent_uuid: None,
        permissions: None,
    };
    Some(vec![AgentItem::ToolCall(call), AgentItem::ToolResult(result)])
}

/// One plan element as `{step, status}`, or `None` when it is skipped.
fn plan_entry(element: &Value) -> Option<Value> {
    let (step, status) = match element {
        Value::String(step) => (step.as_str(), "pending"),
        Value::Object(_) => {
            let step = ["step", "content", "text", "title", "description"]
                .iter()
                .find_map(|key| str_of(get(element, key)))
                .filter(|step| !step.is_empty())?;
            (step, plan_status(str_of(first_present(Some(element), &["status", "state"]))))
        }
        _ => return None,
    };
    let mut entry = Map::new();
    entry.insert("step".to_owned(), string(step));
    entry.insert("status".to_owned(), string(status));
    Some(Value::Object(entry))
}

fn plan_status(status: Option<&str>) -> &'static str {
    let Some(status) = status else { return "pending" };
    let normalized: String =
        lowercase(trim(status)).chars().map(|c| if is_whitespace(c) || c == '-' { '_' } else { c }).collect();
    match normalized.as_str() {
        "completed" | "complete" | "done" => "completed",
        "in_progress" | "inprogress" | "active" | "running" => "in_progress",
        _ => "pending",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn statuses_normalize() {
        assert_eq!(plan_status(Some(" Done ")), "completed");
        assert_eq!(plan_status(Some("In-Progress")), "in_progress");
        assert_eq!(plan_status(Some("in  progress")), "pending");
        assert_eq!(plan_status(None), "pending");
    }

    #[test]
    fn entries_follow_the_first_string_member() {
        assert_eq!(plan_entry(&json!({"step": "", "title": "x"})), None);
        assert_eq!(plan_entry(&json!({"step": 5, "title": "x"})), Some(json!({"step": "x", "status": "pending"})));
        assert_eq!(plan_entry(&json!("")), Some(json!({"step": "", "status": "pending"})));
        assert_eq!(plan_entry(&json!(["a"])), None);
    }
}
