//! The Claude normalizer: SDK messages in, normalized events out, one
//! message at a time.
//!
//! It is an incremental state machine (`feed` any number of times, then
//! `finish` with how the SDK's generator ended) so a live adapter and a
//! replay of a stored stream run the same code, and a stream split anywhere
//! between messages normalizes to the same events.

use super::kinds::{KindRule, Role, UNKNOWN_BLOCK, UNKNOWN_KIND, block_rule, message_kind, rule};
use super::sidechains::Sidechains;
use crate::suite_api::{RuleTrace, Scope};
use crate::suites::agent_events::{
    BlockDisposition, Disposition, EventType, InvalidItemRules, ItemFate, StreamOutput, decode_object, delta_data,
    done_data, error_data, outcome_since, put, session_ready_data, text_data,
};
use crate::suites::js::{non_empty_str, or, truthy};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashMap;

/// How the SDK's `query()` generator ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It completed: the final `result` (if any text) and `done` follow.
    Completed,
    /// It threw an `AbortError`: `done` with `stopped: true`.
    Aborted,
    /// It threw another error: `error` with its message.
    Error(String),
    /// The recording stops before the runtime finished: nothing is added.
    CutOff,
}

const END_VALUES: &str = "`end` must be \"completed\", \"aborted\", \"cut-off\" or {\"error\": \"…\"}";

impl End {
    /// Reads `"completed"`, `"aborted"`, `"cut-off"` or `{"error": "…"}`.
    pub fn parse(value: &Value) -> Result<End, String> {
        match value {
            Value::String(s) if s == "completed" => Ok(End::Completed),
            Value::String(s) if s == "aborted" => Ok(End::Aborted),
            Value::String(s) if s == "cut-off" => Ok(End::CutOff),
            Value::Object(object) => match object.get("error") {
                Some(Value::String(message)) if object.len() == 1 => Ok(End::Error(message.clone())),
                _ => Err(END_VALUES.to_owned()),
            },
            _ => Err(END_VALUES.to_owned()),
        }
    }
}

/// A content block whose tokens arrived as `stream_event` deltas.
#[derive(Debug)]
struct StreamedBlock {
    /// `text` or `thinking`.
    kind: &'static str,
    /// The stream's block index.
    index: Option<u64>,
    /// The text the deltas carried.
    text: String,
    /// The final assistant block for it has arrived.
    finished: bool,
}

/// The result frame whose text becomes the final `result` event.
#[derive(Debug)]
struct FinalText {
    disposition: usize,
    text: String,
}

/// Normalizes a Claude SDK message stream. See the module docs.
#[derive(Debug)]
pub struct ClaudeNormalizer {
    session_id: String,
    out: StreamOutput,
    final_text: Option<FinalText>,
    /// Open `can_use_tool` prompts: request id → tool name.
    permission_prompts: HashMap<String, Option<Value>>,
    /// The content blocks mapped so far per assistant message id: a block
    /// seen again (a duplicate frame) is not mapped twice.
    seen_blocks: HashMap<String, Vec<Value>>,
    /// Blocks streamed per message id.
    streams: HashMap<String, Vec<StreamedBlock>>,
    /// The message id of the latest `message_start`.
    streaming_message: Option<String>,
    /// Sub-agent spawns and the inline sidechain entries of transcripts.
    sidechains: Sidechains,
    /// The messages are a session transcript's entries (`source:
    /// "transcript"`): its first entry starts the session and its user
    /// prompts are `user_message` events.
    transcript: bool,
    /// A `session_ready` was emitted (by `system/init`, or a transcript's
    /// first entry).
    session_started: bool,
    /// `Task` / `Agent` spawns nothing of a sub-agent has followed yet:
    /// `tool_use_id` → the index of their `tool_start`. A spawn leaves when
    /// a frame of its sub-agent arrives or when its result does.
    unstarted_spawns: HashMap<String, usize>,
}

const NO_TEXT: &str = "a text block without a text string";
const REPEATED: &str = "repeats a content block of the same message (message.id) already mapped";
const STREAMED: &str = "its text arrived as stream_event deltas, which were mapped";
const STREAMED_OTHERWISE: &str = "its text differs from the stream_event deltas already mapped, which stand";
const MACHINERY: &str =
    "CLI machinery recorded as a user entry (isMeta, a command record, an interrupt marker, hook output), not a prompt";
const SUPERSEDED: &str = "superseded by a later result frame; only the last result text is emitted";

impl ClaudeNormalizer {
    /// A normalizer for the adapter session `session_id`.
    pub fn new(session_id: impl Into<String>) -> Self {
        ClaudeNormalizer {
            session_id: session_id.into(),
            out: StreamOutput::default(),
            final_text: None,
            permission_prompts: HashMap::new(),
            seen_blocks: HashMap::new(),
            streams: HashMap::new(),
            streaming_message: None,
            sidechains: Sidechains::default(),
            transcript: false,
            session_started: false,
            unstarted_spawns: HashMap::new(),
        }
    }

    /// A normalizer for a session transcript's entries (see the `transcript`
    /// field).
    pub fn for_transcript(session_id: impl Into<String>) -> Self {
        ClaudeNormalizer { transcript: true, ..ClaudeNormalizer::new(session_id) }
    }

    /// Feeds the next messages of the stream.
    pub fn feed(&mut self, messages: &[Value], trace: &mut dyn RuleTrace) {
        for raw in messages {
            let before = self.out.lengths();
            self.feed_one(raw, trace);
            self.out.claim_since(before, trace);
        }
    }

    /// What the stream has produced so far (a live adapter reads the events
    /// each item adds).
    pub fn output(&self) -> &StreamOutput {
        &self.out
    }

    /// Ends the stream the way the generator ended and returns everything
    /// produced.
    pub fn finish(mut self, end: &End, trace: &mut dyn RuleTrace) -> StreamOutput {
        let final_text = self.final_text.take();
        match end {
            End::Completed => {
                trace.hit("claude.end.completed");
                if let Some(final_text) = final_text {
                    let index = self.out.push(EventType::Result, text_data(&final_text.text));
                    self.set_outcome(final_text.disposition, ItemFate::Events(vec![index]));
                }
                self.out.push(EventType::Done, done_data(false));
            }
            End::Aborted => {
                trace.hit("claude.end.aborted");
                if let Some(final_text) = final_text {
                    let reason = "the run was aborted, so no final result is emitted";
                    self.set_outcome(final_text.disposition, ItemFate::Ignored(Cow::Borrowed(reason)));
                }
                self.out.push(EventType::Done, done_data(true));
            }
            End::Error(message) => {
                trace.hit("claude.end.error");
                if let Some(final_text) = final_text {
                    let reason = "the run failed, so no final result is emitted";
                    self.set_outcome(final_text.disposition, ItemFate::Ignored(Cow::Borrowed(reason)));
                }
                self.out.push(EventType::Error, error_data(message, None));
            }
            End::CutOff => {
                trace.hit("claude.stream.cut-off");
                if let Some(final_text) = final_text {
                    let reason = "the stream was cut off, so no final result is emitted";
                    self.set_outcome(final_text.disposition, ItemFate::Ignored(Cow::Borrowed(reason)));
                }
            }
        }
        self.out
    }

    fn set_outcome(&mut self, disposition: usize, outcome: ItemFate) {
        if let Some(entry) = self.out.dispositions.get_mut(disposition) {
            entry.outcome = outcome;
        }
    }

    fn feed_one(&mut self, raw: &Value, trace: &mut dyn RuleTrace) {
        const INVALID: InvalidItemRules =
            InvalidItemRules { not_json: "claude.invalid-line", not_an_object: "claude.not-an-object" };
        let message = match decode_object(raw, INVALID, trace) {
            Ok(message) => message,
            Err(reason) => return self.ignore("invalid".to_owned(), reason),
        };
        let message = message.as_ref();
        let kind = message_kind(message);
        match kind.as_str() {
            "system/init" => self.init(kind, message, trace),
            "assistant" => self.content(kind, message, Role::Assistant, trace),
            "user" => self.content(kind, message, Role::User, trace),
            "control_request/can_use_tool" => self.permission_request(kind, message, trace),
            "control_response" => self.control_response(kind, message, trace),
            "stream_event/message_start" | "stream_event/content_block_start" => {
                self.stream_start(message);
                trace.hit("claude.kind.ignored");
                let reason = match rule(&kind) {
                    Some(KindRule::Ignored(reason)) => reason,
                    _ => UNKNOWN_KIND,
                };
                self.ignore(kind, Cow::Borrowed(reason));
            }
            "stream_event/content_block_delta/text_delta" | "stream_event/content_block_delta/thinking_delta" => {
                self.stream_delta(kind, message, trace)
            }
            _ if kind.starts_with("result/") => self.result(kind, message, trace),
            _ => match rule(&kind) {
                Some(KindRule::Ignored(reason)) if kind == "system/task_started" => {
                    if let Some(id) = message.get("tool_use_id").and_then(Value::as_str) {
                        self.unstarted_spawns.remove(id);
                    }
                    trace.hit("claude.kind.ignored");
                    self.ignore(kind, Cow::Borrowed(reason));
                }
                Some(KindRule::Ignored(reason)) => {
                    trace.hit("claude.kind.ignored");
                    self.ignore(kind, Cow::Borrowed(reason));
                }
                _ => {
                    trace.hit("claude.kind.unknown");
                    self.ignore(kind, Cow::Borrowed(UNKNOWN_KIND));
                }
            },
        }
    }

    fn ignore(&mut self, kind: String, reason: Cow<'static, str>) {
        self.out.record(Disposition { kind, outcome: ItemFate::Ignored(reason), blocks: None });
    }

    /// `system/init` → `session_ready` with the adapter's and the provider's
    /// session ids.
    fn init(&mut self, kind: String, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        let first = self.out.next_index();
        self.session_started = true;
        if let Some(provider_session_id) = non_empty_str(message.get("session_id")) {
            trace.hit("claude.init.session-ready");
            let data = session_ready_data(Some(&self.session_id), provider_session_id);
            self.out.push(EventType::SessionReady, data);
        } else {
            trace.hit("claude.init.without-session-id");
        }
        self.out.settle(kind, first, Cow::Borrowed("an init frame without a session_id"));
    }

    /// `assistant` and `user` messages: one disposition per content block.
    fn content(&mut self, kind: String, message: &Map<String, Value>, role: Role, trace: &mut dyn RuleTrace) {
        let first = self.out.next_index();
        let subagent_id = non_empty_str(message.get("parent_tool_use_id")).map(str::to_owned);
        if subagent_id.is_some() {
            trace.hit("claude.subagent-id");
        }
        let subagent_id = subagent_id.or_else(|| self.sidechains.attribute(message, trace));
        if let Some(id) = &subagent_id {
            self.unstarted_spawns.remove(id);
        }
        if self.transcript && !self.session_started {
            self.transcript_session_start(message, trace);
        }
        let content = message.get("message").and_then(|m| m.get("content"));
        if self.transcript && role == Role::User && subagent_id.is_none() {
            match transcript_user_entry(message, content) {
                UserEntry::Prompt(text) => {
                    trace.hit("claude.transcript.user-prompt");
                    let index = self.out.push(EventType::UserMessage, text_data(&text));
                    let blocks = content
                        .and_then(Value::as_array)
                        .map(|blocks| blocks.iter().map(|block| prompt_block_disposition(block, index)).collect());
                    return self.out.record(Disposition {
                        kind,
                        outcome: outcome_since(first, self.out.next_index(), Cow::Borrowed("")),
                        blocks,
                    });
                }
                UserEntry::Machinery => {
                    trace.hit("claude.transcript.user-machinery");
                    return self.settle_machinery(kind, first);
                }
                UserEntry::ToolReturn => {}
            }
        }
        let Some(blocks) = content.and_then(Value::as_array) else {
            let reason = if truthy(content) { "content is not a block array (plain text)" } else { "no content" };
            trace.hit("claude.content.not-blocks");
            return self.ignore(kind, Cow::Borrowed(reason));
        };
        trace.hit(match role {
            Role::Assistant => "claude.assistant.blocks",
            Role::User => "claude.user.tool-results",
        });
        let message_id = match role {
            Role::Assistant => message.get("message").and_then(|m| m.get("id")).and_then(Value::as_str),
            Role::User => None,
        };
        let mut dispositions = Vec::with_capacity(blocks.len());
        for block in blocks {
            let block_first = self.out.next_index();
            let block_type = block.get("type").and_then(Value::as_str).unwrap_or("(none)").to_owned();
            if let Some(id) = message_id {
                let seen = self.seen_blocks.entry(id.to_owned()).or_default();
                if seen.iter().any(|earlier| repeats(earlier, block)) {
                    trace.hit("claude.assistant.repeated-block");
                    dispositions
                        .push(BlockDisposition { block_type, outcome: ItemFate::Ignored(Cow::Borrowed(REPEATED)) });
                    continue;
                }
                seen.push(block.clone());
            }
            let streamed = match (message_id, block_type.as_str()) {
                (Some(id), "text" | "thinking") => self.finish_streamed(id, &block_type, block),
                _ => None,
            };
            let reason = match streamed {
                Some(Streamed::AlreadyEmitted(reason)) => {
                    trace.hit("claude.block.streamed");
                    Some(reason)
                }
                Some(Streamed::Remainder(rest)) => {
                    trace.hit("claude.block.streamed");
                    let (event_type, data) = if block_type == "text" {
                        (EventType::Delta, delta_data(&rest, message_id))
                    } else {
                        (EventType::Thinking, text_data(&rest))
                    };
                    self.emit(event_type, data, subagent_id.as_deref());
                    None
                }
                None => self.block(role, &block_type, block, message_id, subagent_id.as_deref(), trace),
            };
            let reason = Cow::Borrowed(reason.unwrap_or(NO_TEXT));
            let outcome = outcome_since(block_first, self.out.next_index(), reason);
            dispositions.push(BlockDisposition { block_type, outcome });
            if trace.keeps_provenance() {
                // Provenance: each block's rules decide its own events (and
                // its disposition), not its neighbours' in the same line.
                trace.emitted(Scope::Items { member: "events", start: block_first, end: self.out.next_index() });
                let at = format!("/dispositions/{}/blocks/{}", self.out.lengths().1, dispositions.len() - 1);
                trace.also(Scope::Pointer(&at));
            }
        }
        let outcome = outcome_since(first, self.out.next_index(), Cow::Borrowed("no content block produced an event"));
        self.out.record(Disposition { kind, outcome, blocks: Some(dispositions) });
    }

    /// A transcript's first entry with a session id starts the session:
    /// `session_ready` as `system/init` gives it, inside that entry's
    /// disposition.
    fn transcript_session_start(&mut self, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        let Some(provider_session_id) = non_empty_str(message.get("session_id")) else { return };
        trace.hit("claude.transcript.session-ready");
        self.session_started = true;
        let data = session_ready_data(Some(&self.session_id), provider_session_id);
        self.out.push(EventType::SessionReady, data);
    }

    /// A transcript's user entry that is CLI machinery (a hidden `isMeta`
    /// entry such as Stop-hook feedback, a command record, an interrupt
    /// marker): no user event; the session start, if it came with it, stays.
    fn settle_machinery(&mut self, kind: String, first: usize) {
        self.out.settle(kind, first, Cow::Borrowed(MACHINERY));
    }

    /// Maps one content block; returns why it produced nothing, if it did.
    fn block(
        &mut self,
        role: Role,
        block_type: &str,
        block: &Value,
        message_id: Option<&str>,
        subagent_id: Option<&str>,
        trace: &mut dyn RuleTrace,
    ) -> Option<&'static str> {
        match block_rule(role, block_type) {
            Some(KindRule::Mapped(_)) => {}
            Some(KindRule::Ignored(reason)) => {
                trace.hit("claude.block.ignored");
                return Some(reason);
            }
            None => {
                trace.hit("claude.block.unknown");
                return Some(UNKNOWN_BLOCK);
            }
        }
        match (role, block_type) {
            (Role::Assistant, "text") => {
                let text = block.get("text").and_then(Value::as_str)?;
                trace.hit("claude.block.text-delta");
                self.emit(EventType::Delta, delta_data(text, message_id), subagent_id);
            }
            (Role::Assistant, "thinking") => {
                trace.hit("claude.block.thinking");
                // `block.thinking || block.text`
                let text = or(block.get("thinking"), block.get("text")).and_then(Value::as_str).unwrap_or("");
                self.emit(EventType::Thinking, text_data(text), subagent_id);
            }
            (Role::Assistant, "tool_use" | "server_tool_use" | "mcp_tool_use") => {
                let data = tool_start(block, block_type == "tool_use", trace);
                if data.contains_key("subagent_spawn")
                    && let Some(id) = block.get("id").and_then(Value::as_str)
                {
                    self.sidechains.spawned(id, block.get("input"));
                    self.unstarted_spawns.insert(id.to_owned(), self.out.next_index());
                }
                self.emit(EventType::ToolStart, data, subagent_id);
            }
            (Role::Assistant, _) => {
                trace.hit("claude.block.server-tool-result");
                self.emit(EventType::ToolResult, tool_result(block), subagent_id);
            }
            (Role::User, _) => {
                trace.hit("claude.block.tool-result");
                if let Some(id) = block.get("tool_use_id").and_then(Value::as_str) {
                    self.sidechains.returned(id);
                    if let Some(spawn) = self.unstarted_spawns.remove(id)
                        && input_refused(block)
                    {
                        self.unmark_spawn(spawn, trace);
                    }
                }
                self.emit(EventType::ToolResult, tool_result(block), subagent_id);
            }
        }
        None
    }

    /// `message_start` names the message the following deltas belong to;
    /// `content_block_start` opens a streamed block (with its initial text).
    fn stream_start(&mut self, message: &Map<String, Value>) {
        let event = message.get("event");
        let frame_id = message.get("api_message_id").and_then(Value::as_str).map(str::to_owned);
        if event.and_then(|e| e.get("type")).and_then(Value::as_str) == Some("message_start") {
            let id = event.and_then(|e| e.pointer("/message/id")).and_then(Value::as_str).map(str::to_owned);
            self.streaming_message = id.or(frame_id);
            return;
        }
        let Some(id) = frame_id.or_else(|| self.streaming_message.clone()) else { return };
        let block = event.and_then(|e| e.get("content_block"));
        let (kind, key) = match block.and_then(|b| b.get("type")).and_then(Value::as_str) {
            Some("text") => ("text", "text"),
            Some("thinking") => ("thinking", "thinking"),
            _ => return,
        };
        let text = block.and_then(|b| b.get(key)).and_then(Value::as_str).unwrap_or_default().to_owned();
        let index = crate::suites::js::js_uint(event.and_then(|e| e.get("index")));
        self.streams.entry(id).or_default().push(StreamedBlock { kind, index, text, finished: false });
    }

    /// A `text_delta` → `delta`, a `thinking_delta` → `thinking`, with the
    /// text remembered so that the final block adds only what the deltas
    /// did not carry.
    fn stream_delta(&mut self, kind: String, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        let first = self.out.next_index();
        let event = message.get("event");
        let delta = event.and_then(|e| e.get("delta"));
        let (block_kind, key, event_type) = if kind.ends_with("/text_delta") {
            ("text", "text", EventType::Delta)
        } else {
            ("thinking", "thinking", EventType::Thinking)
        };
        let Some(text) = delta.and_then(|d| d.get(key)).and_then(Value::as_str) else {
            return self.ignore(kind, Cow::Borrowed("a delta without its text string"));
        };
        trace.hit(if block_kind == "text" {
            "claude.stream-event.text-delta"
        } else {
            "claude.stream-event.thinking-delta"
        });
        let id = message.get("api_message_id").and_then(Value::as_str).map(str::to_owned);
        let id = id.or_else(|| self.streaming_message.clone());
        if let Some(id) = id.clone() {
            let index = crate::suites::js::js_uint(event.and_then(|e| e.get("index")));
            let blocks = self.streams.entry(id).or_default();
            let open = blocks
                .iter()
                .rposition(|b| !b.finished && b.kind == block_kind && (index.is_none() || b.index == index));
            match open {
                Some(position) => blocks[position].text.push_str(text),
                None => blocks.push(StreamedBlock { kind: block_kind, index, text: text.to_owned(), finished: false }),
            }
        }
        let subagent_id = non_empty_str(message.get("parent_tool_use_id")).map(str::to_owned);
        if subagent_id.is_some() {
            trace.hit("claude.subagent-id");
        }
        let data = match event_type {
            EventType::Delta => delta_data(text, id.as_deref()),
            _ => text_data(text),
        };
        self.emit(event_type, data, subagent_id.as_deref());
        self.out.settle(kind, first, Cow::Borrowed("no event produced"));
    }

    /// The final `text` / `thinking` block of message `id`: if its tokens
    /// were streamed, what it still has to emit.
    fn finish_streamed(&mut self, id: &str, kind: &str, block: &Value) -> Option<Streamed> {
        let streamed = self.streams.get_mut(id)?.iter_mut().find(|b| !b.finished && b.kind == kind)?;
        streamed.finished = true;
        let key = if kind == "text" { "text" } else { "thinking" };
        let text = block.get(key).and_then(Value::as_str).unwrap_or_default();
        Some(match text.strip_prefix(streamed.text.as_str()) {
            Some("") => Streamed::AlreadyEmitted(STREAMED),
            Some(rest) => Streamed::Remainder(rest.to_owned()),
            None => Streamed::AlreadyEmitted(STREAMED_OTHERWISE),
        })
    }

    /// A `Task` / `Agent` call that never ran: Claude Code refused its input
    /// before starting a sub-agent, and nothing of one followed. Its
    /// `tool_start` loses the spawn marking (`subagent_spawn`,
    /// `subagent_name`): it is a failed tool call, as `claude-display` shows
    /// it, not a sub-agent. The `tool_start` keeps its place in the stream;
    /// an adapter that emits as it reads holds the events that follow a
    /// spawn until its first sub-agent frame or its result.
    fn unmark_spawn(&mut self, spawn: usize, trace: &mut dyn RuleTrace) {
        let Some(event) = self.out.events.get_mut(spawn) else { return };
        event.data.remove("subagent_spawn");
        event.data.remove("subagent_name");
        trace.hit("claude.tool-start.spawn-never-ran");
        trace.emitted(Scope::Items { member: "events", start: spawn, end: spawn + 1 });
    }

    /// Pushes an event, tagging it with the sub-agent it came from.
    fn emit(&mut self, event_type: EventType, mut data: Map<String, Value>, subagent_id: Option<&str>) {
        if let Some(subagent_id) = subagent_id {
            data.insert("subagent_id".to_owned(), Value::from(subagent_id));
        }
        self.out.push(event_type, data);
    }

    /// `result` frames emit nothing themselves: the last successful result
    /// text becomes the one `result` event when the generator completes.
    fn result(&mut self, kind: String, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        let is_error = message.get("is_error") == Some(&Value::Bool(true)) || kind.starts_with("result/error");
        let reason: Cow<'static, str> = if is_error {
            trace.hit("claude.result.error-skipped");
            if kind == "result/success" {
                Cow::Borrowed("an error result (is_error): its text repeats the assistant frame that carried `error`")
            } else {
                let subtype = kind.strip_prefix("result/").unwrap_or(&kind);
                Cow::Owned(format!("the run stopped early ({subtype}); the seed emits no event for result frames"))
            }
        } else if let Some(text) = non_empty_str(message.get("result")) {
            trace.hit("claude.result.final-text");
            if let Some(previous) = self.final_text.take() {
                trace.hit("claude.result.superseded");
                self.set_outcome(previous.disposition, ItemFate::Ignored(Cow::Borrowed(SUPERSEDED)));
            }
            let disposition = self.out.dispositions.len();
            self.final_text = Some(FinalText { disposition, text: text.to_owned() });
            // Settled in `finish`, when it is known whether the run completed.
            Cow::Borrowed("pending: settled when the stream ends")
        } else {
            trace.hit("claude.result.no-text");
            Cow::Borrowed("a result frame without result text")
        };
        self.ignore(kind, reason);
    }

    /// `control_request` `can_use_tool` → `permission_request`.
    fn permission_request(&mut self, kind: String, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        trace.hit("claude.permission.request");
        let request = message.get("request");
        let tool_name = request.and_then(|r| r.get("tool_name")).cloned();
        if let Some(request_id) = message.get("request_id").and_then(Value::as_str) {
            self.permission_prompts.insert(request_id.to_owned(), tool_name.clone());
        }
        let mut data = Map::new();
        put(&mut data, "tool_name", tool_name);
        put(&mut data, "tool_input", request.and_then(|r| r.get("input")).cloned());
        let index = self.out.push(EventType::PermissionRequest, data);
        self.out.record(Disposition { kind, outcome: ItemFate::Events(vec![index]), blocks: None });
    }

    /// The client's `control_response` to a permission prompt →
    /// `permission_resolved`; responses to the client's own requests are
    /// ignored.
    fn control_response(&mut self, kind: String, message: &Map<String, Value>, trace: &mut dyn RuleTrace) {
        let first = self.out.next_index();
        let response = message.get("response");
        let request_id = response.and_then(|r| r.get("request_id")).and_then(Value::as_str);
        let prompt = request_id.and_then(|id| self.permission_prompts.remove(id));
        if let (Some(tool_name), Some(response)) = (prompt, response) {
            trace.hit("claude.permission.resolved");
            let allowed = if response.get("subtype").and_then(Value::as_str) == Some("error") {
                Some(false)
            } else {
                match response.get("response").and_then(|r| r.get("behavior")).and_then(Value::as_str) {
                    Some("allow") => Some(true),
                    Some("deny") => Some(false),
                    _ => None,
                }
            };
            let mut data = Map::new();
            put(&mut data, "tool_name", tool_name);
            put(&mut data, "allowed", allowed.map(Value::Bool));
            self.out.push(EventType::PermissionResolved, data);
        } else {
            trace.hit("claude.control-response.other");
        }
        self.out.settle(kind, first, Cow::Borrowed("answers a control request of the client, not a permission prompt"));
    }
}

/// What a final block whose tokens were streamed still emits.
enum Streamed {
    /// Nothing: the deltas carried it (or disagree with it).
    AlreadyEmitted(&'static str),
    /// The part the deltas did not carry.
    Remainder(String),
}

/// Whether `block` repeats `earlier` (blocks of one message id): the same
/// block, or a tool block with the same id.
fn repeats(earlier: &Value, block: &Value) -> bool {
    if earlier == block {
        return true;
    }
    tool_block_id(block).is_some() && tool_block_id(earlier) == tool_block_id(block)
}

/// The id of a block that opens a tool call.
fn tool_block_id(block: &Value) -> Option<&str> {
    let ty = block.get("type").and_then(Value::as_str).unwrap_or_default();
    if matches!(ty, "tool_use" | "server_tool_use" | "mcp_tool_use") {
        block.get("id").and_then(Value::as_str)
    } else {
        None
    }
}

/// Tools whose `tool_use` spawns a sub-agent: `Task` (seed, and the name
/// `system/init` still lists) and `Agent` (the model-facing name in
/// Claude Code 2.1).
const SUBAGENT_TOOLS: [&str; 2] = ["Task", "Agent"];

/// `tool_use` → `tool_start` with the input's structured fields lifted to
/// the top level, and the sub-agent spawn marker for `Task` / `Agent`.
fn tool_start(block: &Value, client_tool: bool, trace: &mut dyn RuleTrace) -> Map<String, Value> {
    trace.hit(if client_tool { "claude.block.tool-start" } else { "claude.block.server-tool-start" });
    let mut data = Map::new();
    put(&mut data, "tool_use_id", block.get("id").cloned());
    put(&mut data, "tool", block.get("name").cloned());
    let input = block.get("input");
    put(&mut data, "input", input.cloned());
    if let Some(input) = input.and_then(Value::as_object) {
        for (from, to) in
            [("file_path", "file_path"), ("command", "command"), ("pattern", "pattern"), ("path", "search_path")]
        {
            if truthy(input.get(from)) {
                trace.hit("claude.tool-start.input-field");
                put(&mut data, to, input.get(from).cloned());
            }
        }
    }
    let name = block.get("name").and_then(Value::as_str);
    if client_tool && name.is_some_and(|name| SUBAGENT_TOOLS.contains(&name)) {
        trace.hit("claude.tool-start.subagent-spawn");
        data.insert("subagent_spawn".to_owned(), Value::Bool(true));
        // `input.agent || input.description || 'sub-agent'`
        let input = input.and_then(Value::as_object);
        let name = or(input.and_then(|i| i.get("agent")), input.and_then(|i| i.get("description")))
            .cloned()
            .unwrap_or_else(|| Value::from("sub-agent"));
        data.insert("subagent_name".to_owned(), name);
    }
    data
}

/// Whether a `tool_result` is Claude Code's refusal of a call's input
/// (input validation, before the tool ran): a truthy `is_error` and a text
/// (the string content, or its `text` blocks' texts joined with `\n`, as
/// `claude-display` reads an error result) that starts, after leading
/// whitespace, with `<tool_use_error>`.
fn input_refused(block: &Value) -> bool {
    if !truthy(block.get("is_error")) {
        return false;
    }
    let text = match block.get("content") {
        Some(Value::String(text)) => Cow::Borrowed(text.as_str()),
        Some(Value::Array(blocks)) => Cow::Owned(
            blocks
                .iter()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
                .map(|block| block.get("text").and_then(Value::as_str).unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => return false,
    };
    text.trim_start().starts_with("<tool_use_error>")
}

/// `tool_result` → `tool_result` (`is_error: block.is_error || false`).
fn tool_result(block: &Value) -> Map<String, Value> {
    let mut data = Map::new();
    put(&mut data, "tool_use_id", block.get("tool_use_id").cloned());
    put(&mut data, "output", block.get("content").cloned());
    let is_error = or(block.get("is_error"), None).cloned().unwrap_or(Value::Bool(false));
    data.insert("is_error".to_owned(), is_error);
    data
}

/// What a transcript's `user` entry is.
enum UserEntry {
    /// Something the person typed: its text.
    Prompt(String),
    /// CLI machinery written as a user entry.
    Machinery,
    /// Tool results (mapped block by block as in a stream).
    ToolReturn,
}

/// Classifies a transcript's main-thread `user` entry as claude-display's
/// six-row classification does; a prompt's text is its string content, or
/// its text blocks joined with a blank line.
fn transcript_user_entry(message: &Map<String, Value>, content: Option<&Value>) -> UserEntry {
    use crate::suites::claude_display::reference::classification::{Class, Place, classify};
    use crate::suites::claude_display::reference::parts::{block_text, text_block};
    let blocks = match content {
        Some(Value::String(text)) => vec![text_block(text)],
        Some(Value::Array(blocks)) => blocks.clone(),
        _ => return UserEntry::ToolReturn,
    };
    let envelope = Value::Object(message.clone());
    match classify(&envelope, &blocks, Place { in_subagent: false, prompt_seen: false }) {
        Class::UserInput | Class::SubagentPrompt => {
            let texts: Vec<&str> = blocks.iter().filter_map(block_text).collect();
            if texts.is_empty() {
                return UserEntry::ToolReturn;
            }
            UserEntry::Prompt(texts.join("\n\n"))
        }
        Class::ToolReturn => UserEntry::ToolReturn,
        Class::Replay | Class::Machinery { .. } | Class::Notification => UserEntry::Machinery,
    }
}

/// A prompt's content block: its text is the `user_message`; other blocks
/// (an image) are the user's own input, as in a stream.
fn prompt_block_disposition(block: &Value, event: usize) -> BlockDisposition {
    let block_type = block.get("type").and_then(Value::as_str).unwrap_or("(none)").to_owned();
    let outcome = if block_type == "text" {
        ItemFate::Events(vec![event])
    } else {
        ItemFate::Ignored(Cow::Borrowed("the user's own input (text, media, echoed history), not agent output"))
    };
    BlockDisposition { block_type, outcome }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;
    use serde_json::json;

    /// The `tool_start` of a `Task` call whose result is `result`, with
    /// `between` coming between the call and its result.
    fn task_start(between: &[Value], result: Value) -> Map<String, Value> {
        let mut messages = vec![json!({"type": "assistant", "message": {"id": "m1", "content": [
            {"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "scan", "prompt": "scan it"}}
        ]}})];
        messages.extend_from_slice(between);
        messages.push(json!({"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content": result}
        ]}}));
        let mut normalizer = ClaudeNormalizer::new("s");
        normalizer.feed(&messages, &mut NoTrace);
        let output = normalizer.finish(&End::CutOff, &mut NoTrace);
        output.events.into_iter().find(|event| event.event_type == EventType::ToolStart).map(|e| e.data).unwrap()
    }

    #[test]
    fn a_task_refused_by_input_validation_is_no_spawn_unless_its_sub_agent_showed() {
        let refused = "<tool_use_error>InputValidationError: Task failed</tool_use_error>";
        assert!(!task_start(&[], json!(refused)).contains_key("subagent_spawn"));
        assert!(
            !task_start(&[], json!([{"type": "text", "text": format!("  {refused}")}])).contains_key("subagent_name")
        );
        // Another error, or a sub-agent that already showed, keeps the spawn.
        assert!(task_start(&[], json!("Agent type 'x' crashed")).contains_key("subagent_spawn"));
        let prompt = json!({"type": "user", "parent_tool_use_id": "t1", "message": {"content": "scan it"}});
        assert!(task_start(&[prompt], json!(refused)).contains_key("subagent_spawn"));
        let started = json!({"type": "system", "subtype": "task_started", "task_id": "a1", "tool_use_id": "t1"});
        assert!(task_start(&[started], json!(refused)).contains_key("subagent_spawn"));
    }
}
