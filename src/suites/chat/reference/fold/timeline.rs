//! Timeline reduction (chat-reduce §4): one pass over a lane's messages that
//! emits blocks, upserts tool cards and reduces subagent groups into their
//! spawning card's children. The root lane and every subagent group use the
//! same procedure with the shared context.

use super::permissions::{PermissionSeed, PermissionTable, TableEntry};
use super::text::{has_cli_tag, is_no_response_sentinel, task_notification_summary, usage_limit_event};
use super::tools::Seed;
use crate::suite_api::{RuleTrace, Scope};
use crate::suites::chat::reference::blocks::{Block, Body, ToolState, is_subagent_name};
use crate::suites::chat::reference::fast_map::{FastMap, FastSet};
use crate::suites::chat::reference::model::{
    AgentItem, BlockId, Content, Event, GeneratedImage, NormalizedMessage, TextItem, ToolCall, ToolResult, UserText,
};
use crate::suites::chat::reference::options::ChatOptions;
use crate::suites::js::{get, is_blank, str_of, string, trim};
use serde_json::Value;
use std::borrow::Cow;

/// Tool names whose calls change the session title instead of making a card.
pub(super) fn is_title_tool(name: &str) -> bool {
    matches!(name, "mcp__hapi__change_title" | "hapi__change_title")
}

/// `<message id>:<index>`, the id of a block made from one content item.
fn item_block_id(message_id: &str, index: usize) -> String {
    let mut id = String::with_capacity(message_id.len() + 4);
    id.push_str(message_id);
    id.push(':');
    id.push_str(itoa(index).as_str());
    id
}

/// A small decimal formatter (item indexes are short) without `fmt`.
fn itoa(mut value: usize) -> ArrayString {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    ArrayString { digits, start: at }
}

/// The digits [`itoa`] produced.
struct ArrayString {
    digits: [u8; 20],
    start: usize,
}

impl ArrayString {
    fn as_str(&self) -> &str {
        // Only ASCII digits are ever written.
        std::str::from_utf8(&self.digits[self.start..]).unwrap_or_default()
    }
}

/// What the text rules of §4.4 need to know about the item's message.
pub(super) struct TextContext<'p> {
    /// How many content items the message has (the sentinel skip).
    item_count: usize,
    /// The message's task prompt (the prompt-echo skip).
    task_prompt: Option<&'p str>,
    /// The timeline's injected-turn uuids (the sentinel skip).
    injected: &'p FastSet<&'p str>,
}

/// The stream identity of a text or reasoning item: any non-empty stream id
/// in version 1; in version 2 only one with a character outside the WS set,
/// a blank id behaving like a missing one (v2.md S1).
fn stream_identity<'s>(
    stream_id: Option<&'s str>,
    options: &ChatOptions,
    trace: &mut dyn RuleTrace,
) -> Option<&'s str> {
    let stream_id = stream_id.filter(|id| !id.is_empty())?;
    if options.codex_stream_identities && is_blank(stream_id) {
        trace.hit("v2.s1.blank-stream-id-is-none");
        return None;
    }
    Some(stream_id)
}

/// The id of a new agent-text or agent-reasoning block: `<messageId>:<i>`,
/// except, in version 2, a stream identity that starts with `codex:`, which
/// is the block id verbatim (v2.md S2; `codex-agent:` trace ids keep their
/// row-derived ids, S3).
fn new_block_id<'a>(
    stream: Option<&str>,
    item_id: impl Fn() -> Cow<'a, str>,
    options: &ChatOptions,
    trace: &mut dyn RuleTrace,
) -> Cow<'a, str> {
    match stream {
        Some(stream) if options.codex_stream_identities && stream.starts_with(CODEX_STREAM_PREFIX) => {
            trace.hit("v2.s2.codex-stream-identity-is-block-id");
            Cow::Owned(stream.to_owned())
        }
        Some(stream) if options.codex_stream_identities && stream.starts_with("codex-agent:") => {
            trace.hit("v2.s3.agent-run-trace-ids-row-derived");
            item_id()
        }
        _ => item_id(),
    }
}

/// Notes what a version 2 permission-table entry did when it attached:
/// correlated by `toolCallId` (the request key then correlates with nothing
/// and is not projected, v2.md P3, P5), or a `resolved` permission (P6).
fn correlated(entry: &TableEntry<'_>, trace: &mut dyn RuleTrace) {
    if entry.id != entry.key {
        trace.hit("v2.p3.attached-by-tool-call-id");
        trace.hit("v2.p5.request-key-not-projected");
    }
    if entry.permission.status_str() == Some("resolved") {
        trace.hit("v2.p6.resolved-permission-attached");
    }
}

/// A codex plan proposal (v2.md X1): both spellings of the plan-exit tool.
fn is_plan_proposal(name: &str) -> bool {
    matches!(name, "ExitPlanMode" | "exit_plan_mode")
}

/// Stream identities with this prefix are block ids (v2.md S2).
const CODEX_STREAM_PREFIX: &str = "codex:";

/// State every reduction of one reduce call shares (§4, first paragraph).
pub(super) struct Shared<'a, 'r, 't> {
    /// The permission table.
    pub table: &'r PermissionTable<'a>,
    /// Subagent groups by spawning message id.
    pub groups: &'r FastMap<&'r str, Vec<&'r NormalizedMessage<'a>>>,
    /// Groups already rendered under a card.
    pub consumed: FastSet<&'r str>,
    /// Title-change tool id → trimmed title.
    pub titles: &'r FastMap<&'r str, &'r str>,
    /// Title-change tool ids that already emitted their event.
    pub emitted_titles: FastSet<String>,
    /// The rules of the document's fixtureVersion.
    pub options: ChatOptions,
    /// Rule coverage.
    pub trace: &'t mut dyn RuleTrace,
}

/// The title map (§3.2) over a list of messages.
pub(super) fn title_map<'r>(
    messages: impl IntoIterator<Item = &'r NormalizedMessage<'r>>,
) -> FastMap<&'r str, &'r str> {
    let mut titles = FastMap::default();
    for message in messages {
        for item in message.agent_items() {
            if let AgentItem::ToolCall(call) = item
                && is_title_tool(&call.name)
                && let Some(title) = input_title(call)
            {
                titles.insert(&*call.id, title);
            }
        }
    }
    titles
}

/// A title-change call's own `input.title`, trimmed, when non-empty.
fn input_title<'r>(call: &'r ToolCall<'_>) -> Option<&'r str> {
    str_of(call.input.as_deref().and_then(|input| get(input, "title"))).map(trim).filter(|t| !t.is_empty())
}

/// Reduces one lane to its blocks and its ready flag.
pub(super) fn reduce_timeline<'a>(
    messages: &[&NormalizedMessage<'a>],
    shared: &mut Shared<'a, '_, '_>,
) -> (Vec<Block<'a>>, bool) {
    // Nested subagents recurse once per level; keep the stack bounded.
    stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || {
        let mut timeline = Timeline { blocks: Vec::with_capacity(messages.len()), ..Timeline::default() };
        let injected: FastSet<&str> = messages
            .iter()
            .filter(|m| m.is_sidechain)
            .flat_map(|m| m.agent_items())
            .filter_map(|item| match item {
                AgentItem::Sidechain { uuid, .. } => Some(&**uuid),
                _ => None,
            })
            .collect();
        for message in messages {
            timeline.message(message, &injected, shared);
            shared.trace.emitted(Scope::Id(&message.id));
        }
        let ready = timeline.ready;
        (timeline.finish(shared.trace), ready)
    })
}

/// One lane being reduced.
#[derive(Default)]
pub(super) struct Timeline<'a> {
    /// Blocks in order; `None` marks a removed block.
    pub blocks: Vec<Option<Block<'a>>>,
    /// Tool id → position of its card.
    pub tools: FastMap<Cow<'a, str>, usize>,
    text_streams: FastMap<Cow<'a, str>, usize>,
    reasoning_streams: FastMap<Cow<'a, str>, usize>,
    /// agentId → card id of its CodexAgent card.
    pub agents: FastMap<String, String>,
    /// Fingerprint → card id of a CodexAgent card.
    pub fingerprints: FastMap<String, String>,
    /// A `ready` event was seen.
    pub ready: bool,
}

impl<'a> Timeline<'a> {
    /// Appends a block and returns its position.
    pub fn push(&mut self, block: Block<'a>) -> usize {
        self.blocks.push(Some(block));
        self.blocks.len() - 1
    }

    fn push_from(&mut self, message: &NormalizedMessage<'a>, id: impl Into<BlockId<'a>>, body: Body<'a>) -> usize {
        self.push(Block {
            id: id.into(),
            local_id: message.local_id,
            created_at: message.created_at,
            invoked_at: message.invoked_at,
            body,
        })
    }

    fn message(&mut self, message: &NormalizedMessage<'a>, injected: &FastSet<&str>, shared: &mut Shared<'a, '_, '_>) {
        match &message.content {
            Content::Event(event) => self.event(message, event, shared),
            Content::User(user) => self.user(message, user, shared.trace),
            Content::Agent(items) => {
                if !message.is_sidechain
                    && let Some(event) = items.iter().find_map(|item| match item {
                        AgentItem::Text(text) => usage_limit_event(&text.text),
                        _ => None,
                    })
                {
                    shared.trace.hit(if event.kind() == Some("limit-reached") {
                        "reduce.limit.reached"
                    } else {
                        "reduce.limit.warning"
                    });
                    if items.len() > 1 {
                        shared.trace.hit("reduce.limit.other-items-dropped");
                    }
                    self.push_from(message, message.block_id.clone(), Body::AgentEvent { event });
                    return;
                }
                self.agent(message, items, injected, shared);
            }
        }
    }

    fn event(&mut self, message: &NormalizedMessage<'a>, event: &Event<'a>, shared: &mut Shared<'a, '_, '_>) {
        match event.kind() {
            Some("ready") => {
                shared.trace.hit("reduce.event.ready");
                self.ready = true;
            }
            Some("token-count" | "abort-restore" | "turn-summary" | "turn-duration") => {
                shared.trace.hit("reduce.event.consumed");
            }
            Some(kind @ ("agent-run-start" | "agent-run-update" | "agent-run-trace")) => {
                self.agent_run(message, event, kind, shared);
            }
            _ => {
                shared.trace.hit("reduce.event.block");
                self.push_from(message, message.block_id.clone(), Body::AgentEvent { event: event.copy() });
            }
        }
    }

    fn user(&mut self, message: &NormalizedMessage<'a>, user: &UserText<'a>, trace: &mut dyn RuleTrace) {
        let body = if message.sent_from_cli() && has_cli_tag(&user.text) {
            trace.hit("reduce.user.cli-output");
            Body::CliOutput { text: user.text.clone(), source: "user" }
        } else {
            trace.hit("reduce.user.text");
            if user.attachments.iter().any(|attachment| attachment.attachment_id.is_some()) {
                trace.hit("v2.a3.attachment-id-projected");
            }
            Body::UserText { text: user.text.clone(), attachments: user.attachments.clone() }
        };
        self.push_from(message, message.block_id.clone(), body);
    }

    fn agent(
        &mut self,
        message: &NormalizedMessage<'a>,
        items: &[AgentItem<'a>],
        injected: &FastSet<&str>,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        let task_prompt = items
            .iter()
            .find_map(|item| match item {
                AgentItem::ToolCall(call) if is_subagent_name(&call.name) => Some(call),
                _ => None,
            })
            .and_then(|call| str_of(call.input.as_deref().and_then(|input| get(input, "prompt"))));
        for (index, item) in items.iter().enumerate() {
            let item_id = || Cow::Owned(item_block_id(&message.id, index));
            match item {
                AgentItem::Text(text) => {
                    let context = TextContext { item_count: items.len(), task_prompt, injected };
                    self.text(message, item_id, text, &context, shared);
                }
                AgentItem::Reasoning(text) => {
                    let stream = stream_identity(text.stream_id.as_deref(), &shared.options, shared.trace);
                    if let Some(&pos) = stream.and_then(|id| self.reasoning_streams.get(id))
                        && let Some(Some(block)) = self.blocks.get_mut(pos)
                        && let Body::AgentReasoning { text: current } = &mut block.body
                    {
                        shared.trace.hit("reduce.reasoning.stream-continued");
                        *current = text.text.clone();
                        block.invoked_at = message.invoked_at;
                        continue;
                    }
                    let id = new_block_id(stream, item_id, &shared.options, shared.trace);
                    let pos = self.push_from(message, id, Body::AgentReasoning { text: text.text.clone() });
                    if let Some(stream) = stream {
                        self.reasoning_streams.insert(Cow::Owned(stream.to_owned()), pos);
                    }
                }
                AgentItem::GeneratedImage(GeneratedImage { image_id, file_name, mime_type, .. }) => {
                    let body = Body::GeneratedImage { image_id, file_name, mime_type: *mime_type };
                    self.push_from(message, item_id(), body);
                }
                AgentItem::CodexReview { review, .. } => {
                    self.push_from(message, item_id(), Body::CodexReview { review: Cow::Owned(review.clone()) });
                }
                AgentItem::DisplayLinks(links) => {
                    shared.trace.hit("v2.d7.display-links-block");
                    // The projection keeps `urls: []` and drops an empty `texts` (D8).
                    if links.urls.is_empty() {
                        shared.trace.hit("v2.d8.empty-urls-projected");
                    }
                    if links.texts.is_empty() {
                        shared.trace.hit("v2.d8.empty-texts-omitted");
                    }
                    let body = Body::DisplayLinks { urls: links.urls.clone(), texts: links.texts.clone() };
                    self.push_from(message, item_id(), body);
                }
                AgentItem::Summary { summary } => {
                    shared.trace.hit("reduce.summary.message-event");
                    let event = Event::built(vec![("type", string("message")), ("message", string(*summary))]);
                    self.push_from(message, item_id(), Body::AgentEvent { event });
                }
                AgentItem::Sidechain { prompt, .. } => {
                    if let Some(summary) = task_notification_summary(prompt) {
                        shared.trace.hit("reduce.sidechain.task-notification");
                        let event = Event::built(vec![("type", string("message")), ("message", string(summary))]);
                        self.push_from(message, item_id(), Body::AgentEvent { event });
                    }
                }
                AgentItem::ToolCall(call) => {
                    self.tool_call(message, item_id, call, shared);
                    shared.trace.emitted(Scope::Id(&call.id));
                    continue;
                }
                AgentItem::ToolResult(result) => {
                    self.tool_result(message, item_id, result, shared);
                    shared.trace.emitted(Scope::Id(&result.tool_use_id));
                    continue;
                }
            }
            // Provenance: the blocks this item made or continued.
            shared.trace.emitted(Scope::Id(&message.id));
        }
    }

    fn text(
        &mut self,
        message: &NormalizedMessage<'a>,
        item_id: impl Fn() -> Cow<'a, str>,
        text: &TextItem<'a>,
        context: &TextContext<'_>,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        let trace = &mut *shared.trace;
        if context.item_count == 1
            && text.parent_uuid.is_some_and(|parent| context.injected.contains(parent))
            && is_no_response_sentinel(&text.text)
        {
            trace.hit("reduce.text.sentinel-skipped");
            return;
        }
        if context.task_prompt.is_some_and(|prompt| trim(&text.text) == trim(prompt)) {
            trace.hit("reduce.text.prompt-echo-skipped");
            return;
        }
        if message.sent_from_cli() && has_cli_tag(&text.text) {
            trace.hit("reduce.text.cli-output");
            self.push_from(message, item_id(), Body::CliOutput { text: text.text.clone(), source: "assistant" });
            return;
        }
        let stream = stream_identity(text.stream_id.as_deref(), &shared.options, trace);
        if let Some(&pos) = stream.and_then(|id| self.text_streams.get(id))
            && let Some(Some(block)) = self.blocks.get_mut(pos)
            && let Body::AgentText { text: current } = &mut block.body
        {
            trace.hit("reduce.text.stream-continued");
            *current = text.text.clone();
            block.invoked_at = message.invoked_at;
            return;
        }
        let id = new_block_id(stream, item_id, &shared.options, trace);
        let pos = self.push_from(message, id, Body::AgentText { text: text.text.clone() });
        if let Some(stream) = stream {
            self.text_streams.insert(Cow::Owned(stream.to_owned()), pos);
        }
    }

    /// Emits the title-changed event for a title tool id once.
    fn title_event(
        &mut self,
        message: &NormalizedMessage<'a>,
        item_id: impl Fn() -> Cow<'a, str>,
        tool_id: &str,
        title: Option<&str>,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        match title {
            Some(title) if !shared.emitted_titles.contains(tool_id) => {
                shared.trace.hit("reduce.title.changed");
                shared.emitted_titles.insert(tool_id.to_owned());
                let event = Event::built(vec![("type", string("title-changed")), ("title", string(title))]);
                self.push_from(message, item_id(), Body::AgentEvent { event });
            }
            _ => shared.trace.hit("reduce.title.no-event"),
        }
    }

    fn tool_call(
        &mut self,
        message: &NormalizedMessage<'a>,
        item_id: impl Fn() -> Cow<'a, str>,
        call: &ToolCall<'a>,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        if is_title_tool(&call.name) {
            let title = shared.titles.get(&*call.id).copied().or_else(|| input_title(call));
            self.title_event(message, item_id, &call.id, title, shared);
            return;
        }
        let entry = shared.table.get(&call.id);
        if let Some(entry) = entry {
            shared.trace.hit("reduce.permission.attached-to-call");
            correlated(entry, shared.trace);
            if is_plan_proposal(&call.name) && entry.id != entry.key && entry.permission.status_str() == Some("pending")
            {
                shared.trace.hit("v2.x3.pending-proposal-attached");
            }
        }
        let permission = entry.map(|entry| entry.permission.clone());
        let seed = Seed {
            name: call.name.clone(),
            input: call.input.clone(),
            progress: call.progress,
            permission,
            local_id: message.local_id,
            created_at: message.created_at,
            invoked_at: message.invoked_at,
        };
        let pos = self.upsert(call.id.clone(), seed, shared.trace);
        if let Some(card) = self.card_mut(pos)
            && card.state == ToolState::Pending
        {
            shared.trace.hit("reduce.tool.pending-call-running");
            card.state = ToolState::Running;
        }
        // Provenance: what decided the card so far, before its children's own.
        shared.trace.emitted(Scope::Id(&call.id));
        if is_subagent_name(&call.name) && !shared.consumed.contains(&*message.id) {
            let groups = shared.groups;
            let group: &[&NormalizedMessage<'a>] = groups.get(&*message.id).map_or(&[], Vec::as_slice);
            if let Some((&key, _)) = groups.get_key_value(&*message.id).filter(|_| !group.is_empty()) {
                shared.trace.hit("reduce.subagent.children");
                shared.consumed.insert(key);
            }
            let (children, ready) = reduce_timeline(group, shared);
            self.ready |= ready;
            if let Some(card) = self.card_mut(pos) {
                card.children = children;
            }
        }
    }

    fn tool_result(
        &mut self,
        message: &NormalizedMessage<'a>,
        item_id: impl Fn() -> Cow<'a, str>,
        result: &ToolResult<'a>,
        shared: &mut Shared<'a, '_, '_>,
    ) {
        if let Some(&title) = shared.titles.get(&*result.tool_use_id) {
            self.title_event(message, item_id, &result.tool_use_id, Some(title), shared);
            return;
        }
        let entry = shared.table.get(&result.tool_use_id);
        if let Some(entry) = entry {
            correlated(entry, shared.trace);
        }
        let permission = match (entry, &result.permissions) {
            (None, None) => None,
            (Some(entry), None) => Some(entry.permission.clone()),
            (None, Some(record)) => {
                shared.trace.hit("reduce.permission.from-result");
                Some(PermissionSeed::from_result(record))
            }
            (Some(entry), Some(record)) => {
                shared.trace.hit("reduce.permission.result-merged-with-entry");
                Some(PermissionSeed::combined(&entry.permission, record))
            }
        };
        let seed = Seed {
            name: Cow::Borrowed(entry.and_then(|e| e.tool).unwrap_or("Tool")),
            input: Some(entry.and_then(|e| e.arguments).map_or(Cow::Owned(Value::Null), Cow::Borrowed)),
            progress: None,
            permission,
            local_id: message.local_id,
            created_at: message.created_at,
            invoked_at: message.invoked_at,
        };
        let pos = self.upsert(result.tool_use_id.clone(), seed, shared.trace);
        if let Some(card) = self.card_mut(pos) {
            if shared.options.tool_call_correlation
                && is_plan_proposal(&card.name)
                && result.content.as_deref().is_some_and(Value::is_null)
            {
                shared.trace.hit("v2.x2.null-output-completes-proposal");
            }
            card.result = result.content.clone();
            card.state = if result.is_error { ToolState::Error } else { ToolState::Completed };
            shared.trace.hit(if result.is_error { "reduce.tool.result-error" } else { "reduce.tool.result-completed" });
        }
    }

    /// The remaining blocks, with consecutive CLI output merged (§4.5).
    fn finish(self, trace: &mut dyn RuleTrace) -> Vec<Block<'a>> {
        let mut out: Vec<Block<'a>> = Vec::with_capacity(self.blocks.len());
        for block in self.blocks.into_iter().flatten() {
            if let Some(previous) = out.last_mut()
                && let (
                    Body::CliOutput { text: before, source: before_source },
                    Body::CliOutput { text: after, source },
                ) = (&mut previous.body, &block.body)
                && before_source == source
                && super::text::contains_tag(before, "<command-name>")
                && !super::text::contains_tag(before, "<local-command-stdout>")
                && super::text::contains_tag(after, "<local-command-stdout>")
            {
                trace.hit("reduce.cli.merged");
                let mut merged = String::with_capacity(before.len() + after.len() + 1);
                merged.push_str(before);
                if !before.ends_with('\n') && !after.starts_with('\n') {
                    merged.push('\n');
                }
                merged.push_str(after);
                *before = Cow::Owned(merged);
                if previous.invoked_at.is_none_or(Value::is_null) {
                    previous.invoked_at = block.invoked_at;
                }
                continue;
            }
            out.push(block);
        }
        out
    }
}
