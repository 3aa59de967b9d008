//! The display model as the fold builds it: an arena of turns and tool calls
//! (so that a tool call can evolve after the turn that announced it, and a
//! sub-agent transcript can grow inside a call that lives inside another
//! transcript), the notices, the session snapshot and one disposition per
//! input message. `projection` turns it into JSON.

use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Sub-agent transcripts nested deeper than this are refused: the message is
/// ignored with a reason rather than growing the output (and the recursion
/// that writes it) without bound.
pub const MAX_NESTING: usize = 64;

/// Index of a turn in [`Model::turns`].
pub type TurnIx = usize;
/// Index of a tool call in [`Model::calls`].
pub type CallIx = usize;

/// Which transcript a message belongs to: the main thread or the sub-agent
/// transcript hosted by a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Container {
    /// The main thread.
    Main,
    /// The transcript of the sub-agent run by this call.
    Call(CallIx),
}

/// Why a turn exists (`TurnOrigin`, widened with `model` for assistant turns
/// and `notification` for surfaced task notifications).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The model produced it.
    Model,
    /// Typed into the chat box.
    UserInput,
    /// Residue of a user envelope that returned tool results.
    ToolReturn { tool_call_id: String },
    /// Harness or CLI machinery; hidden by default.
    Synthetic { reason: &'static str, rule: Option<&'static str> },
    /// A background-task notification rewritten to its summary.
    Notification { rule: &'static str },
    /// The opening prompt of a sub-agent.
    SubagentPrompt { parent_tool_call_id: String },
    /// Playback of an earlier message.
    Replay,
}

/// One transcript entry.
#[derive(Clone, Debug)]
pub struct Turn {
    pub id: String,
    pub role: &'static str,
    pub origin: Origin,
    pub parts: Vec<Part>,
    pub metadata: Map<String, Value>,
    pub timestamp: Option<String>,
    /// `message.id` of an assistant turn: later frames of the same API
    /// message extend this turn.
    pub message_id: Option<String>,
    /// The content blocks of the API message seen so far (assistant turns):
    /// a later frame repeating one of them is the same block again.
    pub seen_blocks: Vec<Value>,
}

/// One part of a turn.
#[derive(Clone, Debug)]
pub enum Part {
    Text { text: String, citations: Option<Vec<Value>> },
    Reasoning { text: String, redacted: bool, signature: Option<String> },
    ToolCall(CallIx),
    File { media_type: String, url: String },
    SourceUrl { url: String, title: Option<String>, source_id: String },
    SourceDocument { media_type: String, title: String, source_id: String },
    Data { name: String, data: Value },
}

/// Who issued a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    Model,
    ServerTool,
    Mcp,
    Subagent,
}

impl Caller {
    pub fn as_str(self) -> &'static str {
        match self {
            Caller::Model => "model",
            Caller::ServerTool => "server-tool",
            Caller::Mcp => "mcp",
            Caller::Subagent => "subagent",
        }
    }
}

/// Lifecycle of a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolState {
    Pending,
    ApprovalPending,
    ApprovalDenied,
    Running,
    Success,
    Error,
}

impl ToolState {
    pub fn as_str(self) -> &'static str {
        match self {
            ToolState::Pending => "pending",
            ToolState::ApprovalPending => "approval-pending",
            ToolState::ApprovalDenied => "approval-denied",
            ToolState::Running => "running",
            ToolState::Success => "success",
            ToolState::Error => "error",
        }
    }

    /// Whether a result has settled the call.
    pub fn is_settled(self) -> bool {
        matches!(self, ToolState::ApprovalDenied | ToolState::Success | ToolState::Error)
    }
}

/// One evolving tool call.
#[derive(Clone, Debug)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub caller: Caller,
    pub mcp_server: Option<String>,
    pub state: ToolState,
    pub input: Value,
    pub output: Option<Value>,
    pub error_text: Option<String>,
    pub sidecar: Option<Value>,
    pub subagent: Option<Subagent>,
    pub skill: Option<Skill>,
    /// A background task the harness runs for the call (not a sub-agent).
    pub task: Option<BackgroundTask>,
    /// `elapsed_time_seconds` of the latest `tool_progress` frame.
    pub elapsed_seconds: Option<Value>,
    /// Nesting depth of the transcript that holds the call (main = 0).
    pub depth: usize,
}

/// A background task (`task_started` for a call that is not a sub-agent,
/// such as a slow `Bash`): what a UI shows while the session keeps working
/// after the call was handed off.
#[derive(Clone, Debug)]
pub struct BackgroundTask {
    pub task_id: String,
    pub task_type: Option<String>,
    pub description: String,
    pub status: String,
    pub summary: Option<String>,
    /// A task notification finalised the task.
    pub finished: bool,
}

/// A `Skill` call's skill name and the synthetic body the harness injected.
#[derive(Clone, Debug)]
pub struct Skill {
    pub skill_name: String,
    pub body: Option<String>,
}

/// A sub-agent run hosted by a tool call.
#[derive(Clone, Debug)]
pub struct Subagent {
    pub task_id: Option<String>,
    pub description: String,
    pub progress: Vec<String>,
    pub status: String,
    pub usage: Option<Map<String, Value>>,
    pub transcript: Transcript,
    /// A task notification finalised the record.
    pub finished: bool,
}

/// A streaming preview: the blocks of an assistant message whose
/// `stream_event` frames arrived before its final `assistant` frames.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The API message id (`message_start`'s `message.id`, or a frame's
    /// `api_message_id`), when the stream said it.
    pub message_id: Option<String>,
    /// The transcript the message belongs to.
    pub container: Container,
    /// The blocks still streaming, in `index` order of arrival.
    pub blocks: Vec<PreviewBlock>,
    /// `message_stop` arrived.
    pub stopped: bool,
}

/// One block of a preview.
#[derive(Clone, Debug)]
pub struct PreviewBlock {
    /// The stream's block index.
    pub index: Option<u64>,
    pub part: PreviewPart,
}

/// What a streaming block shows so far.
#[derive(Clone, Debug)]
pub enum PreviewPart {
    Text { text: String, citations: Vec<Value> },
    Reasoning { text: String, redacted: bool, signature: Option<String> },
    ToolInput { tool_call_id: Option<String>, name: Option<String>, input_json: String },
    Data { name: String, data: Value },
}

/// An ordered list of turns plus the context the classifier needs.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    pub turns: Vec<TurnIx>,
    /// A `Skill` call whose result just arrived and whose body has not.
    pub pending_skill: Option<CallIx>,
    /// The slash command recorded last, while no real turn followed it.
    pub last_command: Option<String>,
    /// Whether the sub-agent's opening prompt has been seen.
    pub prompt_seen: bool,
}

/// The session inventory from the latest `system/init`.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub id: String,
    pub session_id: String,
    pub model: String,
    pub cwd: String,
    pub permission_mode: String,
    pub tools: Vec<String>,
    pub mcp_servers: Vec<(String, String)>,
    pub plugins: Vec<(String, String)>,
    pub skills: Vec<String>,
    pub slash_commands: Vec<String>,
    pub agents: Vec<String>,
    pub updated_at: Option<String>,
}

/// Where (part of) a message went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A turn was created or extended; `parent` is the call hosting the
    /// transcript (absent for the main thread).
    Turn { turn_id: String, parent: Option<String> },
    /// A tool call was updated.
    ToolCall { tool_call_id: String },
    /// A notice was appended (index into the notice list).
    Notice { index: usize },
    /// A streaming preview was opened or updated.
    Preview { message_id: Option<String> },
    /// The session snapshot was opened or updated.
    Snapshot,
}

/// What happened to one input message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageFate {
    /// It fed one or more tracks.
    To(Vec<Target>),
    /// It was deliberately not displayed, for this reason id.
    Ignored(&'static str),
}

/// One disposition per input message.
#[derive(Clone, Debug)]
pub struct Disposition {
    pub kind: String,
    pub outcome: MessageFate,
    /// The seed's stage-2 normalized event kinds the message stands for.
    pub normalized: Vec<&'static str>,
}

/// The whole display model.
#[derive(Debug, Default)]
pub struct Model {
    pub turns: Vec<Turn>,
    pub calls: Vec<ToolCall>,
    pub call_ids: HashMap<String, CallIx>,
    pub task_ids: HashMap<String, CallIx>,
    /// `can_use_tool` request ids and the call each asks about.
    pub permission_requests: HashMap<String, CallIx>,
    pub turn_ids: HashMap<String, TurnIx>,
    /// Assistant turns by transcript and API message id: later frames of the
    /// same message extend them, wherever they arrive.
    pub message_turns: HashMap<(Container, String), TurnIx>,
    /// Sidechain entries of a session transcript (`isSidechain: true`) by
    /// `uuid`, and the transcript each was attributed to.
    pub sidechain_hosts: HashMap<String, Container>,
    /// Sub-agent calls whose sidechain has started (its root was attributed).
    pub sidechain_calls: HashSet<CallIx>,
    /// Open streaming previews.
    pub previews: Vec<Preview>,
    /// Stage-2 kinds of the message being folded (moved into its
    /// disposition).
    pub normalized: Vec<&'static str>,
    /// Receive times of the input messages (`receivedAt`), by index.
    pub received_at: Vec<Option<String>>,
    /// The stream was cut off before the runtime finished.
    pub unfinished: bool,
    pub main: Transcript,
    pub notices: Vec<Value>,
    pub snapshot: Option<Snapshot>,
    pub dispositions: Vec<Disposition>,
}

impl Model {
    /// Records a stage-2 normalized event kind for the message being folded.
    pub fn emit(&mut self, kind: &'static str) {
        self.normalized.push(kind);
    }

    /// The time of input message `index`: its string `timestamp`, else the
    /// time it was received (`receivedAt`), when the input gives one.
    pub fn timestamp_of(&self, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> Option<String> {
        if let Some(timestamp) = message.get("timestamp").and_then(Value::as_str) {
            return Some(timestamp.to_owned());
        }
        let received = self.received_at.get(index).cloned().flatten();
        if received.is_some() {
            trace.hit("claude-display.time.received-at");
        }
        received
    }

    /// The transcript of `container`; a call that hosts a transcript gets a
    /// sub-agent record (and the `subagent` caller) the first time. Calls
    /// are only named by indexes the fold handed out; should one ever be
    /// stale, the main thread is used rather than panicking.
    pub fn transcript_mut(&mut self, container: Container) -> &mut Transcript {
        match container {
            Container::Call(ix) if ix < self.calls.len() => &mut self.ensure_subagent(ix).transcript,
            _ => &mut self.main,
        }
    }

    /// The transcript of `container` if it exists.
    pub fn transcript(&self, container: Container) -> Option<&Transcript> {
        match container {
            Container::Main => Some(&self.main),
            Container::Call(ix) => self.calls.get(ix).and_then(|call| call.subagent.as_ref()).map(|s| &s.transcript),
        }
    }

    /// The sub-agent record of call `ix` (an index the fold handed out),
    /// opened if needed. Hosting a sub-agent makes the call a `subagent`
    /// call whatever its name.
    pub fn ensure_subagent(&mut self, ix: CallIx) -> &mut Subagent {
        let call = &mut self.calls[ix];
        if call.caller != Caller::Subagent {
            call.caller = Caller::Subagent;
            call.mcp_server = None;
        }
        let description = call.input.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
        call.subagent.get_or_insert_with(|| Subagent {
            task_id: None,
            description,
            progress: Vec::new(),
            status: "running".to_owned(),
            usage: None,
            transcript: Transcript::default(),
            finished: false,
        })
    }

    /// A call that started working (its task started, its sub-agent
    /// transcript grows) is `running` unless a result settled it; returns
    /// whether it moved.
    pub fn mark_running(&mut self, container: Container) -> bool {
        let Container::Call(ix) = container else { return false };
        match self.calls.get_mut(ix) {
            Some(call) if matches!(call.state, ToolState::Pending | ToolState::ApprovalPending) => {
                call.state = ToolState::Running;
                true
            }
            _ => false,
        }
    }

    /// Nesting depth of the transcript of `container` (main = 0).
    pub fn depth_of(&self, container: Container) -> usize {
        match container {
            Container::Main => 0,
            Container::Call(ix) => self.calls.get(ix).map_or(0, |call| call.depth + 1),
        }
    }

    /// The tool call id hosting `container`, for dispositions.
    pub fn host_id(&self, container: Container) -> Option<String> {
        match container {
            Container::Main => None,
            Container::Call(ix) => self.calls.get(ix).map(|call| call.id.clone()),
        }
    }

    /// Appends `turn` to the transcript of `container` and returns the
    /// disposition target. A real turn ends the context that lets a
    /// following synthetic message be read as a skill body or a command
    /// expansion.
    pub fn push_turn(&mut self, container: Container, index: usize, mut turn: Turn) -> Target {
        if turn.id.is_empty() || self.turn_ids.contains_key(&turn.id) {
            turn.id = format!("message-{index}");
        }
        let id = turn.id.clone();
        let keeps_context = matches!(turn.origin, Origin::Synthetic { .. } | Origin::Replay);
        let ix = self.turns.len();
        self.turns.push(turn);
        self.turn_ids.insert(id.clone(), ix);
        let transcript = self.transcript_mut(container);
        transcript.turns.push(ix);
        transcript.pending_skill = None;
        if !keeps_context {
            transcript.last_command = None;
        }
        Target::Turn { turn_id: id, parent: self.host_id(container) }
    }
}
