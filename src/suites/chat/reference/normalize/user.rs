//! The user role (chat-normalize §5): text payloads, attachment validation
//! and the stringified fallback for anything else.

use super::envelope::{Carry, Record, Wire};
use crate::suite::RuleTrace;
use crate::suites::chat::reference::model::{Attachment, Content, NormalizedMessage, UserText};
use crate::suites::chat::reference::stringify::stringify;
use crate::suites::js::{get, str_of};
use serde_json::Value;
use std::borrow::Cow;

/// Normalizes a record whose role is exactly `"user"`. Never hides.
pub(super) fn normalize_user<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    trace: &mut dyn RuleTrace,
) -> NormalizedMessage<'a> {
    let payload = record.payload;
    let content = if let Value::String(text) = payload {
        trace.hit("user.text.string");
        UserText { text: Cow::Borrowed(text), attachments: Vec::new() }
    } else if let Some(text) = text_payload(payload) {
        trace.hit("user.text.object");
        UserText { text: Cow::Borrowed(text), attachments: attachments(get(payload, "attachments"), trace) }
    } else {
        trace.hit("user.text.stringified");
        UserText { text: stringify(Some(payload)), attachments: Vec::new() }
    };
    let mut message = wire.message(Content::User(content), Carry::User);
    message.meta = record.meta;
    message
}

/// `{type: "text", text: <string>}`.
fn text_payload(payload: &Value) -> Option<&str> {
    (str_of(get(payload, "type")) == Some("text")).then(|| str_of(get(payload, "text"))).flatten()
}

/// The valid elements of an `attachments` array, in order.
fn attachments<'a>(value: Option<&'a Value>, trace: &mut dyn RuleTrace) -> Vec<Attachment<'a>> {
    let Some(Value::Array(items)) = value else {
        return Vec::new();
    };
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        match attachment(item) {
            Some(attachment) => {
                trace.hit("user.attachments.kept");
                if attachment.preview_url.is_some() {
                    trace.hit("user.attachments.preview-url");
                }
                kept.push(attachment);
            }
            None => trace.hit("user.attachments.invalid-skipped"),
        }
    }
    kept
}

fn attachment(item: &Value) -> Option<Attachment<'_>> {
    let size = get(item, "size").filter(|size| size.is_number())?;
    Some(Attachment {
        id: str_of(get(item, "id"))?,
        filename: str_of(get(item, "filename"))?,
        mime_type: str_of(get(item, "mimeType"))?,
        size,
        path: str_of(get(item, "path"))?,
        preview_url: str_of(get(item, "previewUrl")),
    })
}
