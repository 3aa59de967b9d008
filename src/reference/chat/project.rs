//! Stage 4, project: the normative projection of the fixture documents
//! (chat-reduce §10, fixtures/README.md "Normative field contract"). Only the
//! members the contract names are kept; absent members are omitted and nulls
//! kept where the contract says so.

use super::blocks::{Block, Body, Permission};
use super::group::Visible;
use super::js::{number, string};
use super::reduce::{LatestUsage, Reduced};
use serde_json::{Map, Value};

/// `{blocks, hasReadyEvent, latestUsage, visibleBlocks}`.
pub fn project(reduced: &Reduced<'_>, visible: &[Visible]) -> Value {
    let blocks: Vec<Value> = reduced.blocks.iter().map(project_block).collect();
    let visible_blocks = visible
        .iter()
        .map(|item| match *item {
            Visible::Block(index) => blocks.get(index).cloned().unwrap_or(Value::Null),
            Visible::Group { start, end, id_from_last } => {
                project_group(&reduced.blocks, &blocks, start, end, id_from_last)
            }
        })
        .collect();
    let mut out = Map::with_capacity(4);
    out.insert("blocks".to_owned(), Value::Array(blocks));
    out.insert("hasReadyEvent".to_owned(), Value::Bool(reduced.has_ready_event));
    out.insert("latestUsage".to_owned(), reduced.latest_usage.map_or(Value::Null, project_usage));
    out.insert("visibleBlocks".to_owned(), Value::Array(visible_blocks));
    Value::Object(out)
}

fn project_usage(usage: LatestUsage) -> Value {
    let mut out = Map::with_capacity(4);
    out.insert("inputTokens".to_owned(), number(usage.input_tokens));
    out.insert("outputTokens".to_owned(), number(usage.output_tokens));
    out.insert("contextSize".to_owned(), number(usage.context_size));
    out.insert("contextWindow".to_owned(), usage.context_window.map_or(Value::Null, number));
    Value::Object(out)
}

fn head(kind: &str, id: &str, created_at: f64, invoked_at: Option<&Value>, capacity: usize) -> Map<String, Value> {
    let mut out = Map::with_capacity(capacity);
    out.insert("kind".to_owned(), string(kind));
    out.insert("id".to_owned(), string(id));
    out.insert("createdAt".to_owned(), number(created_at));
    if let Some(invoked_at @ Value::Number(_)) = invoked_at {
        out.insert("invokedAt".to_owned(), invoked_at.clone());
    }
    out
}

fn project_block(block: &Block<'_>) -> Value {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        let kind = match &block.body {
            Body::UserText { .. } => "user-text",
            Body::AgentText { .. } => "agent-text",
            Body::AgentReasoning { .. } => "agent-reasoning",
            Body::CliOutput { .. } => "cli-output",
            Body::CodexReview { .. } => "codex-review",
            Body::GeneratedImage { .. } => "generated-image",
            Body::AgentEvent { .. } => "agent-event",
            Body::ToolCall(_) => "tool-call",
        };
        let mut out = head(kind, &block.id, block.created_at, block.invoked_at, 8);
        if !matches!(block.body, Body::AgentEvent { .. }) {
            out.insert("localId".to_owned(), block.local_id.map_or(Value::Null, string));
        }
        match &block.body {
            Body::UserText { text, attachments } => {
                out.insert("text".to_owned(), string(&**text));
                if !attachments.is_empty() {
                    let list = attachments
                        .iter()
                        .map(|a| {
                            let mut item = Map::with_capacity(5);
                            item.insert("id".to_owned(), string(a.id));
                            item.insert("filename".to_owned(), string(a.filename));
                            item.insert("mimeType".to_owned(), string(a.mime_type));
                            item.insert("size".to_owned(), a.size.clone());
                            item.insert("path".to_owned(), string(a.path));
                            Value::Object(item)
                        })
                        .collect();
                    out.insert("attachments".to_owned(), Value::Array(list));
                }
            }
            Body::AgentText { text } | Body::AgentReasoning { text } => {
                out.insert("text".to_owned(), string(&**text));
            }
            Body::CliOutput { text, source } => {
                out.insert("text".to_owned(), string(&**text));
                out.insert("source".to_owned(), string(*source));
            }
            Body::CodexReview { review } => {
                out.insert("review".to_owned(), (**review).clone());
            }
            Body::GeneratedImage { image_id, file_name, mime_type } => {
                out.insert("imageId".to_owned(), string(*image_id));
                out.insert("fileName".to_owned(), string(*file_name));
                out.insert("mimeType".to_owned(), mime_type.map_or(Value::Null, string));
            }
            Body::AgentEvent { event } => {
                out.insert("event".to_owned(), (*event.value).clone());
            }
            Body::ToolCall(card) => {
                let mut tool = Map::with_capacity(6);
                tool.insert("id".to_owned(), string(&*block.id));
                tool.insert("name".to_owned(), string(&*card.name));
                tool.insert("state".to_owned(), string(card.state.as_str()));
                if let Some(input) = &card.input {
                    tool.insert("input".to_owned(), (**input).clone());
                }
                if let Some(result) = &card.result {
                    tool.insert("result".to_owned(), (**result).clone());
                }
                if let Some(permission) = &card.permission {
                    tool.insert("permission".to_owned(), project_permission(permission));
                }
                out.insert("tool".to_owned(), Value::Object(tool));
                if !card.children.is_empty() {
                    out.insert("children".to_owned(), Value::Array(card.children.iter().map(project_block).collect()));
                }
            }
        }
        Value::Object(out)
    })
}

fn project_permission(permission: &Permission<'_>) -> Value {
    let mut out = Map::with_capacity(6);
    let members = [
        ("status", &permission.status),
        ("mode", &permission.mode),
        ("decision", &permission.decision),
        ("allowedTools", &permission.allowed_tools),
        ("answers", &permission.answers),
        ("reason", &permission.reason),
    ];
    for (key, value) in members {
        if let Some(value) = value {
            out.insert(key.to_owned(), (**value).clone());
        }
    }
    Value::Object(out)
}

fn project_group(blocks: &[Block<'_>], projected: &[Value], start: usize, end: usize, id_from_last: bool) -> Value {
    let (Some(first), Some(last)) = (blocks.get(start), end.checked_sub(1).and_then(|i| blocks.get(i))) else {
        return Value::Null;
    };
    let group_id = format!("tool-group:{}", if id_from_last { &last.id } else { &first.id });
    let mut out = head("tool-group", &group_id, first.created_at, first.invoked_at, 7);
    out.insert("firstToolId".to_owned(), string(&*first.id));
    out.insert("lastToolId".to_owned(), string(&*last.id));
    out.insert("tools".to_owned(), Value::Array(projected.get(start..end).unwrap_or_default().to_vec()));
    Value::Object(out)
}
