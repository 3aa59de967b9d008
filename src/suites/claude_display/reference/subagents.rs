//! Sub-agents and background tasks. `system/task_started` opens the
//! sub-agent record of the `Agent`/`Task` call named by `tool_use_id`, or a
//! background task on any other call (a `Bash` run in the background);
//! `task_progress` appends a sub-agent's progress lines and usage,
//! `task_updated` patches the status, `task_notification` sets the final
//! status and freezes the record. Messages with `parent_tool_use_id` land in
//! the record's transcript (see `turns`); the three identifiers (tool use
//! id, task id, parent tool use id) are kept apart.

use super::model::{BackgroundTask, CallIx, Caller, Container, MessageFate, Model, Subagent, Target};
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// The statuses a task can report.
const STATUSES: [&str; 4] = ["running", "completed", "failed", "stopped"];

fn str_field(message: &Value, key: &str) -> Option<String> {
    message.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// `system/task_started`.
pub fn started(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let Some(tool_use_id) = message.get("tool_use_id").and_then(Value::as_str) else {
        return MessageFate::Ignored("task-without-tool-call");
    };
    let Some(&ix) = model.call_ids.get(tool_use_id) else {
        return MessageFate::Ignored("unknown-tool-call");
    };
    let task_id = str_field(message, "task_id");
    let description = str_field(message, "description");
    if model.calls.get(ix).is_none_or(|call| call.caller != Caller::Subagent) {
        let Some(task_id) = task_id else { return MessageFate::Ignored("unknown-task") };
        trace.hit("claude-display.task.background-started");
        if model.mark_running(Container::Call(ix)) {
            trace.hit("claude-display.tool.subagent-running");
        }
        model.task_ids.insert(task_id.clone(), ix);
        let call = &mut model.calls[ix];
        call.task = Some(BackgroundTask {
            task_id,
            task_type: str_field(message, "task_type"),
            description: description.unwrap_or_default(),
            status: "running".to_owned(),
            summary: None,
            finished: false,
        });
        return MessageFate::To(vec![Target::ToolCall { tool_call_id: tool_use_id.to_owned() }]);
    }
    trace.hit("claude-display.task.started");
    model.emit("subtask_started");
    if model.mark_running(Container::Call(ix)) {
        trace.hit("claude-display.tool.subagent-running");
    }
    let record = model.ensure_subagent(ix);
    if record.finished && record.task_id.is_none() {
        // The call's result arrived first (a background sub-agent): its
        // task frames report from here on.
        record.finished = false;
        record.status = "running".to_owned();
    }
    if let Some(description) = description {
        record.description = description;
    }
    if let Some(task_id) = &task_id {
        record.task_id = Some(task_id.clone());
    }
    if let Some(task_id) = task_id {
        model.task_ids.insert(task_id, ix);
    }
    MessageFate::To(vec![Target::ToolCall { tool_call_id: tool_use_id.to_owned() }])
}

/// `system/task_progress`.
pub fn progress(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    match owner(model, message) {
        Ok(Owner::Background(_)) => {
            trace.hit("claude-display.task.non-subagent-ignored");
            MessageFate::Ignored("task-progress-for-background-task")
        }
        Ok(Owner::Subagent(ix)) => update_record(model, ix, message, trace, "claude-display.task.progress", |record| {
            if let Some(description) = message.get("description").and_then(Value::as_str) {
                record.progress.push(description.to_owned());
            }
        }),
        Err(reason) => MessageFate::Ignored(reason),
    }
}

/// `system/task_updated`: a patch of the task's state; its `status` (one of
/// the four task statuses) replaces the current one until a notification
/// freezes the task.
pub fn updated(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let status = message.pointer("/patch/status").and_then(Value::as_str).filter(|status| STATUSES.contains(status));
    let Some(status) = status else { return MessageFate::Ignored("task-bookkeeping") };
    match owner(model, message) {
        Ok(Owner::Subagent(ix)) => {
            let record = model.ensure_subagent(ix);
            if record.finished {
                return MessageFate::Ignored("task-finished");
            }
            trace.hit("claude-display.task.updated");
            record.status = status.to_owned();
            call_target(model, ix)
        }
        Ok(Owner::Background(ix)) => match model.calls[ix].task.as_mut() {
            Some(task) if !task.finished => {
                trace.hit("claude-display.task.updated");
                task.status = status.to_owned();
                call_target(model, ix)
            }
            _ => MessageFate::Ignored("task-finished"),
        },
        Err(reason) => MessageFate::Ignored(reason),
    }
}

/// `system/task_notification`.
pub fn notification(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let status = message.get("status").and_then(Value::as_str);
    match owner(model, message) {
        Ok(Owner::Subagent(ix)) => {
            let outcome = update_record(model, ix, message, trace, "claude-display.task.notification", |record| {
                if let Some(status) = status {
                    record.status = status.to_owned();
                }
                record.finished = true;
            });
            if matches!(outcome, MessageFate::To(_)) {
                model.emit("subtask_finished");
            }
            outcome
        }
        Ok(Owner::Background(ix)) => match model.calls[ix].task.as_mut() {
            Some(task) if !task.finished => {
                trace.hit("claude-display.task.background-notification");
                if let Some(status) = status {
                    task.status = status.to_owned();
                }
                task.summary = str_field(message, "summary").filter(|summary| !summary.is_empty());
                task.finished = true;
                call_target(model, ix)
            }
            _ => MessageFate::Ignored("task-finished"),
        },
        Err(reason) => MessageFate::Ignored(reason),
    }
}

/// Applies a task frame to the sub-agent record of call `ix` (and the
/// frame's usage), unless a notification already finished that record.
fn update_record(
    model: &mut Model,
    ix: CallIx,
    message: &Value,
    trace: &mut dyn RuleTrace,
    rule: &'static str,
    update: impl FnOnce(&mut Subagent),
) -> MessageFate {
    let record = model.ensure_subagent(ix);
    if record.finished {
        return MessageFate::Ignored("task-finished");
    }
    trace.hit(rule);
    update(record);
    update_usage(&mut record.usage, message.get("usage"));
    if rule == "claude-display.task.progress" {
        model.emit("subtask_progress");
    }
    call_target(model, ix)
}

fn call_target(model: &Model, ix: CallIx) -> MessageFate {
    match model.calls.get(ix) {
        Some(call) => MessageFate::To(vec![Target::ToolCall { tool_call_id: call.id.clone() }]),
        None => MessageFate::Ignored("unknown-tool-call"),
    }
}

/// Whose task a task frame reports.
enum Owner {
    /// The sub-agent record of this call.
    Subagent(CallIx),
    /// The background task of this call.
    Background(CallIx),
}

/// The call owning a task frame: by `task_id` when a `task_started` named
/// it, else by `tool_use_id` when that is a sub-agent call (the record is
/// then opened and learns its task id here).
fn owner(model: &mut Model, message: &Value) -> Result<Owner, &'static str> {
    let task_id = message.get("task_id").and_then(Value::as_str);
    if let Some(&ix) = task_id.and_then(|id| model.task_ids.get(id)) {
        let background = model.calls.get(ix).is_some_and(|call| call.task.is_some() && call.subagent.is_none());
        return Ok(if background { Owner::Background(ix) } else { Owner::Subagent(ix) });
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
    Ok(Owner::Subagent(ix))
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
