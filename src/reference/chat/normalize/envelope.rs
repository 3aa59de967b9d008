//! Entry point of the normalize stage: the envelope unwrap probes, role
//! dispatch and the no-envelope / unknown-role fallbacks (chat-normalize §4),
//! plus the message skeleton every family fills in.

use super::{agent, user};
use crate::reference::RuleTrace;
use crate::reference::chat::js::{get, num, str_of, to_js_string};
use crate::reference::chat::model::{AgentItem, Content, NormalizedMessage, TextItem};
use crate::reference::chat::stringify::stringify;
use serde_json::Value;
use std::borrow::Cow;

/// Normalizes one wire message; `None` means the pipeline hides it.
///
/// Total for any JSON value. A row that is not a JSON object is not a
/// message at all and is hidden.
pub fn normalize_message<'a>(message: &'a Value, trace: &mut dyn RuleTrace) -> Option<NormalizedMessage<'a>> {
    if !message.is_object() {
        trace.hit("message.not-an-object-dropped");
        return None;
    }
    let wire = Wire::new(message);
    let content = get(message, "content");
    let Some(record) = unwrap_envelope(content, trace) else {
        trace.hit("envelope.none-stringified");
        let text = stringify(content);
        return Some(wire.fallback_text(text, Carry::NoEnvelope, None));
    };
    match record.role {
        "user" => Some(user::normalize_user(&wire, &record, trace)),
        "agent" => agent::normalize_agent(&wire, &record, trace),
        _ => {
            trace.hit("envelope.unknown-role-stringified");
            Some(wire.fallback_text(stringify(Some(record.payload)), Carry::Agent, record.meta))
        }
    }
}

/// Whether the normalize stage shows this row (`false` exactly when it hides
/// it). The message window keeps a row only if it is queued or renders.
pub fn renders(message: &Value) -> bool {
    normalize_message(message, &mut crate::reference::NoTrace).is_some()
}

/// The role-wrapped record found in a message's `content`.
pub(super) struct Record<'a> {
    /// `role`.
    pub role: &'a str,
    /// The record's `content` (the payload).
    pub payload: &'a Value,
    /// The record's `meta`, when present.
    pub meta: Option<&'a Value>,
}

/// Probes `content`, `content.message`, `content.data.message` and
/// `content.payload.message`, in that order.
fn unwrap_envelope<'a>(content: Option<&'a Value>, trace: &mut dyn RuleTrace) -> Option<Record<'a>> {
    let content = content?;
    if let Some(record) = role_record(content) {
        trace.hit("envelope.record.direct");
        return Some(record);
    }
    if let Some(record) = get(content, "message").and_then(role_record) {
        trace.hit("envelope.record.message");
        return Some(record);
    }
    if let Some(record) = get(content, "data").and_then(|data| get(data, "message")).and_then(role_record) {
        trace.hit("envelope.record.data-message");
        return Some(record);
    }
    if let Some(record) = get(content, "payload").and_then(|p| get(p, "message")).and_then(role_record) {
        trace.hit("envelope.record.payload-message");
        return Some(record);
    }
    None
}

/// An object with a string `role` and a `content` key (any value).
fn role_record(value: &Value) -> Option<Record<'_>> {
    let role = str_of(get(value, "role"))?;
    let payload = get(value, "content")?;
    Some(Record { role, payload, meta: get(value, "meta") })
}

/// Which client-side members a result copies from the wire (chat-normalize §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Carry {
    /// No envelope: `status` and `originalText` only.
    NoEnvelope,
    /// The user role: also `invokedAt` and `steered`.
    User,
    /// The agent role and the unknown-role fallback: also `invokedAt`.
    Agent,
}

/// The wire members every normalized message starts from.
pub(super) struct Wire<'a> {
    message: &'a Value,
    /// The message id as text.
    pub id: Cow<'a, str>,
    local_id: Option<&'a str>,
    created_at: f64,
}

impl<'a> Wire<'a> {
    fn new(message: &'a Value) -> Self {
        Wire {
            message,
            id: to_js_string(get(message, "id")),
            local_id: str_of(get(message, "localId")),
            created_at: num(get(message, "createdAt")).unwrap_or(0.0),
        }
    }

    /// A normalized message with this wire row's common members, not in a
    /// sidechain and without meta.
    pub fn message(&self, content: Content<'a>, copy: Carry) -> NormalizedMessage<'a> {
        let member = |key| get(self.message, key);
        NormalizedMessage {
            id: self.id.clone(),
            local_id: self.local_id,
            created_at: self.created_at,
            content,
            is_sidechain: false,
            parent_tool_use_id: None,
            meta: None,
            usage: None,
            model: None,
            agent_timestamp: None,
            status: member("status"),
            original_text: member("originalText"),
            invoked_at: if copy == Carry::NoEnvelope { None } else { member("invokedAt") },
            steered: if copy == Carry::User { member("steered") } else { None },
        }
    }

    /// An agent message of one text item holding `text` (the fallbacks).
    pub fn fallback_text(&self, text: Cow<'a, str>, copy: Carry, meta: Option<&'a Value>) -> NormalizedMessage<'a> {
        let item = AgentItem::Text(TextItem { text, uuid: self.id.clone(), parent_uuid: None, stream_id: None });
        let mut message = self.message(Content::Agent(vec![item]), copy);
        message.meta = meta;
        message
    }
}
