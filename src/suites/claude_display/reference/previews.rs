//! Streaming previews: with partial messages on (`--include-partial-messages`,
//! the SDK's `includePartialMessages`), an assistant message first arrives as
//! `stream_event` frames (the Messages API's raw stream events) and only then
//! as the final `assistant` frames, one per content block. A UI shows the
//! blocks while their tokens arrive: text, thinking, a tool call's input JSON
//! as it streams. Each final block replaces its preview block; a preview
//! whose blocks have all been replaced is gone.
//!
//! A block's final frame is matched to its preview by the message id and the
//! block: a tool block by its id, any other block as the oldest preview
//! block of the same kind (the CLI sends the final frame of block `i` right
//! after block `i`'s deltas, before `content_block_stop`).

use super::model::{Container, MessageFate, Model, Preview, PreviewBlock, PreviewPart, Target};
use super::parts::{block_type, citation};
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// A `stream_event` frame in `container`.
pub fn stream_event(
    model: &mut Model,
    container: Container,
    message: &Value,
    trace: &mut dyn RuleTrace,
) -> MessageFate {
    let Some(event) = message.get("event").filter(|event| event.is_object()) else {
        return MessageFate::Ignored("malformed-message");
    };
    let frame_message_id = message.get("api_message_id").and_then(Value::as_str).map(str::to_owned);
    let index = crate::suites::js::js_uint(event.get("index"));
    match event.get("type").and_then(Value::as_str).unwrap_or_default() {
        "message_start" => {
            let id = event.pointer("/message/id").and_then(Value::as_str).map(str::to_owned).or(frame_message_id);
            trace.hit("claude-display.preview.message-start");
            let ix = match find(model, id.as_deref()) {
                Some(ix) => ix,
                None => open(model, container, id.clone()),
            };
            target(model, ix)
        }
        "content_block_start" => {
            let Some(block) = event.get("content_block") else { return MessageFate::Ignored("malformed-message") };
            trace.hit("claude-display.preview.block-start");
            let ix = current(model, container, frame_message_id);
            let part = start_part(block);
            model.previews[ix].blocks.push(PreviewBlock { index, part });
            target(model, ix)
        }
        "content_block_delta" => {
            let Some(delta) = event.get("delta").filter(|delta| delta.is_object()) else {
                return MessageFate::Ignored("malformed-message");
            };
            let ix = current(model, container, frame_message_id);
            if !apply_delta(&mut model.previews[ix], index, delta, trace) {
                return MessageFate::Ignored("unknown-stream-event");
            }
            match block_type(delta) {
                "text_delta" => model.emit("assistant_text_delta"),
                "thinking_delta" => model.emit("thinking_delta"),
                _ => {}
            }
            target(model, ix)
        }
        "content_block_stop" | "message_delta" => {
            trace.hit("claude-display.preview.bookkeeping");
            let ix = current(model, container, frame_message_id);
            target(model, ix)
        }
        "message_stop" => {
            trace.hit("claude-display.preview.message-stop");
            let ix = current(model, container, frame_message_id);
            model.previews[ix].stopped = true;
            let outcome = target(model, ix);
            if model.previews[ix].blocks.is_empty() {
                model.previews.remove(ix);
            }
            outcome
        }
        _ => MessageFate::Ignored("unknown-stream-event"),
    }
}

fn find(model: &Model, message_id: Option<&str>) -> Option<usize> {
    let id = message_id?;
    model.previews.iter().position(|preview| preview.message_id.as_deref() == Some(id))
}

fn open(model: &mut Model, container: Container, message_id: Option<String>) -> usize {
    model.previews.push(Preview { message_id, container, blocks: Vec::new(), stopped: false });
    model.previews.len() - 1
}

/// The preview a block-level event belongs to: the one its
/// `api_message_id` names, else the latest open preview of its transcript,
/// else a new one (the stream was joined after `message_start`).
fn current(model: &mut Model, container: Container, message_id: Option<String>) -> usize {
    if let Some(ix) = find(model, message_id.as_deref()) {
        return ix;
    }
    if message_id.is_none()
        && let Some(ix) = model.previews.iter().rposition(|preview| preview.container == container && !preview.stopped)
    {
        return ix;
    }
    open(model, container, message_id)
}

fn target(model: &Model, ix: usize) -> MessageFate {
    let message_id = model.previews.get(ix).and_then(|preview| preview.message_id.clone());
    MessageFate::To(vec![Target::Preview { message_id }])
}

/// The preview part a `content_block_start` opens.
fn start_part(block: &Value) -> PreviewPart {
    let str_of = |key: &str| block.get(key).and_then(Value::as_str).map(str::to_owned);
    match block_type(block) {
        "text" => PreviewPart::Text { text: str_of("text").unwrap_or_default(), citations: Vec::new() },
        "thinking" => PreviewPart::Reasoning {
            text: str_of("thinking").unwrap_or_default(),
            redacted: false,
            signature: str_of("signature").filter(|s| !s.is_empty()),
        },
        "redacted_thinking" => PreviewPart::Reasoning { text: String::new(), redacted: true, signature: None },
        "tool_use" | "server_tool_use" | "mcp_tool_use" => {
            PreviewPart::ToolInput { tool_call_id: str_of("id"), name: str_of("name"), input_json: String::new() }
        }
        _ => match block.as_object() {
            Some(object) => {
                let mut data = object.clone();
                let name = data.shift_remove("type").and_then(|ty| ty.as_str().map(str::to_owned));
                PreviewPart::Data { name: name.unwrap_or_else(|| "unknown".to_owned()), data: Value::Object(data) }
            }
            None => PreviewPart::Data { name: "unknown".to_owned(), data: block.clone() },
        },
    }
}

/// Applies a `content_block_delta` to the block it names (opening one of the
/// delta's kind when the start was not seen); `false` for a delta type no
/// rule knows.
fn apply_delta(preview: &mut Preview, index: Option<u64>, delta: &Value, trace: &mut dyn RuleTrace) -> bool {
    let str_of = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or_default();
    let opened = match block_type(delta) {
        "text_delta" | "citations_delta" => PreviewPart::Text { text: String::new(), citations: Vec::new() },
        "thinking_delta" | "signature_delta" => {
            PreviewPart::Reasoning { text: String::new(), redacted: false, signature: None }
        }
        "input_json_delta" => PreviewPart::ToolInput { tool_call_id: None, name: None, input_json: String::new() },
        "compaction_delta" => PreviewPart::Data { name: "compaction".to_owned(), data: Value::Object(Map::new()) },
        _ => return false,
    };
    let position = preview.blocks.iter().rposition(|block| index.is_some() && block.index == index);
    let block = match position {
        Some(position) => &mut preview.blocks[position],
        None => {
            preview.blocks.push(PreviewBlock { index, part: opened });
            let last = preview.blocks.len() - 1;
            &mut preview.blocks[last]
        }
    };
    match (block_type(delta), &mut block.part) {
        ("text_delta", PreviewPart::Text { text, .. }) => {
            trace.hit("claude-display.preview.text-delta");
            text.push_str(str_of("text"));
        }
        ("citations_delta", PreviewPart::Text { citations, .. }) => {
            trace.hit("claude-display.preview.citations-delta");
            citations.extend(delta.get("citation").and_then(citation));
        }
        ("thinking_delta", PreviewPart::Reasoning { text, .. }) => {
            trace.hit("claude-display.preview.thinking-delta");
            text.push_str(str_of("thinking"));
        }
        ("signature_delta", PreviewPart::Reasoning { signature, .. }) => {
            trace.hit("claude-display.preview.thinking-delta");
            *signature = Some(str_of("signature").to_owned()).filter(|s| !s.is_empty());
        }
        ("input_json_delta", PreviewPart::ToolInput { input_json, .. }) => {
            trace.hit("claude-display.preview.input-json-delta");
            input_json.push_str(str_of("partial_json"));
        }
        ("compaction_delta", PreviewPart::Data { data, .. }) => {
            trace.hit("claude-display.preview.bookkeeping");
            if let (Some(object), Some(content)) = (data.as_object_mut(), delta.get("content").and_then(Value::as_str))
            {
                let text = object.entry("content").or_insert_with(|| Value::from(""));
                let joined = format!("{}{content}", text.as_str().unwrap_or_default());
                *text = Value::from(joined);
            }
        }
        // A delta of another kind than the block it names: the block keeps
        // what it showed.
        _ => trace.hit("claude-display.preview.bookkeeping"),
    }
    true
}

/// The final `assistant` block `block` of message `message_id` arrived:
/// drops the preview block it replaces. Returns whether a preview block was
/// replaced (the block's tokens were already streamed).
pub fn replace(model: &mut Model, message_id: Option<&str>, block: &Value, trace: &mut dyn RuleTrace) -> bool {
    let Some(ix) = find(model, message_id) else { return false };
    let preview = &mut model.previews[ix];
    let id = block.get("id").and_then(Value::as_str);
    let position = preview.blocks.iter().position(|candidate| match (&candidate.part, block_type(block)) {
        (PreviewPart::Text { .. }, "text") => true,
        (PreviewPart::Reasoning { redacted, .. }, ty) => {
            (ty == "thinking" && !redacted) || (ty == "redacted_thinking" && *redacted)
        }
        (PreviewPart::ToolInput { tool_call_id, .. }, "tool_use" | "server_tool_use" | "mcp_tool_use") => {
            tool_call_id.is_none() || tool_call_id.as_deref() == id
        }
        (PreviewPart::Data { name, .. }, ty) => name == ty,
        _ => false,
    });
    let Some(position) = position else { return false };
    trace.hit("claude-display.preview.replaced");
    preview.blocks.remove(position);
    if preview.blocks.is_empty() {
        model.previews.remove(ix);
    }
    true
}
