//! The user role (chat-normalize §5): text payloads, attachment validation
//! and the stringified fallback for anything else. Attachments follow the
//! document's fixtureVersion: version 2 accepts a durable `attachmentId` in
//! place of `path` (v2.md A1–A2); nothing else about user messages changed
//! (A4).

use super::envelope::{Carry, Record, Wire};
use crate::suite_api::RuleTrace;
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
    if wire.options.durable_attachments {
        // Only the attachment keep-test changed in version 2 (v2.md A4).
        trace.hit("v2.a4.user-message-rules-unchanged");
    }
    let content = if let Value::String(text) = payload {
        trace.hit("user.text.string");
        UserText { text: Cow::Borrowed(text), attachments: Vec::new() }
    } else if let Some(text) = text_payload(payload) {
        trace.hit("user.text.object");
        let attachments = attachments(get(payload, "attachments"), wire.options.durable_attachments, trace);
        UserText { text: Cow::Borrowed(text), attachments }
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

/// The valid elements of an `attachments` array, in order. `durable`: the
/// version 2 keep-test, where a string `attachmentId` may stand in for the
/// `path` (v2.md A1).
fn attachments<'a>(value: Option<&'a Value>, durable: bool, trace: &mut dyn RuleTrace) -> Vec<Attachment<'a>> {
    let Some(Value::Array(items)) = value else {
        return Vec::new();
    };
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        let found = if durable { durable_attachment(item, trace) } else { attachment(item) };
        match found {
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

/// The members every attachment needs: STR `id`, `filename`, `mimeType` and
/// a JSON number `size` (any number).
fn attachment_base(item: &Value) -> Option<Attachment<'_>> {
    let size = get(item, "size").filter(|size| size.is_number())?;
    Some(Attachment {
        id: str_of(get(item, "id"))?,
        filename: str_of(get(item, "filename"))?,
        mime_type: str_of(get(item, "mimeType"))?,
        size,
        path: None,
        attachment_id: None,
        preview_url: str_of(get(item, "previewUrl")),
    })
}

/// fixtureVersion 1 (chat-normalize §5): a string `path` is required.
fn attachment(item: &Value) -> Option<Attachment<'_>> {
    let path = str_of(get(item, "path"))?;
    Some(Attachment { path: Some(path), ..attachment_base(item)? })
}

/// fixtureVersion 2 (v2.md A1–A2): a string `path` or a string
/// `attachmentId`, each copied only when it is a string.
fn durable_attachment<'a>(item: &'a Value, trace: &mut dyn RuleTrace) -> Option<Attachment<'a>> {
    let base = attachment_base(item)?;
    let path = str_of(get(item, "path"));
    let attachment_id = str_of(get(item, "attachmentId"));
    match (path, attachment_id) {
        (None, None) => {
            trace.hit("v2.a1.no-reference-skipped");
            return None;
        }
        (None, Some(_)) => {
            trace.hit("v2.a1.attachment-id-without-path-kept");
            if get(item, "path").is_some() {
                trace.hit("v2.a2.non-string-path-not-copied");
            }
        }
        (Some(_), Some(_)) => trace.hit("v2.a2.path-and-attachment-id-copied"),
        (Some(_), None) => {}
    }
    Some(Attachment { path, attachment_id, ..base })
}
