//! Normalized events, per-input dispositions and the output a normalizer
//! accumulates while it is fed.
//!
//! Every input item (an SDK message, a JSON-RPC frame, an exec line) gets one
//! disposition: the indexes of the events it produced, or `ignored` with a
//! reason. That makes "no silent drops" checkable by reading a fixture.

use crate::suite_api::{RuleTrace, Scope};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The normalized event types of the adapter layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Session created or resumed.
    SessionReady,
    /// Streaming text chunk.
    Delta,
    /// Reasoning text (possibly empty, as an activity signal).
    Thinking,
    /// Tool invocation started.
    ToolStart,
    /// Tool invocation completed.
    ToolResult,
    /// The agent needs permission for a tool.
    PermissionRequest,
    /// A permission was granted or denied.
    PermissionResolved,
    /// Final agent response text.
    Result,
    /// Turn complete.
    Done,
    /// An error occurred.
    Error,
    /// What the person typed (a session transcript's user prompt), as the
    /// client's own `user_message` bubble.
    UserMessage,
}

impl EventType {
    /// The wire name (`tool_start`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::SessionReady => "session_ready",
            EventType::Delta => "delta",
            EventType::Thinking => "thinking",
            EventType::ToolStart => "tool_start",
            EventType::ToolResult => "tool_result",
            EventType::PermissionRequest => "permission_request",
            EventType::PermissionResolved => "permission_resolved",
            EventType::Result => "result",
            EventType::Done => "done",
            EventType::Error => "error",
            EventType::UserMessage => "user_message",
        }
    }
}

/// One normalized event. Timestamps are not part of the projection.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalizedEvent {
    /// The event type.
    pub event_type: EventType,
    /// The event payload.
    pub data: Map<String, Value>,
}

impl NormalizedEvent {
    /// `{type, data}`.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("type".to_owned(), Value::from(self.event_type.as_str()));
        object.insert("data".to_owned(), Value::Object(self.data.clone()));
        Value::Object(object)
    }
}

/// What became of one input item or content block.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemFate {
    /// It produced these events (indexes into the event list).
    Events(Vec<usize>),
    /// It produced nothing, deliberately, for this reason.
    Ignored(Cow<'static, str>),
}

/// What became of one content block inside a message.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockDisposition {
    /// The block's `type` as it appeared (or a placeholder when absent).
    pub block_type: String,
    /// The events it produced, or why it was ignored.
    pub outcome: ItemFate,
}

/// What became of one input item.
#[derive(Clone, Debug, PartialEq)]
pub struct Disposition {
    /// The item's kind, e.g. `system/init` or `item/completed/agentMessage`.
    pub kind: String,
    /// The events it produced, or why it was ignored.
    pub outcome: ItemFate,
    /// Per content block, for messages that carry a content array.
    pub blocks: Option<Vec<BlockDisposition>>,
}

impl Disposition {
    /// `{kind, events}` or `{kind, ignored}`, plus `blocks` when present.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("kind".to_owned(), Value::from(self.kind.clone()));
        insert_outcome(&mut object, &self.outcome);
        if let Some(blocks) = &self.blocks {
            let blocks = blocks
                .iter()
                .map(|block| {
                    let mut entry = Map::new();
                    entry.insert("type".to_owned(), Value::from(block.block_type.clone()));
                    insert_outcome(&mut entry, &block.outcome);
                    Value::Object(entry)
                })
                .collect();
            object.insert("blocks".to_owned(), Value::Array(blocks));
        }
        Value::Object(object)
    }
}

fn insert_outcome(object: &mut Map<String, Value>, outcome: &ItemFate) {
    match outcome {
        ItemFate::Events(indexes) => {
            object.insert("events".to_owned(), indexes.iter().map(|&index| Value::from(index)).collect());
        }
        ItemFate::Ignored(reason) => {
            object.insert("ignored".to_owned(), Value::from(reason.as_ref()));
        }
    }
}

/// The events and dispositions a normalizer has produced so far.
///
/// Normalizers push events while they handle one item and then close the
/// item with [`StreamOutput::settle`], which turns "the events pushed since
/// the item began" into its disposition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamOutput {
    /// Events in emission order.
    pub events: Vec<NormalizedEvent>,
    /// One disposition per input item, in input order.
    pub dispositions: Vec<Disposition>,
    /// The stream was cut off before the runtime finished (`end: "cut-off"`):
    /// projected as `"unfinished": true`, and absent otherwise.
    pub unfinished: bool,
}

impl StreamOutput {
    /// Appends an event and returns its index.
    pub fn push(&mut self, event_type: EventType, data: Map<String, Value>) -> usize {
        self.events.push(NormalizedEvent { event_type, data });
        self.events.len() - 1
    }

    /// The index the next pushed event will get.
    pub fn next_index(&self) -> usize {
        self.events.len()
    }

    /// Records the disposition of an item whose events start at `first`:
    /// the events pushed since then, or `ignored` with `reason` when none were.
    pub fn settle(&mut self, kind: String, first: usize, reason: Cow<'static, str>) {
        let outcome = outcome_since(first, self.events.len(), reason);
        self.dispositions.push(Disposition { kind, outcome, blocks: None });
    }

    /// How many events and dispositions there are so far (where the next
    /// item's start), for [`StreamOutput::claim_since`].
    pub fn lengths(&self) -> (usize, usize) {
        (self.events.len(), self.dispositions.len())
    }

    /// Provenance: the rules hit since the previous emission point decided
    /// the events and dispositions added since `lengths` (one wire item's).
    pub fn claim_since(&self, (events, dispositions): (usize, usize), trace: &mut dyn RuleTrace) {
        trace.emitted(Scope::Items { member: "events", start: events, end: self.events.len() });
        trace.also(Scope::Items { member: "dispositions", start: dispositions, end: self.dispositions.len() });
    }

    /// Records an explicit disposition.
    pub fn record(&mut self, disposition: Disposition) {
        self.dispositions.push(disposition);
    }

    /// `{events, dispositions}`, with `unfinished: true` for a cut-off stream.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("events".to_owned(), self.events.iter().map(NormalizedEvent::to_value).collect());
        object.insert("dispositions".to_owned(), self.dispositions.iter().map(Disposition::to_value).collect());
        if self.unfinished {
            object.insert("unfinished".to_owned(), Value::Bool(true));
        }
        Value::Object(object)
    }
}

/// `delta {text}`, and `thinking {text}` without `done`.
pub fn text_data(text: &str) -> Map<String, Value> {
    let mut data = Map::new();
    data.insert("text".to_owned(), Value::from(text));
    data
}

/// `delta {text, message_id?}`: the id of the assistant message (Claude
/// `message.id`, a Codex agent-message item id) the text belongs to, so that
/// two messages stay two text items downstream (event-fold).
pub fn delta_data(text: &str, message_id: Option<&str>) -> Map<String, Value> {
    let mut data = text_data(text);
    if let Some(id) = message_id {
        data.insert("message_id".to_owned(), Value::from(id));
    }
    data
}

/// `thinking {text, done?}`.
pub fn thinking_data(text: &str, done: Option<bool>) -> Map<String, Value> {
    let mut data = text_data(text);
    put(&mut data, "done", done.map(Value::Bool));
    data
}

/// `error {message, code?}`.
pub fn error_data(message: &str, code: Option<String>) -> Map<String, Value> {
    let mut data = Map::new();
    data.insert("message".to_owned(), Value::from(message));
    put(&mut data, "code", code.map(Value::from));
    data
}

/// `session_ready {session_id?, provider_session_id}`.
pub fn session_ready_data(session_id: Option<&str>, provider_session_id: &str) -> Map<String, Value> {
    let mut data = Map::new();
    put(&mut data, "session_id", session_id.map(Value::from));
    data.insert("provider_session_id".to_owned(), Value::from(provider_session_id));
    data
}

/// `done {}`, or `done {stopped: true}` when the turn was interrupted.
pub fn done_data(stopped: bool) -> Map<String, Value> {
    let mut data = Map::new();
    if stopped {
        data.insert("stopped".to_owned(), Value::Bool(true));
    }
    data
}

/// Inserts `key: value` when `value` is present (payload members that the
/// source may omit are omitted, never null).
pub fn put(data: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        data.insert(key.to_owned(), value);
    }
}

/// The events in `first..end`, or `ignored` with `reason` when the range is
/// empty.
pub fn outcome_since(first: usize, end: usize, reason: Cow<'static, str>) -> ItemFate {
    match (end > first, reason.is_empty()) {
        (true, _) => ItemFate::Events((first..end).collect()),
        // Every ignored item states a reason; a handler that expected to
        // emit but did not still gets one.
        (false, true) => ItemFate::Ignored(Cow::Borrowed("no event produced")),
        (false, false) => ItemFate::Ignored(reason),
    }
}
