//! The chat block model the reducer builds and the grouping and projection
//! stages read (chat-reduce §2). Presentation-only members of the original
//! (timing, descriptions, usage per block) are not modelled: nothing
//! normative depends on them.

use super::model::{Attachment, BlockId, DisplayLink, DisplayText, Event, NormalizedMessage, Stamp};
use serde_json::Value;
use std::borrow::Cow;

/// One chat block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block<'a> {
    /// Block id (`<message id>`, `<message id>:<index>` or a tool id).
    pub id: BlockId<'a>,
    /// Client-generated id as the wire has it, null included (`None`: the
    /// row had none, and the block leaves it out); agent events do not
    /// project it.
    pub local_id: Option<&'a Value>,
    /// Creation time in epoch milliseconds (the wire value as it is).
    pub created_at: Stamp<'a>,
    /// `invokedAt` tri-state (only a number is projected).
    pub invoked_at: Option<&'a Value>,
    /// Kind-specific members.
    pub body: Body<'a>,
}

/// Kind-specific block members.
#[derive(Clone, Debug, PartialEq)]
pub enum Body<'a> {
    /// `user-text`.
    UserText {
        /// The text.
        text: Cow<'a, str>,
        /// Attachments (projected only when non-empty).
        attachments: Vec<Attachment<'a>>,
    },
    /// `agent-text`.
    AgentText {
        /// The text.
        text: Cow<'a, str>,
    },
    /// `agent-reasoning`.
    AgentReasoning {
        /// The text.
        text: Cow<'a, str>,
    },
    /// `cli-output`: CLI command echo and its output.
    CliOutput {
        /// The text, tags included.
        text: Cow<'a, str>,
        /// `user` or `assistant`.
        source: &'static str,
    },
    /// `codex-review`.
    CodexReview {
        /// The normalized review object.
        review: Cow<'a, Value>,
    },
    /// `generated-image`.
    GeneratedImage {
        /// Image id.
        image_id: &'a str,
        /// File name.
        file_name: &'a str,
        /// MIME type or null.
        mime_type: Option<&'a str>,
    },
    /// `display-links` (fixtureVersion 2, v2.md D7).
    DisplayLinks {
        /// The links (projected always, possibly empty).
        urls: Vec<DisplayLink<'a>>,
        /// The texts (projected only when non-empty).
        texts: Vec<DisplayText<'a>>,
    },
    /// `agent-event`.
    AgentEvent {
        /// The event object.
        event: Event<'a>,
    },
    /// `tool-call`.
    ToolCall(Box<ToolCard<'a>>),
}

/// The tool record of a tool-call block, plus what the reducer needs to
/// rebuild CodexAgent children.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCard<'a> {
    /// Tool name.
    pub name: Cow<'a, str>,
    /// Lifecycle state.
    pub state: ToolState,
    /// Input tri-state (`None` absent).
    pub input: Option<Cow<'a, Value>>,
    /// Result tri-state (`None` absent).
    pub result: Option<Cow<'a, Value>>,
    /// Permission, when one is known.
    pub permission: Option<Permission<'a>>,
    /// Nested blocks (subagent transcript or agent-run trace).
    pub children: Vec<Block<'a>>,
    /// Agent-run trace messages the children are rebuilt from.
    pub traces: Vec<NormalizedMessage<'a>>,
}

/// Tool-call lifecycle state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolState {
    /// Waiting for approval.
    Pending,
    /// Started, no result yet.
    Running,
    /// The last result succeeded.
    Completed,
    /// The last result failed, or the call was refused.
    Error,
}

impl ToolState {
    /// The projected name.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolState::Pending => "pending",
            ToolState::Running => "running",
            ToolState::Completed => "completed",
            ToolState::Error => "error",
        }
    }

    /// `completed` or `error`.
    pub fn is_terminal(self) -> bool {
        matches!(self, ToolState::Completed | ToolState::Error)
    }
}

/// A tool card's permission. Optional members are absent when `None`; a
/// present member may hold JSON null (agentState `allowTools: null`).
#[derive(Clone, Debug, PartialEq)]
pub struct Permission<'a> {
    /// `pending`, `approved`, `denied` or `canceled` (agentState values are
    /// copied verbatim).
    pub status: Option<Cow<'a, Value>>,
    /// Permission mode.
    pub mode: Option<Cow<'a, Value>>,
    /// Decision.
    pub decision: Option<Cow<'a, Value>>,
    /// Tools allowed for the session.
    pub allowed_tools: Option<Cow<'a, Value>>,
    /// Question answers (flat or nested).
    pub answers: Option<Cow<'a, Value>>,
    /// Denial reason.
    pub reason: Option<Cow<'a, Value>>,
}

impl Permission<'_> {
    /// Whether the status is exactly `"pending"`.
    pub fn is_pending(&self) -> bool {
        status_is(self.status.as_deref(), "pending")
    }
}

/// Whether an optional status value is the given string.
pub fn status_is(status: Option<&Value>, expected: &str) -> bool {
    matches!(status, Some(Value::String(s)) if s == expected)
}

impl<'a> Block<'a> {
    /// The tool card, when this is a tool-call block.
    pub fn tool(&self) -> Option<&ToolCard<'a>> {
        match &self.body {
            Body::ToolCall(card) => Some(card),
            _ => None,
        }
    }

    /// The tool card, mutably.
    pub fn tool_mut(&mut self) -> Option<&mut ToolCard<'a>> {
        match &mut self.body {
            Body::ToolCall(card) => Some(card),
            _ => None,
        }
    }

    /// The event, when this is an agent-event block.
    pub fn event(&self) -> Option<&Event<'a>> {
        match &self.body {
            Body::AgentEvent { event } => Some(event),
            _ => None,
        }
    }
}

/// Subagent tool names: `Task`, `Agent`, `Task:*`, `Agent:*` (chat-normalize §12).
pub fn is_subagent_name(name: &str) -> bool {
    matches!(name, "Task" | "Agent") || name.starts_with("Task:") || name.starts_with("Agent:")
}
