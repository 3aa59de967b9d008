//! Sub-agents: `system/task_started` opens the record on the `Agent` call
//! named by `tool_use_id`, `task_progress` appends progress lines and usage,
//! `task_notification` sets the final status and freezes the record.
//! Messages with `parent_tool_use_id` land in the record's transcript (see
//! `ingest`); the three identifiers (tool use id, task id, parent tool use
//! id) are kept apart.

use super::model::{CallIx, Caller, Model, Outcome, Subagent, Target};
use crate::suite::RuleTrace;
use serde_json::{Map, Value};

/// `system/task_started`.
pub fn started(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Outcome {
    let Some(tool_use_id) = message.get("tool_use_id").and_then(Value::as_str) else {
        return Outcome::Ignored("task-without-tool-call");
    };
    let Some(&ix) = model.call_ids.get(tool_use_id) else {
        return Outcome::Ignored("unknown-tool-call");
    };
    if model.calls.get(ix).is_none_or(|call| call.caller != Caller::Subagent) {
        trace.hit("claude-display.task.non-subagent-ignored");
        return Outcome::Ignored("task-for-non-subagent-call");
    }
    trace.hit("claude-display.task.started");
    let task_id = message.get("task_id").and_then(Value::as_str).map(str::to_owned);
    let description = message.get("description").and_then(Value::as_str).map(str::to_owned);
    let record = model.ensure_subagent(ix);
    if let Some(description) = description {
        record.description = description;
    }
    if let Some(task_id) = &task_id {
        record.task_id = Some(task_id.clone());
    }
    if let Some(task_id) = task_id {
        model.task_ids.insert(task_id, ix);
    }
    Outcome::To(vec![Target::ToolCall { tool_call_id: tool_use_id.to_owned() }])
}

/// `system/task_progress`.
pub fn progress(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Outcome {
    update_open_record(model, message, trace, "claude-display.task.progress", |record| {
        if let Some(description) = message.get("description").and_then(Value::as_str) {
            record.progress.push(description.to_owned());
        }
    })
}

/// `system/task_notification`.
pub fn notification(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Outcome {
    update_open_record(model, message, trace, "claude-display.task.notification", |record| {
        if let Some(status) = message.get("status").and_then(Value::as_str) {
            record.status = status.to_owned();
        }
        record.finished = true;
    })
}

/// Applies a task frame to the record of the call owning it (and the
/// frame's usage), unless a notification already finished that record.
fn update_open_record(
    model: &mut Model,
    message: &Value,
    trace: &mut dyn RuleTrace,
    rule: &'static str,
    update: impl FnOnce(&mut Subagent),
) -> Outcome {
    let ix = match owner(model, message) {
        Ok(ix) => ix,
        Err(reason) => return Outcome::Ignored(reason),
    };
    let record = model.ensure_subagent(ix);
    if record.finished {
        return Outcome::Ignored("task-finished");
    }
    trace.hit(rule);
    update(record);
    update_usage(&mut record.usage, message.get("usage"));
    settled_target(model, ix)
}

fn settled_target(model: &Model, ix: CallIx) -> Outcome {
    match model.calls.get(ix) {
        Some(call) => Outcome::To(vec![Target::ToolCall { tool_call_id: call.id.clone() }]),
        None => Outcome::Ignored("unknown-tool-call"),
    }
}

/// The call owning a task frame: by `task_id` when a `task_started` named
/// it, else by `tool_use_id` when that is a sub-agent call (the record is
/// then opened and learns its task id here).
fn owner(model: &mut Model, message: &Value) -> Result<CallIx, &'static str> {
    let task_id = message.get("task_id").and_then(Value::as_str);
    if let Some(&ix) = task_id.and_then(|id| model.task_ids.get(id)) {
        return Ok(ix);
    }
    let tool_use_id = message.get("tool_use_id").and_then(Value::as_str).ok_or("unknown-task")?;
    let &ix = model.call_ids.get(tool_use_id).ok_or("unknown-tool-call")?;
    if model.calls.get(ix).is_none_or(|call| call.caller != Caller::Subagent) {
        return Err("task-for-non-subagent-call");
    }
    if let Some(task_id) = task_id {
        model.task_ids.insert(task_id.to_owned(), ix);
        let record = model.ensure_subagent(ix);
        record.task_id.get_or_insert_with(|| task_id.to_owned());
    }
    Ok(ix)
}

/// Usage `{total_tokens, tool_uses, duration_ms}` as `{totalTokens,
/// toolUses, durationMs}`; numbers present in the frame replace earlier ones.
fn update_usage(usage: &mut Option<Map<String, Value>>, value: Option<&Value>) {
    let Some(source) = value.and_then(Value::as_object) else { return };
    for (from, to) in [("total_tokens", "totalTokens"), ("tool_uses", "toolUses"), ("duration_ms", "durationMs")] {
        if let Some(number) = source.get(from).filter(|value| value.is_number()) {
            usage.get_or_insert_with(Map::new).insert(to.to_owned(), number.clone());
        }
    }
}
