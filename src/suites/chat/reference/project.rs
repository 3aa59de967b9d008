//! Stage 4, project: the normative projection of the fixture documents
//! (chat-reduce §10, fixtures/README.md "Normative field contract"). Only the
//! members the contract names are kept; absent members are omitted and nulls
//! kept where the contract says so.

use super::blocks::{Block, Body, Permission, ToolCard};
use super::fold::{Folded, LatestUsage};
use super::group::Visible;
use super::model::Stamp;
use crate::suites::chat::reference::verbatim::deep_clone;
use crate::suites::js::{number, string};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `{blocks, hasReadyEvent, latestUsage, visibleBlocks}`. Consumes the
/// blocks so that text the pipeline built moves into the output uncopied.
pub fn project(folded: Folded<'_>, visible: &[Visible]) -> Value {
    // Group members are addressed by position; their ids are needed after
    // the blocks have been moved into values.
    let group_ids: Vec<(String, String, Stamp<'_>, Option<Value>)> = visible
        .iter()
        .filter_map(|item| match *item {
            Visible::Group { start, end, .. } => {
                let first = folded.blocks.get(start)?;
                let last = folded.blocks.get(end.checked_sub(1)?)?;
                Some((
                    first.id.text().into_owned(),
                    last.id.text().into_owned(),
                    first.created_at,
                    first.invoked_at.cloned(),
                ))
            }
            Visible::Block(_) => None,
        })
        .collect();
    let blocks: Vec<Value> = folded.blocks.into_iter().map(project_block).collect();
    let mut groups = group_ids.into_iter();
    let visible_blocks = visible
        .iter()
        .map(|item| match *item {
            Visible::Block(index) => blocks.get(index).map_or(Value::Null, deep_clone),
            Visible::Group { start, end, id_from_last } => match groups.next() {
                Some((first, last, created_at, invoked_at)) => {
                    let members = blocks.get(start..end).unwrap_or_default().iter().map(deep_clone).collect();
                    project_group(first, last, created_at, invoked_at.as_ref(), members, id_from_last)
                }
                None => Value::Null,
            },
        })
        .collect();
    let mut out = Map::with_capacity(4);
    out.insert("blocks".to_owned(), Value::Array(blocks));
    out.insert("hasReadyEvent".to_owned(), Value::Bool(folded.has_ready_event));
    out.insert("latestUsage".to_owned(), folded.latest_usage.map_or(Value::Null, project_usage));
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

/// `kind`, `id` and `createdAt` (each omitted when the block has none), and
/// `invokedAt` when it is a number.
fn head(
    kind: &str,
    id: Option<Value>,
    created_at: Stamp<'_>,
    invoked_at: Option<&Value>,
    capacity: usize,
) -> Map<String, Value> {
    let mut out = Map::with_capacity(capacity);
    out.insert("kind".to_owned(), string(kind));
    if let Some(id) = id {
        out.insert("id".to_owned(), id);
    }
    if let Some(created_at) = created_at.project() {
        out.insert("createdAt".to_owned(), created_at);
    }
    if let Some(invoked_at @ Value::Number(_)) = invoked_at {
        out.insert("invokedAt".to_owned(), invoked_at.clone());
    }
    out
}

/// Moves owned text into a JSON string, copies borrowed text.
fn text(cow: Cow<'_, str>) -> Value {
    Value::String(cow.into_owned())
}

/// Moves an owned value, copies a borrowed one.
fn owned(cow: Cow<'_, Value>) -> Value {
    match cow {
        Cow::Borrowed(value) => deep_clone(value),
        Cow::Owned(value) => value,
    }
}

fn project_block(block: Block<'_>) -> Value {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        let kind = match &block.body {
            Body::UserText { .. } => "user-text",
            Body::AgentText { .. } => "agent-text",
            Body::AgentReasoning { .. } => "agent-reasoning",
            Body::CliOutput { .. } => "cli-output",
            Body::CodexReview { .. } => "codex-review",
            Body::GeneratedImage { .. } => "generated-image",
            Body::DisplayLinks { .. } => "display-links",
            Body::AgentEvent { .. } => "agent-event",
            Body::ToolCall(_) => "tool-call",
        };
        let Block { id, local_id, created_at, invoked_at, body } = block;
        let mut out = head(kind, id.project(), created_at, invoked_at, 8);
        // `localId: message.localId`: undefined (no member on the row) is
        // left out by JSON.stringify; agent events have none.
        if let Some(local_id) = local_id.filter(|_| !matches!(body, Body::AgentEvent { .. })) {
            out.insert("localId".to_owned(), deep_clone(local_id));
        }
        match body {
            Body::UserText { text: user_text, attachments } => {
                out.insert("text".to_owned(), text(user_text));
                if !attachments.is_empty() {
                    let list = attachments
                        .iter()
                        .map(|a| {
                            // `path` and `attachmentId` only when present,
                            // never null (v2.md A3; version 1 always has a path).
                            let mut item = Map::with_capacity(6);
                            item.insert("id".to_owned(), string(a.id));
                            item.insert("filename".to_owned(), string(a.filename));
                            item.insert("mimeType".to_owned(), string(a.mime_type));
                            item.insert("size".to_owned(), a.size.clone());
                            if let Some(path) = a.path {
                                item.insert("path".to_owned(), string(path));
                            }
                            if let Some(attachment_id) = a.attachment_id {
                                item.insert("attachmentId".to_owned(), string(attachment_id));
                            }
                            Value::Object(item)
                        })
                        .collect();
                    out.insert("attachments".to_owned(), Value::Array(list));
                }
            }
            Body::AgentText { text: body_text } | Body::AgentReasoning { text: body_text } => {
                out.insert("text".to_owned(), text(body_text));
            }
            Body::CliOutput { text: body_text, source } => {
                out.insert("text".to_owned(), text(body_text));
                out.insert("source".to_owned(), string(source));
            }
            Body::CodexReview { review } => {
                out.insert("review".to_owned(), owned(review));
            }
            Body::GeneratedImage { image_id, file_name, mime_type } => {
                out.insert("imageId".to_owned(), string(image_id));
                out.insert("fileName".to_owned(), string(file_name));
                out.insert("mimeType".to_owned(), mime_type.map_or(Value::Null, string));
            }
            Body::DisplayLinks { urls, texts } => {
                // `urls` always, `texts` only when non-empty (v2.md D8).
                let title = |item: &mut Map<String, Value>, title: Option<Cow<'_, str>>| {
                    if let Some(title) = title {
                        item.insert("title".to_owned(), text(title));
                    }
                };
                let links = urls
                    .into_iter()
                    .map(|link| {
                        let mut item = Map::with_capacity(2);
                        item.insert("href".to_owned(), string(link.href));
                        title(&mut item, link.title);
                        Value::Object(item)
                    })
                    .collect();
                out.insert("urls".to_owned(), Value::Array(links));
                if !texts.is_empty() {
                    let values = texts
                        .into_iter()
                        .map(|entry| {
                            let mut item = Map::with_capacity(2);
                            item.insert("value".to_owned(), string(entry.value));
                            title(&mut item, entry.title);
                            Value::Object(item)
                        })
                        .collect();
                    out.insert("texts".to_owned(), Value::Array(values));
                }
            }
            Body::AgentEvent { event } => {
                out.insert("event".to_owned(), owned(event.value));
            }
            Body::ToolCall(card) => {
                let ToolCard { name, state, input, result, permission, children, .. } = *card;
                let mut tool = Map::with_capacity(6);
                // `tool.id` is the card id as it is (see `BlockId`).
                if let Some(tool_id) = id.project() {
                    tool.insert("id".to_owned(), tool_id);
                }
                tool.insert("name".to_owned(), text(name));
                tool.insert("state".to_owned(), string(state.as_str()));
                if let Some(input) = input {
                    tool.insert("input".to_owned(), owned(input));
                }
                if let Some(result) = result {
                    tool.insert("result".to_owned(), owned(result));
                }
                if let Some(permission) = permission {
                    tool.insert("permission".to_owned(), project_permission(permission));
                }
                out.insert("tool".to_owned(), Value::Object(tool));
                if !children.is_empty() {
                    out.insert("children".to_owned(), Value::Array(children.into_iter().map(project_block).collect()));
                }
            }
        }
        Value::Object(out)
    })
}

fn project_permission(permission: Permission<'_>) -> Value {
    let mut out = Map::with_capacity(6);
    let members = [
        ("status", permission.status),
        ("mode", permission.mode),
        ("decision", permission.decision),
        ("allowedTools", permission.allowed_tools),
        ("answers", permission.answers),
        ("reason", permission.reason),
    ];
    for (key, value) in members {
        if let Some(value) = value {
            out.insert(key.to_owned(), owned(value));
        }
    }
    Value::Object(out)
}

fn project_group(
    first: String,
    last: String,
    created_at: Stamp<'_>,
    invoked_at: Option<&Value>,
    members: Vec<Value>,
    id_from_last: bool,
) -> Value {
    let group_id = format!("tool-group:{}", if id_from_last { &last } else { &first });
    let mut out = head("tool-group", Some(Value::String(group_id)), created_at, invoked_at, 7);
    out.insert("firstToolId".to_owned(), Value::String(first));
    out.insert("lastToolId".to_owned(), Value::String(last));
    out.insert("tools".to_owned(), Value::Array(members));
    Value::Object(out)
}
