//! The `codex exec --json` normalizer: one thread event per line in,
//! normalized events out, as an incremental state machine (which tools
//! started, and the error the current turn already reported).

use crate::suite_api::{RuleTrace, Scope};
use crate::suites::agent_events::{
    ALREADY_STARTED, EventType, InvalidItemRules, ItemKind, StreamOutput, ToolTracker, decode_object, delta_data,
    error_data, session_ready_data, thinking_data,
};
use crate::suites::js::non_empty_str;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `codex exec` retries a failed stream itself and says so with `error`
/// events whose message starts like this ("Reconnecting... 2/5 (…)").
pub const RETRY_NOTICE_PREFIX: &str = "Reconnecting...";

/// The rule for a line's `type`: `Some(None)` when it maps to events,
/// `Some(Some(reason))` when it is always ignored, `None` when unknown.
pub fn rule(line_type: &str) -> Option<Option<&'static str>> {
    match line_type {
        "thread.started" | "turn.started" | "turn.completed" | "turn.failed" | "item.started" | "item.completed"
        | "error" => Some(None),
        "item.updated" => Some(Some(ITEM_UPDATED)),
        _ => None,
    }
}

const ITEM_UPDATED: &str = "an intermediate item state; the completed item is mapped";

/// The dotted kind of a line: its `type`, with the item type appended for
/// item events (`item.completed/agent_message`).
pub fn line_kind(line: &Map<String, Value>) -> String {
    let line_type = line.get("type").and_then(Value::as_str).unwrap_or("(no type)");
    if line_type.starts_with("item.") {
        let item_type = line.get("item").and_then(|i| i.get("type")).and_then(Value::as_str).unwrap_or("(none)");
        format!("{line_type}/{item_type}")
    } else {
        line_type.to_owned()
    }
}

/// Normalizes a `codex exec --json` stream. See the module docs.
#[derive(Debug, Default)]
pub struct ExecNormalizer {
    session_id: Option<String>,
    out: StreamOutput,
    tools: ToolTracker,
    turn_error: Option<String>,
}

impl ExecNormalizer {
    /// A normalizer for the adapter session `session_id` (echoed in
    /// `session_ready` when given).
    pub fn new(session_id: Option<String>) -> Self {
        ExecNormalizer { session_id, ..ExecNormalizer::default() }
    }

    /// Feeds the next lines of the stream.
    pub fn feed(&mut self, lines: &[Value], trace: &mut dyn RuleTrace) {
        for raw in lines {
            let before = self.out.lengths();
            self.feed_one(raw, trace);
            self.out.claim_since(before, trace);
        }
    }

    /// Ends the stream and returns everything produced.
    pub fn finish(self) -> StreamOutput {
        self.out
    }

    fn feed_one(&mut self, raw: &Value, trace: &mut dyn RuleTrace) {
        const INVALID: InvalidItemRules =
            InvalidItemRules { not_json: "exec.invalid-line", not_an_object: "exec.not-an-object" };
        let first = self.out.next_index();
        let (kind, reason) = match decode_object(raw, INVALID, trace) {
            Ok(line) => (line_kind(&line), self.line(&line, trace)),
            Err(reason) => ("invalid".to_owned(), reason),
        };
        self.out.settle(kind, first, reason);
    }

    fn line(&mut self, line: &Map<String, Value>, trace: &mut dyn RuleTrace) -> Cow<'static, str> {
        let empty = Map::new();
        let item = line.get("item").and_then(Value::as_object).unwrap_or(&empty);
        match line.get("type").and_then(Value::as_str).unwrap_or("") {
            "thread.started" => match non_empty_str(line.get("thread_id")) {
                Some(thread_id) => {
                    trace.hit("exec.thread-started.session-ready");
                    self.out.push(EventType::SessionReady, session_ready_data(self.session_id.as_deref(), thread_id));
                    Cow::Borrowed("")
                }
                None => Cow::Borrowed("a thread.started without a thread_id"),
            },
            "turn.started" => {
                trace.hit("exec.turn-started.thinking");
                self.turn_error = None;
                self.out.push(EventType::Thinking, thinking_data("", Some(false)));
                Cow::Borrowed("")
            }
            "turn.completed" => {
                trace.hit("exec.turn-completed.done");
                self.out.push(EventType::Done, Map::new());
                Cow::Borrowed("")
            }
            "turn.failed" => {
                let message = line.get("error").and_then(|e| e.get("message")).and_then(Value::as_str);
                match message {
                    Some(message) if self.turn_error.as_deref() != Some(message) => {
                        trace.hit("exec.turn-failed.error");
                        let (event, disposition) = self.out.lengths();
                        self.out.push(EventType::Error, error_data(message, None));
                        // Provenance: the error event is this rule's alone
                        // (the `done` after it is the next rule's).
                        trace.emitted(Scope::Items { member: "events", start: event, end: event + 1 });
                        trace.also(Scope::Items { member: "dispositions", start: disposition, end: disposition + 1 });
                    }
                    Some(_) => trace.hit("exec.turn-failed.error-already-reported"),
                    None => {}
                }
                trace.hit("exec.turn-failed.done");
                self.out.push(EventType::Done, Map::new());
                Cow::Borrowed("")
            }
            "error" => match line.get("message").and_then(Value::as_str) {
                Some(message) if message.starts_with(RETRY_NOTICE_PREFIX) => {
                    trace.hit("exec.error.retry-notice");
                    Cow::Borrowed("a retry notice; codex exec retries by itself")
                }
                Some(message) => {
                    trace.hit("exec.error.emitted");
                    self.turn_error = Some(message.to_owned());
                    self.out.push(EventType::Error, error_data(message, None));
                    Cow::Borrowed("")
                }
                None => Cow::Borrowed("an error event without a message"),
            },
            "item.started" => self.item(false, item, trace),
            "item.completed" => self.item(true, item, trace),
            other => match rule(other) {
                Some(Some(reason)) => {
                    trace.hit("exec.type.ignored");
                    Cow::Borrowed(reason)
                }
                _ => {
                    trace.hit("exec.type.unknown");
                    Cow::Borrowed("unknown event type; no rule maps or ignores it")
                }
            },
        }
    }

    fn item(&mut self, completed: bool, item: &Map<String, Value>, trace: &mut dyn RuleTrace) -> Cow<'static, str> {
        let kind = ItemKind::parse(item.get("type").and_then(Value::as_str).unwrap_or(""));
        match kind {
            ItemKind::Reasoning if !completed => {
                trace.hit("exec.reasoning.started");
                self.out.push(EventType::Thinking, thinking_data("", Some(false)));
                Cow::Borrowed("")
            }
            ItemKind::Reasoning => {
                trace.hit("exec.reasoning.thinking");
                let text = item.get("text").and_then(Value::as_str).unwrap_or("");
                self.out.push(EventType::Thinking, thinking_data(text, None));
                Cow::Borrowed("")
            }
            ItemKind::AgentMessage if !completed => Cow::Borrowed("agent text is mapped from item.completed"),
            ItemKind::AgentMessage => match item.get("text").and_then(Value::as_str) {
                Some(text) => {
                    trace.hit("exec.agent-message.delta");
                    let item_id = item.get("id").and_then(Value::as_str);
                    self.out.push(EventType::Delta, delta_data(text, item_id));
                    Cow::Borrowed("")
                }
                None => Cow::Borrowed("an agent message without text"),
            },
            ItemKind::FunctionCall | ItemKind::FunctionCallOutput if !completed => {
                Cow::Borrowed("function calls are mapped from their item.completed")
            }
            ItemKind::TodoList => Cow::Borrowed("a to-do list; no event in the normalized model"),
            ItemKind::Error => Cow::Borrowed(
                "codex exec 0.171 reports non-fatal warnings as error items (e.g. an unrecognized config key); \
                 fatal errors arrive as `error` and `turn.failed`",
            ),
            ItemKind::UserMessage => Cow::Borrowed("the user's own message"),
            ItemKind::Plan | ItemKind::Other(_) => Cow::Borrowed("no event in the normalized model"),
            ItemKind::Unknown => {
                trace.hit("exec.item.unknown");
                Cow::Borrowed("unknown item type")
            }
            _ => match self.tools.item_events(completed, kind, item, trace) {
                Some(events) => {
                    for (event_type, data) in events {
                        self.out.push(event_type, data);
                    }
                    Cow::Borrowed(ALREADY_STARTED)
                }
                None => Cow::Borrowed("unknown item type"),
            },
        }
    }
}
