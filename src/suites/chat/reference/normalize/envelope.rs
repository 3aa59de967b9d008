//! Entry point of the normalize stage: the envelope unwrap probes, role
//! dispatch and the no-envelope / unknown-role fallbacks (chat-normalize §4),
//! plus the message skeleton every family fills in.

use super::{agent, user};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{AgentItem, BlockId, Content, NormalizedMessage, Stamp, TextItem};
use crate::suites::chat::reference::options::ChatOptions;
use crate::suites::chat::reference::stringify::stringify;
use crate::suites::js::{get, str_of, to_js_string};
use serde_json::Value;
use std::borrow::Cow;

/// Normalizes one wire message by the rules of `options`' fixtureVersion;
/// `None` means the pipeline hides it.
///
/// Total for any JSON value. A row that is not a JSON object has no members,
/// as JavaScript reads a number, string, boolean or array: it becomes the
/// no-envelope fallback (text `undefined`, no id, no `createdAt`). Only a
/// `null` row is hidden: the web pipeline throws on it.
pub fn normalize_message<'a>(
    message: &'a Value,
    options: &ChatOptions,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    if message.is_null() {
        trace.hit("message.null-dropped");
        return None;
    }
    if !message.is_object() {
        trace.hit("message.not-an-object-read-as-empty");
    }
    if get(message, "localId").is_none() {
        trace.hit("message.local-id-absent-left-out");
    }
    let wire = Wire::new(message, *options);
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

/// Whether the normalize stage of `options`' fixtureVersion shows this row
/// (`false` exactly when it hides it). The message window keeps a row only
/// if it is queued or renders.
pub fn renders(message: &Value, options: &ChatOptions) -> bool {
    normalize_message(message, options, &mut crate::suite_api::NoTrace).is_some()
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

/// The wire members every normalized message starts from. `id`,
/// `localId` and `createdAt` are copied whatever their type, as JavaScript
/// copies them.
pub(super) struct Wire<'a> {
    message: &'a Value,
    /// The message id as text.
    pub id: Cow<'a, str>,
    block_id: BlockId<'a>,
    local_id: Option<&'a Value>,
    created_at: Stamp<'a>,
    /// The rules of the document's fixtureVersion.
    pub options: ChatOptions,
}

impl<'a> Wire<'a> {
    fn new(message: &'a Value, options: ChatOptions) -> Self {
        let id = get(message, "id");
        let text = to_js_string(id);
        let block_id = match id {
            None => BlockId::Undefined,
            Some(Value::String(_)) => BlockId::Text(text.clone()),
            Some(other) => BlockId::Wire(other),
        };
        Wire {
            message,
            id: text,
            block_id,
            local_id: get(message, "localId"),
            created_at: Stamp::of(get(message, "createdAt")),
            options,
        }
    }

    /// A normalized message with this wire row's common members, not in a
    /// sidechain and without meta.
    pub fn message(&self, content: Content<'a>, copy: Carry) -> NormalizedMessage<'a> {
        let member = |key| get(self.message, key);
        NormalizedMessage {
            status: member("status"),
            original_text: member("originalText"),
            invoked_at: if copy == Carry::NoEnvelope { None } else { member("invokedAt") },
            steered: if copy == Carry::User { member("steered") } else { None },
            block_id: self.block_id.clone(),
            ..NormalizedMessage::new(self.id.clone(), self.local_id, self.created_at, content)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;
    use crate::suites::chat::reference::model::{AgentItem, Content};
    use serde_json::json;

    fn agent(payload: Value) -> Value {
        json!({"id": "m1", "localId": null, "createdAt": 1, "content": {"role": "agent", "content": payload}})
    }

    #[test]
    fn renders_is_false_exactly_for_hidden_rows() {
        let hidden = [
            json!({"type": "output", "data": {"type": "assistant", "isMeta": true}}),
            json!({"type": "output", "data": {"type": "system", "subtype": "init"}}),
            json!({"type": "output", "data": {"type": "agy_message", "content": " "}}),
            json!({"type": "codex", "data": {"type": "nope"}}),
            json!({"type": "codex", "data": {"type": "generated-image", "imageId": 5, "image_id": "x"}}),
            json!({"type": "codex", "data": {"type": "plan", "entries": [{"step": "", "title": "x"}]}}),
            json!({"type": "codex"}),
        ];
        for payload in hidden {
            assert!(!renders(&agent(payload.clone()), &ChatOptions::V1), "{payload}");
        }
        let shown = [
            json!({"type": "output", "data": {"type": "system", "subtype": "away_summary", "content": "back"}}),
            json!({"type": "output", "data": []}),
            json!({"type": "event", "data": {"type": "whatever"}}),
            json!({"type": "event"}),
            json!({"type": "codex", "data": {"type": "message", "message": ""}}),
            json!({"type": "codex", "data": {"type": "plan", "entries": [""]}}),
            json!("plain"),
            json!(null),
        ];
        for payload in shown {
            assert!(renders(&agent(payload.clone()), &ChatOptions::V1), "{payload}");
        }
        let v1 = &ChatOptions::V1;
        assert!(renders(&json!({"id": "m", "content": {"role": "system", "content": {"type": "codex"}}}), v1));
        assert!(renders(&json!({"id": "m"}), v1));
        assert!(renders(&json!("not a row"), v1), "read as a row without members");
        assert!(!renders(&Value::Null, v1));
    }

    #[test]
    fn claude_user_entry_of_text_parts_is_a_user_turn() {
        // chat-normalize §15 example 6.
        let message = agent(json!({"type": "output", "data": {
            "type": "user", "uuid": "u", "timestamp": "2025-08-12T11:20:05.173Z",
            "message": {"content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}]}
        }}));
        let mut message = message;
        message["content"]["meta"] = json!({"sentFrom": "cli"});
        let normalized = normalize_message(&message, &ChatOptions::V1, &mut NoTrace).unwrap();
        let Content::User(user) = &normalized.content else { panic!("not a user turn: {normalized:?}") };
        assert_eq!(user.text, "first\n\nsecond");
        assert_eq!(normalized.meta, Some(&json!({"sentFrom": "cli"})));
        assert_eq!(normalized.agent_timestamp, Some(Some(1_754_997_605_173.0)));
        assert!(!normalized.is_sidechain);
    }

    #[test]
    fn fallback_texts_follow_the_constructed_examples() {
        // chat-normalize §15 example 2.
        let text = |message: &Value| match normalize_message(message, &ChatOptions::V1, &mut NoTrace).map(|m| m.content)
        {
            Some(Content::Agent(items)) => match items.first() {
                Some(AgentItem::Text(text)) => text.text.to_string(),
                other => panic!("{other:?}"),
            },
            Some(Content::User(user)) => user.text.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(text(&json!({"id": "m"})), "undefined");
        assert_eq!(text(&json!({"id": "m", "content": {"role": "user", "content": null}})), "null");
        assert_eq!(text(&agent(json!(42))), "42");
        assert_eq!(text(&agent(json!("plain"))), "plain");
    }
}
