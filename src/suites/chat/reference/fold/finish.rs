//! Root-only finishing steps (chat-reduce §7), in order: synthesized
//! pending-permission cards, api-error folding, adjacent event dedupe and the
//! silent goal filter (which also runs inside tool-call children).

use super::permissions::PermissionTable;
use super::text::is_goal_status_line;
use crate::json::{Style, write_value};
use crate::suite_api::{RuleTrace, Scope};
use crate::suites::chat::reference::blocks::{Block, Body, ToolCard, ToolState};
use crate::suites::chat::reference::fast_map::FastSet;
use crate::suites::chat::reference::model::{AgentItem, BlockId, Event, EventOrigin, NormalizedMessage, Stamp};
use crate::suites::js::{get, loose_less_than, number, trim};
use serde_json::Value;
use std::borrow::Cow;

/// Appends a pending card for every still-pending request that no tool call
/// or result mentions (§7.1). `oldest` is the smallest createdAt among all
/// normalized messages (`Math.min`, so NaN when one is not a number); `now`
/// is the wall clock in epoch milliseconds.
///
/// Only an absent or null `createdAt` is replaced by the wall clock. Any
/// other value stays, is compared with `oldest` by JavaScript's loose `<`
/// (`""`, `" "`, `[]` and `false` are 0, `true` is 1, `{}` is NaN and never
/// older) and goes into the card as it is.
pub(super) fn synthesize_pending_cards<'a>(
    blocks: &mut Vec<Block<'a>>,
    table: &PermissionTable<'a>,
    messages: &[NormalizedMessage<'_>],
    oldest: Option<f64>,
    now: impl Fn() -> f64,
    trace: &mut dyn RuleTrace,
) {
    if !table.entries.iter().any(|entry| entry.permission.status_str() == Some("pending")) {
        return;
    }
    // A tool call or result anywhere, in any lane, suppresses the card.
    let tool_ids: FastSet<&str> = messages
        .iter()
        .flat_map(NormalizedMessage::agent_items)
        .filter_map(|item| match item {
            AgentItem::ToolCall(call) => Some(&*call.id),
            AgentItem::ToolResult(result) => Some(&*result.tool_use_id),
            _ => None,
        })
        .collect();
    let root_cards: FastSet<String> =
        blocks.iter().filter(|b| b.tool().is_some()).map(|b| b.id.text().into_owned()).collect();
    for entry in &table.entries {
        if entry.permission.status_str() != Some("pending") {
            continue;
        }
        if tool_ids.contains(&*entry.id) || root_cards.contains(&*entry.id) {
            if entry.id != entry.key {
                trace.hit("v2.p4.tool-call-in-transcript-no-card");
            }
            trace.emitted(Scope::Id(&entry.id));
            continue;
        }
        let created_at = match entry.created_at {
            Some(created_at) => {
                if !created_at.is_number() {
                    trace.hit("reduce.permission.synthesized-time-not-a-number");
                }
                Stamp::of(Some(created_at))
            }
            None => {
                trace.hit("reduce.permission.synthesized-wall-clock");
                Stamp::Number(now())
            }
        };
        trace.emitted(Scope::IdMember(&entry.id, "createdAt"));
        let older = |oldest: f64| match created_at {
            Stamp::Wire(value) => loose_less_than(Some(value), Some(&number(oldest))),
            stamp => stamp.to_number() < oldest,
        };
        if oldest.is_some_and(older) {
            trace.hit("reduce.permission.synthesized-too-old");
            trace.emitted(Scope::Pointer("/blocks"));
            continue;
        }
        trace.hit("reduce.permission.synthesized-pending");
        if entry.id != entry.key {
            // The card takes the correlation id (v2.md P4); the key is internal (P5).
            trace.hit("v2.p4.card-keyed-by-tool-call-id");
            trace.hit("v2.p5.request-key-not-projected");
        }
        let card = ToolCard {
            name: Cow::Borrowed(entry.tool.unwrap_or("Tool")),
            state: ToolState::Pending,
            input: entry.arguments.map(Cow::Borrowed),
            result: None,
            permission: Some(entry.permission.to_permission()),
            children: Vec::new(),
            traces: Vec::new(),
        };
        blocks.push(Block {
            id: BlockId::Text(entry.id.clone()),
            // chat-reduce §7.1: `localId` null.
            local_id: Some(&crate::suites::chat::reference::model::NULL),
            created_at,
            invoked_at: None,
            body: Body::ToolCall(Box::new(card)),
        });
        trace.emitted(Scope::Id(&entry.id));
    }
}

fn is_api_error(block: &Block<'_>) -> bool {
    block.event().and_then(Event::kind) == Some("api-error")
}

/// An api-error directly after another replaces it (§7.2): the newer id,
/// createdAt and event win; the rest of the earlier block stays.
pub(super) fn fold_api_errors<'a>(blocks: Vec<Block<'a>>, trace: &mut dyn RuleTrace) -> Vec<Block<'a>> {
    let mut out: Vec<Block<'a>> = Vec::with_capacity(blocks.len());
    for block in blocks {
        if is_api_error(&block)
            && let Some(previous) = out.last_mut().filter(|previous| is_api_error(previous))
        {
            trace.hit("reduce.fold.api-error");
            previous.id = block.id;
            previous.created_at = block.created_at;
            previous.body = block.body;
            continue;
        }
        out.push(block);
    }
    out
}

/// The dedupe key of the last kept event (§7.3).
enum PreviousKey {
    /// No event since the last non-event block.
    Nothing,
    /// `title-changed:` + trimmed title.
    Title(String),
    /// `message:` + trimmed message.
    Message(String),
    /// `error:` + trimmed message.
    Error(String),
    /// `event:` + the JSON text of the kept block at this position (computed
    /// only when the next block needs it: adjacent events are rare).
    Other(usize),
}

/// Drops adjacent duplicate events (§7.3).
pub(super) fn dedupe_events<'a>(blocks: Vec<Block<'a>>, trace: &mut dyn RuleTrace) -> Vec<Block<'a>> {
    let mut out: Vec<Block<'a>> = Vec::with_capacity(blocks.len());
    let mut previous_key = PreviousKey::Nothing;
    let mut previous_title: Option<String> = None;
    for block in blocks {
        let Some(event) = block.event() else {
            previous_key = PreviousKey::Nothing;
            previous_title = None;
            out.push(block);
            continue;
        };
        let text_member = |key| get(&event.value, key).and_then(Value::as_str);
        match (event.kind(), text_member("title"), text_member("message")) {
            (Some("title-changed"), Some(title), _) => {
                let title = trim(title);
                if matches!(&previous_key, PreviousKey::Title(previous) if previous == title) {
                    trace.hit("reduce.dedupe.title");
                    continue;
                }
                previous_key = PreviousKey::Title(title.to_owned());
                previous_title = Some(title.to_owned());
            }
            (Some("message"), _, Some(message)) => {
                let message = trim(message);
                if matches!(&previous_key, PreviousKey::Message(previous) if previous == message) {
                    trace.hit("reduce.dedupe.message");
                    continue;
                }
                if previous_title.as_deref().is_some_and(|title| !title.is_empty() && title == message) {
                    trace.hit("reduce.dedupe.message-equals-title");
                    continue;
                }
                previous_key = PreviousKey::Message(message.to_owned());
                previous_title = None;
            }
            (Some("error"), _, Some(message)) => {
                let message = trim(message);
                if matches!(&previous_key, PreviousKey::Error(previous) if previous == message) {
                    trace.hit("reduce.dedupe.error");
                    continue;
                }
                previous_key = PreviousKey::Error(message.to_owned());
                previous_title = None;
            }
            _ => {
                if let PreviousKey::Other(index) = previous_key
                    && let Some(previous) = out.get(index).and_then(Block::event)
                    && event_key_text(previous) == event_key_text(event)
                {
                    trace.hit("reduce.dedupe.event");
                    continue;
                }
                previous_key = PreviousKey::Other(out.len());
                previous_title = None;
            }
        }
        out.push(block);
    }
    out
}

/// Removes goal events and goal status lines, here and in every tool card's
/// children (§7.4).
pub(super) fn filter_goal_events(blocks: &mut Vec<Block<'_>>, trace: &mut dyn RuleTrace) {
    blocks.retain(|block| {
        let Some(event) = block.event() else { return true };
        let silent = match event.kind() {
            Some("thread-goal-updated" | "thread-goal-cleared") => true,
            Some("message") => {
                event.value.get("message").and_then(Value::as_str).is_some_and(|m| is_goal_status_line(trim(m)))
            }
            _ => false,
        };
        if silent {
            trace.hit("reduce.goal-filter.removed");
        }
        !silent
    });
    for block in blocks.iter_mut() {
        if let Some(card) = block.tool_mut()
            && !card.children.is_empty()
        {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || filter_goal_events(&mut card.children, trace));
        }
    }
}

/// `JSON.stringify(event)` as the original would see it: wire events come
/// from key-sorted input; built events list their members in construction
/// order (their nested wire values are stored sorted).
fn event_key_text(event: &Event<'_>) -> String {
    let style = match event.origin {
        EventOrigin::Wire => Style::CANONICAL_COMPACT,
        EventOrigin::Built => Style::STRINGIFY_COMPACT,
    };
    write_value(&event.value, style)
}
