//! The normalized message: what the normalize stage hands the reducer
//! (chat-normalize §3).
//!
//! Values borrow from the wire input wherever the pipeline copies them
//! verbatim, so normalizing a window allocates little. Members that the
//! fixture projection drops (`uuid`, `model`, `agentTimestamp`, `description`,
//! …) are kept anyway: the reducer uses some of them, and the normalizer is a
//! public interface of its own (the pagination suite asks it whether a row
//! renders).

use super::verbatim::deep_clone;
use crate::suites::js::{get, math_min, number, to_js_string, to_number};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A time member (`createdAt`) as the pipeline holds it. JavaScript copies
/// the wire value whatever its type; only comparisons convert it
/// (`Number(x)`), and a computed time can be NaN, which projects as null.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stamp<'a> {
    /// A number.
    Number(f64),
    /// A wire value that is not a number (or null), kept as it is.
    Wire(&'a Value),
    /// `undefined` (no member): not projected.
    Absent,
}

impl<'a> Stamp<'a> {
    /// The wire member as it is.
    pub fn of(value: Option<&'a Value>) -> Self {
        match value {
            None => Stamp::Absent,
            Some(Value::Number(n)) => Stamp::Number(n.as_f64().unwrap_or(f64::NAN)),
            Some(other) => Stamp::Wire(other),
        }
    }

    /// `Number(x)`: what a comparison or `Math.min` sees.
    pub fn to_number(self) -> f64 {
        match self {
            Stamp::Number(n) => n,
            Stamp::Wire(value) => to_number(Some(value)),
            Stamp::Absent => f64::NAN,
        }
    }

    /// `Math.min(a, b)`: a number (NaN when either is not a number).
    pub fn min(self, other: Stamp<'_>) -> Stamp<'a> {
        Stamp::Number(math_min(self.to_number(), other.to_number()))
    }

    /// The value projected, `None` when absent.
    pub fn project(self) -> Option<Value> {
        match self {
            Stamp::Number(n) => Some(number(n)),
            Stamp::Wire(value) => Some(deep_clone(value)),
            Stamp::Absent => None,
        }
    }
}

/// One wire message after normalization.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalizedMessage<'a> {
    /// The wire `id` as text (`String(id)`: `7`, `undefined` when it is
    /// not a string), the basis of item ids and default uuids.
    pub id: Cow<'a, str>,
    /// The id of blocks whose id is the message id: the wire `id` as it is
    /// (a number stays a number, an absent id gives blocks without one).
    pub block_id: BlockId<'a>,
    /// The wire `localId` as it is, null included; `None` when the row has
    /// none (`undefined`: its blocks leave `localId` out, as the web does).
    pub local_id: Option<&'a Value>,
    /// The wire `createdAt`, as it is.
    pub created_at: Stamp<'a>,
    /// Role and content.
    pub content: Content<'a>,
    /// Whether the message belongs to a subagent (sidechain) transcript.
    pub is_sidechain: bool,
    /// `parentToolUseId` on the paths that carry it (absent and null are both `None`).
    pub parent_tool_use_id: Option<&'a str>,
    /// The envelope's `meta`, on the paths that carry it.
    pub meta: Option<&'a Value>,
    /// Token usage (Claude assistant entries and codex `token_count`);
    /// boxed because most messages have none.
    pub usage: Option<Box<Usage<'a>>>,
    /// `model`: present (possibly null) on Claude assistant entries and agy text.
    pub model: Option<Option<&'a str>>,
    /// `agentTimestamp`: present (possibly null) on Claude `assistant`/`user` entries.
    pub agent_timestamp: Option<Option<f64>>,
    /// Client send state, copied verbatim when present.
    pub status: Option<&'a Value>,
    /// Client-only original text, copied verbatim when present.
    pub original_text: Option<&'a Value>,
    /// `invokedAt` tri-state: `None` absent, `Some(Null)` null, else the wire value.
    pub invoked_at: Option<&'a Value>,
    /// `steered`, on user-envelope results only.
    pub steered: Option<&'a Value>,
}

impl<'a> NormalizedMessage<'a> {
    /// A message with its identity and content only: not in a sidechain,
    /// without meta, usage, model, agent timestamp or client members.
    /// The message's blocks are identified by the text `id`.
    pub fn new(id: Cow<'a, str>, local_id: Option<&'a Value>, created_at: Stamp<'a>, content: Content<'a>) -> Self {
        NormalizedMessage {
            block_id: BlockId::Text(id.clone()),
            id,
            local_id,
            created_at,
            content,
            is_sidechain: false,
            parent_tool_use_id: None,
            meta: None,
            usage: None,
            model: None,
            agent_timestamp: None,
            status: None,
            original_text: None,
            invoked_at: None,
            steered: None,
        }
    }

    /// The message's role.
    pub fn role(&self) -> Role {
        match self.content {
            Content::User(_) => Role::User,
            Content::Agent(_) => Role::Agent,
            Content::Event(_) => Role::Event,
        }
    }

    /// The agent items, when this is an agent message.
    pub fn agent_items(&self) -> &[AgentItem<'_>] {
        match &self.content {
            Content::Agent(items) => items,
            _ => &[],
        }
    }

    /// The message uuid: the first agent item's `uuid` (chat-reduce §1.1).
    pub fn uuid(&self) -> Option<&str> {
        self.agent_items().first().and_then(AgentItem::uuid)
    }

    /// The message's parent uuid: the first agent item's `parentUUID`.
    pub fn parent_uuid(&self) -> Option<&str> {
        self.agent_items().first().and_then(AgentItem::parent_uuid)
    }

    /// `meta.sentFrom === "cli"`.
    pub fn sent_from_cli(&self) -> bool {
        matches!(self.meta.and_then(|m| get(m, "sentFrom")), Some(Value::String(s)) if s == "cli")
    }
}

/// The `null` of members the pipeline sets to null itself (a synthesized
/// card's and a trace message's `localId`).
pub static NULL: Value = Value::Null;

/// A block id: text, or (for blocks whose id is the id of a wire message
/// that has no string id) that member as it is.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockId<'a> {
    /// Text.
    Text(Cow<'a, str>),
    /// A wire id that is not a string, projected as it is.
    Wire(&'a Value),
    /// The wire message has no `id`: the block has none either.
    Undefined,
}

impl<'a> BlockId<'a> {
    /// `String(id)`, what ids built from this one and lookups use.
    pub fn text(&self) -> Cow<'a, str> {
        match self {
            BlockId::Text(text) => text.clone(),
            BlockId::Wire(value) => to_js_string(Some(value)),
            BlockId::Undefined => Cow::Borrowed("undefined"),
        }
    }

    /// The projected `id`, `None` when there is none.
    pub fn project(&self) -> Option<Value> {
        match self {
            BlockId::Text(text) => Some(Value::String(text.to_string())),
            BlockId::Wire(value) => Some(deep_clone(value)),
            BlockId::Undefined => None,
        }
    }
}

impl<'a> From<Cow<'a, str>> for BlockId<'a> {
    fn from(text: Cow<'a, str>) -> Self {
        BlockId::Text(text)
    }
}

/// The three roles a normalized message can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A user turn.
    User,
    /// Agent output (a list of items).
    Agent,
    /// One event.
    Event,
}

/// Role-specific content.
#[derive(Clone, Debug, PartialEq)]
pub enum Content<'a> {
    /// `role:"user"`.
    User(UserText<'a>),
    /// `role:"agent"`: ordered items, possibly none.
    Agent(Vec<AgentItem<'a>>),
    /// `role:"event"`: one event object.
    Event(Event<'a>),
}

/// User text with its valid attachments.
#[derive(Clone, Debug, PartialEq)]
pub struct UserText<'a> {
    /// The text, verbatim (never trimmed).
    pub text: Cow<'a, str>,
    /// Valid attachments in wire order (empty when there are none).
    pub attachments: Vec<Attachment<'a>>,
}

/// A user attachment that passed validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment<'a> {
    /// `id`.
    pub id: &'a str,
    /// `filename`.
    pub filename: &'a str,
    /// `mimeType`.
    pub mime_type: &'a str,
    /// `size` (any JSON number, verbatim).
    pub size: &'a Value,
    /// `path` when it is a string (always, in fixtureVersion 1, where an
    /// attachment without one is skipped).
    pub path: Option<&'a str>,
    /// `attachmentId` when it is a string (fixtureVersion 2, v2.md A2).
    pub attachment_id: Option<&'a str>,
    /// `previewUrl` when it is a string.
    pub preview_url: Option<&'a str>,
}

/// An event object and how it was made, which decides the key order
/// JavaScript would give it (observable in event dedupe, chat-reduce §7.3).
#[derive(Clone, Debug, PartialEq)]
pub struct Event<'a> {
    /// The event object (`{type, …}`).
    pub value: Cow<'a, Value>,
    /// Where the object came from.
    pub origin: EventOrigin,
}

impl<'a> Event<'a> {
    /// An event copied verbatim from key-sorted wire input.
    pub fn wire(value: &'a Value) -> Self {
        Event { value: Cow::Borrowed(value), origin: EventOrigin::Wire }
    }

    /// An event the pipeline builds; members are given in construction order.
    pub fn built(members: Vec<(&str, Value)>) -> Self {
        let map: Map<String, Value> = members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        Event { value: Cow::Owned(Value::Object(map)), origin: EventOrigin::Built }
    }

    /// A copy that shares a borrowed object and deep-copies a built one
    /// with a growing stack (built events may hold deeply nested wire values).
    pub fn copy(&self) -> Event<'a> {
        let value = match &self.value {
            Cow::Borrowed(value) => Cow::Borrowed(*value),
            Cow::Owned(value) => Cow::Owned(deep_clone(value)),
        };
        Event { value, origin: self.origin }
    }

    /// The event's `type` when it is a string.
    pub fn kind(&self) -> Option<&str> {
        get(&self.value, "type").and_then(Value::as_str)
    }
}

/// Origin of an event object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventOrigin {
    /// Copied from the wire: members in sorted order.
    Wire,
    /// Built by the pipeline: top-level members in construction order.
    Built,
}

/// One agent content item (chat-normalize §3.3).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentItem<'a> {
    /// Assistant text.
    Text(TextItem<'a>),
    /// Reasoning (thinking) text.
    Reasoning(TextItem<'a>),
    /// A tool invocation.
    ToolCall(ToolCall<'a>),
    /// A tool result.
    ToolResult(ToolResult<'a>),
    /// An inline generated image.
    GeneratedImage(GeneratedImage<'a>),
    /// Links and texts offered for display (fixtureVersion 2, v2.md D6).
    DisplayLinks(DisplayLinks<'a>),
    /// A parsed codex review.
    CodexReview {
        /// The normalized review object.
        review: Value,
        /// Item uuid.
        uuid: Cow<'a, str>,
        /// Item parent uuid (always null for codex).
        parent_uuid: Option<&'a str>,
    },
    /// A conversation summary (no uuid).
    Summary {
        /// The summary text.
        summary: &'a str,
    },
    /// A subagent prompt or system-injected turn (never rendered itself).
    Sidechain {
        /// Item uuid.
        uuid: Cow<'a, str>,
        /// Item parent uuid.
        parent_uuid: Option<&'a str>,
        /// The prompt text.
        prompt: Cow<'a, str>,
    },
}

impl AgentItem<'_> {
    /// The item's `uuid` (every kind but `summary` has one).
    pub fn uuid(&self) -> Option<&str> {
        match self {
            AgentItem::Text(t) | AgentItem::Reasoning(t) => Some(&t.uuid),
            AgentItem::ToolCall(c) => Some(&c.uuid),
            AgentItem::ToolResult(r) => Some(&r.uuid),
            AgentItem::GeneratedImage(g) => Some(&g.uuid),
            AgentItem::DisplayLinks(d) => Some(&d.uuid),
            AgentItem::CodexReview { uuid, .. } | AgentItem::Sidechain { uuid, .. } => Some(uuid),
            AgentItem::Summary { .. } => None,
        }
    }

    /// The item's `parentUUID` when it is a string.
    pub fn parent_uuid(&self) -> Option<&str> {
        match self {
            AgentItem::Text(t) | AgentItem::Reasoning(t) => t.parent_uuid,
            AgentItem::ToolCall(c) => c.parent_uuid,
            AgentItem::ToolResult(r) => r.parent_uuid,
            AgentItem::GeneratedImage(_) | AgentItem::DisplayLinks(_) => None,
            AgentItem::CodexReview { parent_uuid, .. } | AgentItem::Sidechain { parent_uuid, .. } => *parent_uuid,
            AgentItem::Summary { .. } => None,
        }
    }
}

/// A `text` or `reasoning` item.
#[derive(Clone, Debug, PartialEq)]
pub struct TextItem<'a> {
    /// The text.
    pub text: Cow<'a, str>,
    /// Item uuid.
    pub uuid: Cow<'a, str>,
    /// Item parent uuid.
    pub parent_uuid: Option<&'a str>,
    /// Stream id: snapshots with the same id replace each other.
    pub stream_id: Option<Cow<'a, str>>,
}

/// A `tool-call` item.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall<'a> {
    /// Tool id.
    pub id: Cow<'a, str>,
    /// Tool name.
    pub name: Cow<'a, str>,
    /// Input tri-state: `None` absent, else the value (null included).
    pub input: Option<Cow<'a, Value>>,
    /// Short description (dropped by the projection).
    pub description: Option<Cow<'a, str>>,
    /// `nativeTitle`, present (possibly null) on codex tool calls.
    pub native_title: Option<Option<&'a str>>,
    /// `nativeKind`, present (possibly null) on codex and agy tool calls.
    pub native_kind: Option<Option<&'a str>>,
    /// Progress tri-state: `None` when the key is absent.
    pub progress: Option<&'a Value>,
    /// Item uuid.
    pub uuid: Cow<'a, str>,
    /// Item parent uuid.
    pub parent_uuid: Option<&'a str>,
}

/// A `tool-result` item.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult<'a> {
    /// The tool id this result completes.
    pub tool_use_id: Cow<'a, str>,
    /// Content tri-state: `None` absent, else the value (null included).
    pub content: Option<Cow<'a, Value>>,
    /// Whether the tool failed.
    pub is_error: bool,
    /// Item uuid.
    pub uuid: Cow<'a, str>,
    /// Item parent uuid.
    pub parent_uuid: Option<&'a str>,
    /// The permission decision carried by a Claude tool result.
    pub permissions: Option<ResultPermission<'a>>,
}

/// `ToolResultPermission` (chat-normalize §3.5).
#[derive(Clone, Debug, PartialEq)]
pub struct ResultPermission<'a> {
    /// Decision time.
    pub date: f64,
    /// `result == "approved"` (otherwise `"denied"`).
    pub approved: bool,
    /// Permission mode, when a string.
    pub mode: Option<&'a str>,
    /// The string elements of `allowedTools`, when it is an array.
    pub allowed_tools: Option<Vec<&'a str>>,
    /// One of `approved`, `approved_for_session`, `denied`, `abort`.
    pub decision: Option<&'a str>,
}

/// A `generated-image` item.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedImage<'a> {
    /// Image id (non-empty).
    pub image_id: &'a str,
    /// File name (`generated-image` by default).
    pub file_name: &'a str,
    /// MIME type or null.
    pub mime_type: Option<&'a str>,
    /// Item uuid.
    pub uuid: Cow<'a, str>,
    /// Inline media provenance (dropped by the projection).
    pub source: Option<MediaSource<'a>>,
}

/// A `display-links` item (fixtureVersion 2, v2.md D1–D6): at least one of
/// the lists is non-empty.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayLinks<'a> {
    /// The valid links, in order (at most 20).
    pub urls: Vec<DisplayLink<'a>>,
    /// The valid texts, in order (at most 20).
    pub texts: Vec<DisplayText<'a>>,
    /// Item uuid: `data.id` when it is a string, else the message id.
    pub uuid: Cow<'a, str>,
}

/// One displayable link.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayLink<'a> {
    /// The href, trimmed, byte for byte as received.
    pub href: &'a str,
    /// The trimmed, non-empty title, at most 255 UTF-16 code units.
    pub title: Option<Cow<'a, str>>,
}

/// One displayable text.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayText<'a> {
    /// The text, untrimmed.
    pub value: &'a str,
    /// The trimmed, non-empty title, at most 255 UTF-16 code units.
    pub title: Option<Cow<'a, str>>,
}

/// `InlineMediaSource`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaSource<'a> {
    /// `mcp`, `acp` or `tool_result`.
    pub ingress: &'a str,
    /// Producer flavor.
    pub flavor: Option<&'a str>,
    /// Producing tool call.
    pub tool_call_id: Option<&'a str>,
    /// Producing tool name.
    pub tool_name: Option<&'a str>,
}

/// `UsageData` (chat-normalize §3.5).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Usage<'a> {
    /// Input tokens.
    pub input_tokens: f64,
    /// Output tokens.
    pub output_tokens: f64,
    /// Cache-creation input tokens.
    pub cache_creation_input_tokens: Option<f64>,
    /// Cache-read input tokens.
    pub cache_read_input_tokens: Option<f64>,
    /// Context size as reported by the agent.
    pub context_tokens: Option<f64>,
    /// Context window size.
    pub context_window: Option<f64>,
    /// Codex thread id.
    pub thread_id: Option<&'a str>,
    /// Codex scope role (`child` usage never counts as the session's latest).
    pub scope_role: Option<&'a str>,
    /// Claude service tier.
    pub service_tier: Option<&'a str>,
}
