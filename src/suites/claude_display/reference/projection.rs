//! The JSON projection of the display model: `{turns, notices, snapshot,
//! dispositions}` with the field names of the display types (`Turn`,
//! `Part`, `ToolCall`, `SubagentRecord`, `SessionSnapshot`,
//! `SystemNotice`). Optional fields are left out when unknown.

use super::model::{Container, MessageFate, Model, Origin, Part, PreviewPart, Snapshot, Target, Transcript, TurnIx};
use serde_json::{Map, Value};

/// The expected part of a case.
pub fn project(model: &Model) -> Value {
    let mut out = Map::new();
    out.insert("turns".to_owned(), transcript(model, &model.main, None));
    out.insert("notices".to_owned(), Value::from(model.notices.clone()));
    out.insert("snapshot".to_owned(), model.snapshot.as_ref().map_or(Value::Null, snapshot));
    let dispositions = model.dispositions.iter().map(disposition).collect::<Vec<_>>();
    out.insert("dispositions".to_owned(), Value::from(dispositions));
    if !model.previews.is_empty() {
        out.insert(
            "previews".to_owned(),
            Value::from(model.previews.iter().map(|p| preview(model, p)).collect::<Vec<_>>()),
        );
    }
    if model.unfinished {
        out.insert("unfinished".to_owned(), Value::Bool(true));
    }
    Value::Object(out)
}

fn preview(model: &Model, preview: &super::model::Preview) -> Value {
    let mut out = Map::new();
    if let Some(id) = &preview.message_id {
        out.insert("messageId".to_owned(), Value::from(id.as_str()));
    }
    if let Container::Call(_) = preview.container
        && let Some(host) = model.host_id(preview.container)
    {
        out.insert("parentToolCallId".to_owned(), Value::from(host));
    }
    let parts: Vec<Value> = preview.blocks.iter().map(|block| preview_part(&block.part)).collect();
    out.insert("parts".to_owned(), Value::from(parts));
    Value::Object(out)
}

fn preview_part(part: &PreviewPart) -> Value {
    match part {
        PreviewPart::Text { text, citations } => {
            let mut entries = vec![("type", Value::from("text")), ("text", Value::from(text.as_str()))];
            if !citations.is_empty() {
                entries.push(("citations", Value::from(citations.clone())));
            }
            object(entries)
        }
        PreviewPart::Reasoning { text, redacted, signature } => reasoning(text, *redacted, signature.as_deref()),
        PreviewPart::ToolInput { tool_call_id, name, input_json } => {
            let mut entries = vec![("type", Value::from("tool-input"))];
            if let Some(id) = tool_call_id {
                entries.push(("toolCallId", Value::from(id.as_str())));
            }
            if let Some(name) = name {
                entries.push(("name", Value::from(name.as_str())));
            }
            entries.push(("inputJson", Value::from(input_json.as_str())));
            object(entries)
        }
        PreviewPart::Data { name, data } => {
            object(vec![("type", Value::from("data")), ("name", Value::from(name.as_str())), ("data", data.clone())])
        }
    }
}

fn reasoning(text: &str, redacted: bool, signature: Option<&str>) -> Value {
    let mut entries = vec![("type", Value::from("reasoning")), ("text", Value::from(text))];
    if redacted {
        entries.push(("redacted", Value::Bool(true)));
    }
    if let Some(signature) = signature {
        entries.push(("signature", Value::from(signature)));
    }
    object(entries)
}

fn object(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(key, value)| (key.to_owned(), value)).collect())
}

fn strings(values: &[String]) -> Value {
    Value::from(values.iter().map(|value| Value::from(value.as_str())).collect::<Vec<_>>())
}

fn transcript(model: &Model, transcript: &Transcript, parent_task: Option<&str>) -> Value {
    Value::from(transcript.turns.iter().map(|&ix| turn(model, ix, parent_task)).collect::<Vec<_>>())
}

fn turn(model: &Model, ix: TurnIx, parent_task: Option<&str>) -> Value {
    let Some(turn) = model.turns.get(ix) else { return Value::Null };
    let mut out = Map::new();
    out.insert("id".to_owned(), Value::from(turn.id.as_str()));
    out.insert("role".to_owned(), Value::from(turn.role));
    out.insert("origin".to_owned(), origin(&turn.origin));
    if let Some(task) = parent_task {
        out.insert("parentTaskId".to_owned(), Value::from(task));
    }
    out.insert("parts".to_owned(), Value::from(turn.parts.iter().map(|p| part(model, p)).collect::<Vec<_>>()));
    if !turn.metadata.is_empty() {
        out.insert("metadata".to_owned(), Value::Object(turn.metadata.clone()));
    }
    if let Some(timestamp) = &turn.timestamp {
        out.insert("timestamp".to_owned(), Value::from(timestamp.as_str()));
    }
    Value::Object(out)
}

fn origin(origin: &Origin) -> Value {
    match origin {
        Origin::Model => object(vec![("kind", Value::from("model"))]),
        Origin::UserInput => object(vec![("kind", Value::from("user-input"))]),
        Origin::ToolReturn { tool_call_id } => {
            object(vec![("kind", Value::from("tool-return")), ("toolCallId", Value::from(tool_call_id.as_str()))])
        }
        Origin::Synthetic { reason, rule } => {
            let mut entries = vec![("kind", Value::from("synthetic")), ("reason", Value::from(*reason))];
            if let Some(rule) = rule {
                entries.push(("rule", Value::from(*rule)));
            }
            object(entries)
        }
        Origin::Notification { rule } => {
            object(vec![("kind", Value::from("notification")), ("rule", Value::from(*rule))])
        }
        Origin::SubagentPrompt { parent_tool_call_id } => object(vec![
            ("kind", Value::from("subagent-prompt")),
            ("parentToolCallId", Value::from(parent_tool_call_id.as_str())),
        ]),
        Origin::Replay => object(vec![("kind", Value::from("replay"))]),
    }
}

fn part(model: &Model, part: &Part) -> Value {
    match part {
        Part::Text { text, citations } => {
            let mut entries = vec![("type", Value::from("text")), ("text", Value::from(text.as_str()))];
            if let Some(citations) = citations {
                entries.push(("citations", Value::from(citations.clone())));
            }
            object(entries)
        }
        Part::Reasoning { text, redacted, signature } => reasoning(text, *redacted, signature.as_deref()),
        Part::ToolCall(ix) => object(vec![("type", Value::from("tool-call")), ("call", call(model, *ix))]),
        Part::File { media_type, url } => object(vec![
            ("type", Value::from("file")),
            ("mediaType", Value::from(media_type.as_str())),
            ("url", Value::from(url.as_str())),
        ]),
        Part::SourceUrl { url, title, source_id } => {
            let mut entries = vec![("type", Value::from("source-url")), ("url", Value::from(url.as_str()))];
            if let Some(title) = title {
                entries.push(("title", Value::from(title.as_str())));
            }
            entries.push(("sourceId", Value::from(source_id.as_str())));
            object(entries)
        }
        Part::SourceDocument { media_type, title, source_id } => object(vec![
            ("type", Value::from("source-document")),
            ("mediaType", Value::from(media_type.as_str())),
            ("title", Value::from(title.as_str())),
            ("sourceId", Value::from(source_id.as_str())),
        ]),
        Part::Data { name, data } => {
            object(vec![("type", Value::from("data")), ("name", Value::from(name.as_str())), ("data", data.clone())])
        }
    }
}

fn call(model: &Model, ix: usize) -> Value {
    let Some(call) = model.calls.get(ix) else { return Value::Null };
    let mut out = Map::new();
    out.insert("toolCallId".to_owned(), Value::from(call.id.as_str()));
    out.insert("name".to_owned(), Value::from(call.name.as_str()));
    out.insert("caller".to_owned(), Value::from(call.caller.as_str()));
    if let Some(server) = &call.mcp_server {
        out.insert("mcpServer".to_owned(), Value::from(server.as_str()));
    }
    out.insert("state".to_owned(), Value::from(call.state.as_str()));
    out.insert("input".to_owned(), call.input.clone());
    if let Some(output) = &call.output {
        out.insert("output".to_owned(), output.clone());
    }
    if let Some(text) = &call.error_text {
        out.insert("errorText".to_owned(), Value::from(text.as_str()));
    }
    if let Some(sidecar) = &call.sidecar {
        out.insert("sidecar".to_owned(), sidecar.clone());
    }
    if let Some(elapsed) = &call.elapsed_seconds {
        out.insert("elapsedSeconds".to_owned(), elapsed.clone());
    }
    if let Some(task) = &call.task {
        let mut entries = vec![("taskId", Value::from(task.task_id.as_str()))];
        if let Some(task_type) = &task.task_type {
            entries.push(("taskType", Value::from(task_type.as_str())));
        }
        entries.push(("description", Value::from(task.description.as_str())));
        entries.push(("status", Value::from(task.status.as_str())));
        if let Some(summary) = &task.summary {
            entries.push(("summary", Value::from(summary.as_str())));
        }
        out.insert("task".to_owned(), object(entries));
    }
    if let Some(record) = &call.subagent {
        let mut sub = Map::new();
        sub.insert("taskId".to_owned(), record.task_id.as_deref().map_or(Value::Null, Value::from));
        sub.insert("description".to_owned(), Value::from(record.description.as_str()));
        sub.insert("progress".to_owned(), strings(&record.progress));
        sub.insert("status".to_owned(), Value::from(record.status.as_str()));
        if let Some(usage) = &record.usage {
            sub.insert("usage".to_owned(), Value::Object(usage.clone()));
        }
        sub.insert("transcript".to_owned(), transcript(model, &record.transcript, record.task_id.as_deref()));
        out.insert("subagent".to_owned(), Value::Object(sub));
    }
    if let Some(skill) = &call.skill {
        let mut entries = vec![("skillName", Value::from(skill.skill_name.as_str()))];
        if let Some(body) = &skill.body {
            entries.push(("body", Value::from(body.as_str())));
        }
        out.insert("skill".to_owned(), object(entries));
    }
    Value::Object(out)
}

fn snapshot(snapshot: &Snapshot) -> Value {
    let pairs = |list: &[(String, String)], second: &str| {
        Value::from(
            list.iter()
                .map(|(name, other)| {
                    object(vec![("name", Value::from(name.as_str())), (second, Value::from(other.as_str()))])
                })
                .collect::<Vec<_>>(),
        )
    };
    let mut entries = vec![
        ("id", Value::from(snapshot.id.as_str())),
        ("sessionId", Value::from(snapshot.session_id.as_str())),
        ("model", Value::from(snapshot.model.as_str())),
        ("cwd", Value::from(snapshot.cwd.as_str())),
        ("permissionMode", Value::from(snapshot.permission_mode.as_str())),
        ("tools", strings(&snapshot.tools)),
        ("mcpServers", pairs(&snapshot.mcp_servers, "status")),
        ("plugins", pairs(&snapshot.plugins, "path")),
        ("skills", strings(&snapshot.skills)),
        ("slashCommands", strings(&snapshot.slash_commands)),
        ("agents", strings(&snapshot.agents)),
    ];
    if let Some(updated_at) = &snapshot.updated_at {
        entries.push(("updatedAt", Value::from(updated_at.as_str())));
    }
    object(entries)
}

fn disposition(disposition: &super::model::Disposition) -> Value {
    let kind = Value::from(disposition.kind.as_str());
    match &disposition.outcome {
        MessageFate::Ignored(reason) => object(vec![("kind", kind), ("ignored", Value::from(*reason))]),
        MessageFate::To(targets) => {
            let mut entries = vec![("kind", kind)];
            if !disposition.normalized.is_empty() {
                entries.push(("normalized", Value::from(disposition.normalized.clone())));
            }
            entries.push(("to", Value::from(targets.iter().map(target).collect::<Vec<_>>())));
            object(entries)
        }
    }
}

fn target(target: &Target) -> Value {
    match target {
        Target::Turn { turn_id, parent } => {
            let mut entries = vec![("track", Value::from("turn")), ("turnId", Value::from(turn_id.as_str()))];
            if let Some(parent) = parent {
                entries.push(("parentToolCallId", Value::from(parent.as_str())));
            }
            object(entries)
        }
        Target::ToolCall { tool_call_id } => {
            object(vec![("track", Value::from("tool-call")), ("toolCallId", Value::from(tool_call_id.as_str()))])
        }
        Target::Notice { index } => object(vec![("track", Value::from("notice")), ("index", Value::from(*index))]),
        Target::Preview { message_id } => {
            let mut entries = vec![("track", Value::from("preview"))];
            if let Some(id) = message_id {
                entries.push(("messageId", Value::from(id.as_str())));
            }
            object(entries)
        }
        Target::Snapshot => object(vec![("track", Value::from("snapshot"))]),
    }
}
