//! CodexAgent cards (chat-reduce §6): `agent-run-start`, `agent-run-update`
//! and `agent-run-trace` events build and update one tool card per
//! background agent, with card-id resolution, fallback merges, orphan
//! removal and trace children.

use super::timeline::{Shared, Timeline, reduce_timeline, title_map};
use super::tools::Seed;
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::blocks::{ToolCard, ToolState};
use crate::suites::chat::reference::fast_map::{FastMap, FastSet};
use crate::suites::chat::reference::model::{
    AgentItem, BlockId, Content, Event, NormalizedMessage, TextItem, ToolCall, ToolResult,
};
use crate::suites::chat::reference::verbatim::deep_clone;
use crate::suites::js::{collapse_whitespace, entries, get, is_obj, locale_compare, sort_by, str_of, string, truthy};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

/// The three agent-run event kinds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RunKind {
    Start,
    Update,
    Trace,
}

/// Values read from one agent-run event.
struct RunEvent<'e> {
    value: &'e Value,
    /// The agentId the event names: `agentId` when it is a string (`""`
    /// included), else `agent_id` when it is a string. Written into the
    /// card's input as it is (null when there is none).
    named_agent_id: Option<&'e str>,
    /// The agentId decisions use (which card, whether there is an agent):
    /// the named one when it is not empty.
    agent_id: Option<&'e str>,
    status: &'e str,
    status_text: Option<&'e str>,
    activity_kind: Option<&'e str>,
}

impl<'e> RunEvent<'e> {
    fn read(value: &'e Value) -> Self {
        let first_string = |keys: [&str; 2]| keys.iter().find_map(|key| str_of(get(value, key)));
        let named_agent_id = str_of(get(value, "agentId")).or_else(|| str_of(get(value, "agent_id")));
        RunEvent {
            value,
            named_agent_id,
            agent_id: named_agent_id.filter(|id| !id.is_empty()),
            status: str_of(get(value, "status")).unwrap_or("running"),
            status_text: first_string(["statusText", "status_text"]),
            activity_kind: first_string(["activityKind", "activity_kind"]),
        }
    }

    fn member(&self, key: &str) -> Option<&'e Value> {
        get(self.value, key)
    }

    /// `status` → card state.
    fn state(&self) -> ToolState {
        match self.status {
            "completed" => ToolState::Completed,
            "failed" | "error" | "canceled" | "cancelled" | "notFound" | "not_found" => ToolState::Error,
            "pending" => ToolState::Pending,
            _ => ToolState::Running,
        }
    }

    fn is_tool_only(&self) -> bool {
        matches!(self.activity_kind, Some("wait_agent" | "send_input" | "resume_agent" | "close_agent" | "not_found"))
            || matches!(self.status, "notFound" | "not_found")
    }

    fn is_close_cleanup(&self) -> bool {
        match self.activity_kind {
            Some("close_agent" | "closed") => true,
            Some("canceled") => {
                let closed = str_of(self.member("activity")) == Some("Closed") || self.status_text == Some("Closed");
                let previous_status = self
                    .member("result")
                    .filter(|r| r.is_object())
                    .and_then(|r| get(r, "previous_status").or_else(|| get(r, "previousStatus")))
                    .is_some_and(is_obj);
                closed && previous_status
            }
            _ => false,
        }
    }

    /// `summary`, `activity` and `activityKind`, each when a non-empty string.
    fn display_keys(&self) -> Vec<(&'static str, Option<Value>)> {
        let non_empty = |value: Option<&str>| value.filter(|s| !s.is_empty()).map(string);
        let mut keys = Vec::new();
        if let Some(summary) = non_empty(str_of(self.member("summary"))) {
            keys.push(("summary", Some(summary)));
        }
        if let Some(activity) = non_empty(str_of(self.member("activity"))) {
            keys.push(("activity", Some(activity)));
        }
        if let Some(kind) = non_empty(self.activity_kind) {
            keys.push(("activityKind", Some(kind)));
        }
        keys
    }

    /// The card fingerprint of a start event without an agentId.
    fn fingerprint(&self) -> Option<String> {
        if let Some(summary) = str_of(self.member("summary")).filter(|s| !s.is_empty()) {
            return Some(summary.to_owned());
        }
        let input = self.member("input");
        let text = ["message", "prompt"]
            .iter()
            .find_map(|key| str_of(input.and_then(|i| get(i, key))).filter(|s| !s.is_empty()));
        let collapsed = match text {
            Some(text) => collapse_whitespace(text),
            None => match input.and_then(|i| get(i, "items")) {
                Some(Value::Array(items)) => {
                    let texts: Vec<&str> = items.iter().filter_map(|item| str_of(get(item, "text"))).collect();
                    collapse_whitespace(&texts.join("\n\n"))
                }
                _ => String::new(),
            },
        };
        (!collapsed.is_empty()).then_some(collapsed)
    }
}

impl<'a> Timeline<'a> {
    /// Applies one agent-run event (§6).
    pub(super) fn agent_run(
        &mut self,
        message: &NormalizedMessage<'a>,
        event: &Event<'a>,
        kind: &str,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        let kind = match kind {
            "agent-run-start" => RunKind::Start,
            "agent-run-update" => RunKind::Update,
            _ => RunKind::Trace,
        };
        // Agent-run events are copied from the wire, so they borrow the input.
        let Cow::Borrowed(value) = event.value else { return };
        let run = RunEvent::read(value);
        let fallback = match run.agent_id {
            Some(agent) => format!("codex-agent:{agent}"),
            None => message.id.to_string(),
        };
        // A string cardId is the raw id even when it is empty.
        let raw = ["cardId", "card_id"]
            .iter()
            .find_map(|key| str_of(run.member(key)))
            .map_or_else(|| fallback.clone(), str::to_owned);
        // A previous card recorded under the id "" counts as none.
        let previous = run.agent_id.and_then(|agent| self.agents.get(agent)).filter(|id| !id.is_empty()).cloned();
        let had_previous = previous.is_some();
        let chosen = match &previous {
            Some(previous) if *previous != fallback && raw == fallback => previous.clone(),
            _ => raw.clone(),
        };
        let merge_from = previous.filter(|p| *p == fallback && *p != chosen && raw != fallback);

        if kind == RunKind::Update && run.agent_id.is_some() && !had_previous && raw == fallback && run.is_tool_only() {
            shared.trace.hit("reduce.agent-run.tool-only-update-skipped");
            return;
        }
        if kind == RunKind::Start
            && run.agent_id.is_none()
            && let Some(fingerprint) = run.fingerprint()
        {
            if let Some(earlier) = self.fingerprints.get(&fingerprint).filter(|id| !id.is_empty()).cloned()
                && earlier != chosen
                && self.is_orphan_card(&earlier)
            {
                shared.trace.hit("reduce.agent-run.orphan-removed");
                self.remove_card(&earlier);
            }
            self.fingerprints.insert(fingerprint, chosen.clone());
        }

        shared.trace.hit(match kind {
            RunKind::Start => "reduce.agent-run.start",
            RunKind::Update => "reduce.agent-run.update",
            RunKind::Trace => "reduce.agent-run.trace",
        });
        let seed = Seed {
            name: Cow::Borrowed("CodexAgent"),
            input: run.member("input").map(Cow::Borrowed),
            progress: None,
            permission: None,
            local_id: message.local_id,
            created_at: message.created_at,
            invoked_at: message.invoked_at,
        };
        let created = !self.tools.contains_key(chosen.as_str());
        let pos = self.upsert(Cow::Owned(chosen.clone()), seed, shared.trace);
        // The card id is the message id itself when the event names neither
        // a card nor an agent: a message id that is not a string stays the
        // value it is (`7`, not `"7"`), as JavaScript copies it.
        if created
            && run.agent_id.is_none()
            && raw == fallback
            && !matches!(message.block_id, BlockId::Text(_))
            && let Some(block) = self.block_mut(pos)
        {
            shared.trace.hit("reduce.agent-run.message-id-card-as-is");
            block.id = message.block_id.clone();
        }
        if let Some(previous) = merge_from {
            shared.trace.hit("reduce.agent-run.fallback-merged");
            self.merge_cards(&previous, &chosen, shared);
        }
        if let Some(agent) = run.agent_id {
            self.agents.insert(agent.to_owned(), chosen.clone());
        }
        let Some(&pos) = self.tools.get(chosen.as_str()) else { return };
        match kind {
            RunKind::Start => {
                let mut patch = vec![
                    ("agentId", Some(run.named_agent_id.map_or(Value::Null, string))),
                    ("agentStatus", Some(string(run.status))),
                    ("statusText", Some(string(run.status_text.unwrap_or("Starting")))),
                ];
                patch.extend(run.display_keys());
                if let Some(card) = self.card_mut(pos) {
                    patch_input(card, patch, shared.trace);
                    card.state = run.state();
                }
            }
            RunKind::Update => {
                let Some(card) = self.card_mut(pos) else { return };
                let ignored = card.state.is_terminal()
                    && ((!run.state().is_terminal()
                        && matches!(run.activity_kind, Some("wait_agent" | "close_agent")))
                        || (!matches!(run.status, "failed" | "error") && run.is_close_cleanup()));
                if ignored {
                    shared.trace.hit("reduce.agent-run.update-ignored");
                    return;
                }
                let mut patch = vec![
                    ("agentId", Some(run.named_agent_id.map_or(Value::Null, string))),
                    ("agentStatus", Some(string(run.status))),
                    ("statusText", Some(string(run.status_text.unwrap_or(run.status)))),
                ];
                patch.extend(run.display_keys());
                patch_input(card, patch, shared.trace);
                card.state = run.state();
                if let Some(result) = ["result", "error", "spawnResult"].iter().find_map(|key| run.member(key)) {
                    shared.trace.hit("reduce.agent-run.result");
                    card.result = Some(Cow::Borrowed(result));
                }
            }
            RunKind::Trace => {
                let Some(agent) = run.agent_id else { return };
                let converted = convert_trace(message, agent, run.member("message"));
                let Some(card) = self.card_mut(pos) else { return };
                let terminal = card.state.is_terminal();
                let mut patch =
                    vec![("agentId", Some(string(agent))), ("agentStatus", Some(string(card.state.as_str())))];
                patch.extend(run.display_keys());
                if !terminal {
                    patch.push(("statusText", Some(string(run.status_text.unwrap_or("Running")))));
                }
                patch_input(card, patch, shared.trace);
                if let Some(trace_message) = converted {
                    shared.trace.hit("reduce.agent-run.trace-child");
                    card.traces.push(trace_message);
                }
                rebuild_children(card, shared);
                if !terminal {
                    card.state = ToolState::Running;
                }
            }
        }
    }

    fn is_orphan_card(&self, id: &str) -> bool {
        let Some(card) =
            self.tools.get(id).and_then(|&pos| self.blocks.get(pos)).and_then(Option::as_ref).and_then(|b| b.tool())
        else {
            return false;
        };
        let has_agent = card.input.as_deref().is_some_and(|input| {
            ["agentId", "agent_id"].iter().any(|key| str_of(get(input, key)).is_some_and(|s| !s.is_empty()))
        });
        card.children.is_empty() && card.result.is_none() && !card.state.is_terminal() && !has_agent
    }

    fn remove_card(&mut self, id: &str) -> Option<crate::suites::chat::reference::blocks::Block<'a>> {
        let pos = self.tools.remove(id)?;
        self.blocks.get_mut(pos).and_then(Option::take)
    }

    /// Merges the card recorded under an agent's fallback id into the card
    /// the agent now reports (§6 step 4).
    fn merge_cards(&mut self, previous: &str, chosen: &str, shared: &mut Shared<'a, '_, '_>) {
        let Some(&chosen_pos) = self.tools.get(chosen) else { return };
        if chosen_pos == self.tools.get(previous).copied().unwrap_or(usize::MAX) {
            return;
        }
        let Some(removed) = self.remove_card(previous) else { return };
        let previous_created_at = removed.created_at;
        let crate::suites::chat::reference::blocks::Body::ToolCall(previous_card) = removed.body else { return };
        let Some(block) = self.block_mut(chosen_pos) else { return };
        block.created_at = block.created_at.min(previous_created_at);
        let Some(card) = block.tool_mut() else { return };
        let mut merged = Map::new();
        for input in [previous_card.input.as_deref(), card.input.as_deref()].into_iter().flatten() {
            if is_obj(input) {
                for (key, value) in entries(input) {
                    merged.insert(key.into_owned(), deep_clone(value));
                }
            }
        }
        card.input = Some(Cow::Owned(Value::Object(merged)));
        if !card.state.is_terminal() && previous_card.state.is_terminal() {
            card.state = previous_card.state;
        }
        if card.result.is_none() {
            card.result = previous_card.result;
        }
        if card.traces.is_empty() && previous_card.traces.is_empty() {
            if card.children.is_empty() {
                card.children = previous_card.children;
            }
        } else {
            let mut traces = previous_card.traces;
            traces.append(&mut card.traces);
            card.traces = sort_by(traces, |a, b| {
                // `a.createdAt - b.createdAt || a.id.localeCompare(b.id)`: a NaN difference is a tie.
                let difference = a.created_at.to_number() - b.created_at.to_number();
                match difference.partial_cmp(&0.0) {
                    Some(Ordering::Less) => Ordering::Less,
                    Some(Ordering::Greater) => Ordering::Greater,
                    _ => locale_compare(&a.id, &b.id),
                }
            });
            rebuild_children(card, shared);
        }
        for target in self.fingerprints.values_mut().chain(self.agents.values_mut()) {
            if target == previous {
                *target = chosen.to_owned();
            }
        }
    }
}

/// Shallow-merges `patch` over the card's input (or makes it the input):
/// `{...input, ...patch}` when the input is an object, an array included
/// (JavaScript's spread makes its indices members: `{"0": …, "1": …}`),
/// in property order. A key without a value removes the member, as an
/// `undefined` would.
fn patch_input(card: &mut ToolCard<'_>, patch: Vec<(&str, Option<Value>)>, trace: &mut dyn RuleTrace) {
    let mut input = match card.input.as_deref() {
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), deep_clone(v))).collect(),
        Some(items @ Value::Array(_)) => {
            trace.hit("reduce.agent-run.array-input-spread");
            entries(items).into_iter().map(|(k, v)| (k.into_owned(), deep_clone(v))).collect()
        }
        _ => Map::new(),
    };
    for (key, value) in patch {
        match value {
            Some(value) => {
                input.insert(key.to_owned(), value);
            }
            None => {
                input.shift_remove(key);
            }
        }
    }
    card.input = Some(Cow::Owned(Value::Object(input)));
}

/// Rebuilds a CodexAgent card's children from its traces: a fresh timeline
/// with the shared permission table, no groups and fresh title state.
fn rebuild_children<'a>(card: &mut ToolCard<'a>, shared: &mut Shared<'a, '_, '_>) {
    let traces = std::mem::take(&mut card.traces);
    {
        let refs: Vec<&NormalizedMessage<'a>> = traces.iter().collect();
        let titles = title_map(traces.iter());
        let groups = FastMap::default();
        let mut fresh = Shared {
            table: shared.table,
            groups: &groups,
            consumed: FastSet::default(),
            titles: &titles,
            emitted_titles: FastSet::default(),
            options: shared.options,
            trace: &mut *shared.trace,
        };
        card.children = reduce_timeline(&refs, &mut fresh).0;
    }
    card.traces = traces;
}

/// Converts an agent-run trace message into a normalized message (§6,
/// "Trace conversion").
fn convert_trace<'a>(
    event_message: &NormalizedMessage<'a>,
    agent: &str,
    value: Option<&'a Value>,
) -> Option<NormalizedMessage<'a>> {
    let value = value.filter(|v| is_obj(v))?;
    let kind = str_of(get(value, "type"))?;
    let prefix = format!("codex-agent:{agent}:");
    let scoped = |label: &str, id: &str| -> String {
        if id.starts_with(&prefix) { id.to_owned() } else { format!("{prefix}{label}:{id}") }
    };
    let trace_id = match str_of(get(value, "id")) {
        Some(id) => scoped("trace", id),
        None => scoped("trace", &format!("{}:trace", event_message.id)),
    };
    let id: Cow<'a, str> = Cow::Owned(trace_id.clone());
    let text_item = |text: &'a str, stream: Option<String>| TextItem {
        text: Cow::Borrowed(text),
        uuid: id.clone(),
        parent_uuid: None,
        stream_id: stream.map(Cow::Owned),
    };
    let message_text = str_of(get(value, "message"));
    let call_id = str_of(get(value, "callId"));
    let content = match (kind, message_text, call_id) {
        ("error", Some(text), _) => {
            Content::Event(Event::built(vec![("type", string("error")), ("message", string(text))]))
        }
        ("message", Some(text), _) => Content::Agent(vec![AgentItem::Text(text_item(text, None))]),
        ("reasoning", Some(text), _) => {
            Content::Agent(vec![AgentItem::Reasoning(text_item(text, Some(trace_id.clone())))])
        }
        ("tool-call", _, Some(call)) => Content::Agent(vec![AgentItem::ToolCall(ToolCall {
            id: Cow::Owned(scoped("call", call)),
            name: Cow::Borrowed(str_of(get(value, "name")).unwrap_or("unknown")),
            input: get(value, "input").map(Cow::Borrowed),
            description: None,
            native_title: None,
            native_kind: None,
            progress: None,
            uuid: id.clone(),
            parent_uuid: None,
        })]),
        ("tool-call-result", _, Some(call)) => Content::Agent(vec![AgentItem::ToolResult(ToolResult {
            tool_use_id: Cow::Owned(scoped("call", call)),
            content: get(value, "output").map(Cow::Borrowed),
            is_error: truthy(get(value, "is_error")),
            uuid: id.clone(),
            parent_uuid: None,
            permissions: None,
        })]),
        ("token_count", _, _) => return None,
        ("ready" | "task_complete", _, _) => {
            Content::Event(Event::built(vec![("type", string("ready")), ("agentId", string(agent))]))
        }
        _ => {
            let text = str_of(get(value, "statusText")).or_else(|| str_of(get(value, "status"))).unwrap_or(kind);
            Content::Event(Event::built(vec![("type", string("message")), ("message", string(text))]))
        }
    };
    // chat-reduce §6: a trace message has a null `localId`.
    Some(NormalizedMessage::new(
        id,
        Some(&crate::suites::chat::reference::model::NULL),
        event_message.created_at,
        content,
    ))
}
