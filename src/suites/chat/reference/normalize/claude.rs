//! Claude SDK entries in the output family (chat-normalize §7): `assistant`,
//! `user` (tool results, sidechain prompts and CLI-wrapped user turns),
//! `summary` and the visible `system` subtypes.

use super::envelope::{Carry, Record, Wire};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{
    AgentItem, Content, Event, NormalizedMessage, ResultPermission, TextItem, ToolCall, ToolResult, Usage,
};
use crate::suites::chat::reference::timestamp::parse_agent_timestamp;
use crate::suites::js::{
    entries, get, get_in, is_obj, non_negative, num, number, obj, safe_uint, sorted_clone, str_of, string, truthy,
};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Values every `assistant`/`user` entry shares (§7.1).
struct Entry<'a> {
    uuid: Cow<'a, str>,
    parent_uuid: Option<&'a str>,
    is_sidechain: bool,
    parent_tool_use_id: Option<&'a str>,
    agent_timestamp: Option<f64>,
    message: &'a Value,
}

impl<'a> Entry<'a> {
    /// `None` when `data.message` is not OBJ (the caller then stringifies).
    fn read(wire: &Wire<'a>, data: &'a Value, trace: &mut dyn RuleTrace) -> Option<Self> {
        let Some(message) = obj(get(data, "message")) else {
            trace.hit("output.claude.message-not-object-stringified");
            return None;
        };
        Some(Entry {
            uuid: str_of(get(data, "uuid")).map_or_else(|| wire.id.clone(), Cow::Borrowed),
            parent_uuid: str_of(get(data, "parentUuid")),
            is_sidechain: truthy(get(data, "isSidechain")),
            parent_tool_use_id: str_of(get(data, "parentToolUseId")),
            agent_timestamp: str_of(get(data, "timestamp")).and_then(parse_agent_timestamp),
            message,
        })
    }

    fn text(&self, text: &'a str) -> TextItem<'a> {
        TextItem { text: Cow::Borrowed(text), uuid: self.uuid.clone(), parent_uuid: self.parent_uuid, stream_id: None }
    }

    /// A message carrying this entry's sidechain, PTU and timestamp members.
    fn normalized(&self, wire: &Wire<'a>, content: Content<'a>, meta: Option<&'a Value>) -> NormalizedMessage<'a> {
        let mut message = wire.message(content, Carry::Agent);
        message.is_sidechain = self.is_sidechain;
        message.parent_tool_use_id = self.parent_tool_use_id;
        message.agent_timestamp = Some(self.agent_timestamp);
        message.meta = meta;
        message
    }
}

/// `assistant` (§7.2).
pub(super) fn assistant<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let entry = Entry::read(wire, data, trace)?;
    let items = match get(entry.message, "content") {
        Some(Value::String(text)) => {
            trace.hit("output.claude.assistant.string-content");
            vec![AgentItem::Text(entry.text(text))]
        }
        Some(Value::Array(blocks)) => blocks.iter().filter_map(|block| assistant_block(&entry, block, trace)).collect(),
        _ => {
            trace.hit("output.claude.assistant.content-not-a-list-empty");
            Vec::new()
        }
    };
    let mut message = entry.normalized(wire, Content::Agent(items), record.meta);
    message.model = Some(str_of(get(entry.message, "model")));
    message.usage = assistant_usage(get(entry.message, "usage")).map(Box::new);
    Some(message)
}

fn assistant_block<'a>(entry: &Entry<'a>, block: &'a Value, trace: &mut dyn RuleTrace) -> Option<AgentItem<'a>> {
    let item = match str_of(get(block, "type")) {
        Some("text") => str_of(get(block, "text")).map(|text| AgentItem::Text(entry.text(text))),
        Some("thinking") => str_of(get(block, "thinking")).map(|text| AgentItem::Reasoning(entry.text(text))),
        Some("tool_use") => str_of(get(block, "id")).map(|id| {
            let name = str_of(get(block, "name")).unwrap_or_else(|| {
                trace.hit("output.claude.tool-use.default-name");
                "Tool"
            });
            let input = get(block, "input");
            let description = input.filter(|i| is_obj(i)).and_then(|i| str_of(get(i, "description")));
            AgentItem::ToolCall(ToolCall {
                id: Cow::Borrowed(id),
                name: Cow::Borrowed(name),
                input: input.map(Cow::Borrowed),
                description: description.map(Cow::Borrowed),
                native_title: None,
                native_kind: None,
                progress: None,
                uuid: entry.uuid.clone(),
                parent_uuid: entry.parent_uuid,
            })
        }),
        _ => None,
    };
    if item.is_none() {
        trace.hit("output.claude.assistant.block-ignored");
    }
    item
}

fn assistant_usage(usage: Option<&Value>) -> Option<Usage<'_>> {
    let usage = obj(usage)?;
    Some(Usage {
        input_tokens: num(get(usage, "input_tokens"))?,
        output_tokens: num(get(usage, "output_tokens"))?,
        cache_creation_input_tokens: num(get(usage, "cache_creation_input_tokens")),
        cache_read_input_tokens: num(get(usage, "cache_read_input_tokens")),
        service_tier: str_of(get(usage, "service_tier")),
        context_window: num(get(usage, "context_window")),
        ..Usage::default()
    })
}

/// A `{type: "text", text: <string>}` element.
fn text_part(element: &Value) -> Option<&str> {
    (str_of(get(element, "type")) == Some("text")).then(|| str_of(get(element, "text"))).flatten()
}

/// `user` (§7.3): the first matching row of the decision table.
pub(super) fn user_entry<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let entry = Entry::read(wire, data, trace)?;
    let content = get(entry.message, "content");
    let elements: &[Value] = match content {
        Some(Value::Array(elements)) => elements,
        _ => &[],
    };
    let text_parts = || elements.iter().filter_map(text_part);
    let sidechain = |prompt: Cow<'a, str>| {
        let item = AgentItem::Sidechain { uuid: entry.uuid.clone(), parent_uuid: entry.parent_uuid, prompt };
        let mut message = entry.normalized(wire, Content::Agent(vec![item]), None);
        message.is_sidechain = true;
        message
    };
    if let Some(Value::String(prompt)) = content {
        trace.hit("output.claude.user.string-sidechain");
        return Some(sidechain(Cow::Borrowed(prompt)));
    }
    let has_text = text_parts().next().is_some();
    if entry.is_sidechain && has_text {
        trace.hit("output.claude.user.sidechain-text-prompt");
        if elements.iter().any(|e| str_of(get(e, "type")) == Some("tool_result")) {
            trace.hit("output.claude.user.sidechain-tool-results-discarded");
        }
        return Some(sidechain(join_parts(text_parts())));
    }
    if !entry.is_sidechain && has_text && elements.iter().all(|e| text_part(e).is_some()) {
        trace.hit("output.claude.user.user-lane");
        let text =
            crate::suites::chat::reference::model::UserText { text: join_parts(text_parts()), attachments: Vec::new() };
        let mut message = wire.message(Content::User(text), Carry::Agent);
        message.meta = record.meta;
        message.agent_timestamp = Some(entry.agent_timestamp);
        return Some(message);
    }
    let tool_use_result = get(data, "toolUseResult").filter(|v| !v.is_null());
    let mut items = Vec::new();
    for element in elements {
        match str_of(get(element, "type")) {
            Some("text") => {
                if let Some(text) = str_of(get(element, "text")) {
                    items.push(AgentItem::Text(entry.text(text)));
                }
            }
            Some("tool_result") => {
                if let Some(id) = str_of(get(element, "tool_use_id")) {
                    items.push(AgentItem::ToolResult(tool_result(&entry, element, id, tool_use_result, trace)));
                }
            }
            _ => {}
        }
    }
    trace.hit("output.claude.user.agent-items");
    Some(entry.normalized(wire, Content::Agent(items), record.meta))
}

fn join_parts<'a>(mut parts: impl Iterator<Item = &'a str>) -> Cow<'a, str> {
    let first = parts.next().unwrap_or_default();
    match parts.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut joined = format!("{first}\n\n{second}");
            for part in parts {
                joined.push_str("\n\n");
                joined.push_str(part);
            }
            Cow::Owned(joined)
        }
    }
}

fn tool_result<'a>(
    entry: &Entry<'a>,
    block: &'a Value,
    id: &'a str,
    tool_use_result: Option<&'a Value>,
    trace: &mut dyn RuleTrace,
) -> ToolResult<'a> {
    trace.hit("output.claude.tool-result");
    let content = match tool_use_result {
        Some(preferred) => {
            trace.hit("output.claude.tool-result.tool-use-result-preferred");
            Some(preferred)
        }
        None => get(block, "content"),
    };
    // The `drift-demo` cargo feature changes this one rule on purpose (tool
    // results never count as errors), so tests/regen_drift.rs can show
    // `conform regen --check` catching a changed rule. Off in every other build.
    let is_error = truthy(get(block, "is_error")) && !cfg!(feature = "drift-demo");
    if is_error {
        trace.hit("output.claude.tool-result.is-error");
    }
    let permissions = result_permission(get(block, "permissions"));
    if permissions.is_some() {
        trace.hit("output.claude.tool-result.permissions");
    }
    ToolResult {
        tool_use_id: Cow::Borrowed(id),
        content: content.map(Cow::Borrowed),
        is_error,
        uuid: entry.uuid.clone(),
        parent_uuid: entry.parent_uuid,
        permissions,
    }
}

fn result_permission(value: Option<&Value>) -> Option<ResultPermission<'_>> {
    let value = obj(value)?;
    let approved = match str_of(get(value, "result"))? {
        "approved" => true,
        "denied" => false,
        _ => return None,
    };
    Some(ResultPermission {
        date: num(get(value, "date"))?,
        approved,
        mode: str_of(get(value, "mode")),
        allowed_tools: match get(value, "allowedTools") {
            Some(Value::Array(tools)) => Some(tools.iter().filter_map(Value::as_str).collect()),
            _ => None,
        },
        decision: str_of(get(value, "decision"))
            .filter(|d| matches!(*d, "approved" | "approved_for_session" | "denied" | "abort")),
    })
}

/// `summary` (§7.4).
pub(super) fn summary<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let Some(summary) = str_of(get(data, "summary")) else {
        trace.hit("output.claude.summary-not-string-stringified");
        return None;
    };
    trace.hit("output.claude.summary");
    let mut message = wire.message(Content::Agent(vec![AgentItem::Summary { summary }]), Carry::Agent);
    message.meta = record.meta;
    Some(message)
}

/// `system` with one of the five visible subtypes (§7.5).
pub(super) fn system<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let member = |key| get(data, key);
    let mut is_sidechain = false;
    let mut parent_tool_use_id = None;
    let event = match str_of(member("subtype"))? {
        "api_error" => {
            trace.hit("output.claude.system.api-error");
            let mut members = vec![
                ("type", string("api-error")),
                ("retryAttempt", number(num(member("retryAttempt")).unwrap_or(0.0))),
                ("maxRetries", number(num(member("maxRetries")).unwrap_or(0.0))),
            ];
            if let Some(error) = member("error") {
                // Kept in key-sorted order: event dedupe compares JSON text.
                members.push(("error", sorted_clone(error)));
            }
            Event::built(members)
        }
        "turn_duration" => {
            is_sidechain = truthy(member("isSidechain"));
            parent_tool_use_id = str_of(member("parentToolUseId"));
            match round_summary(member("resultSummary")) {
                Some(summary) => {
                    trace.hit("output.claude.system.turn-summary");
                    Event::built(vec![("type", string("turn-summary")), ("summary", summary)])
                }
                None => {
                    trace.hit("output.claude.system.turn-duration");
                    let mut members = vec![
                        ("type", string("turn-duration")),
                        ("durationMs", number(num(member("durationMs")).unwrap_or(0.0))),
                    ];
                    if let Some(target) = str_of(member("messageId")) {
                        members.push(("targetMessageId", string(target)));
                    }
                    Event::built(members)
                }
            }
        }
        "away_summary" => {
            trace.hit("output.claude.system.recap");
            Event::built(vec![("type", string("recap")), ("text", string(str_of(member("content"))?))])
        }
        "microcompact_boundary" => {
            trace.hit("output.claude.system.microcompact");
            let metadata = obj(member("microcompactMetadata"));
            Event::built(vec![
                ("type", string("microcompact")),
                ("trigger", string(str_of(get_in(metadata, "trigger")).unwrap_or("auto"))),
                ("preTokens", number(num(get_in(metadata, "preTokens")).unwrap_or(0.0))),
                ("tokensSaved", number(num(get_in(metadata, "tokensSaved")).unwrap_or(0.0))),
            ])
        }
        "compact_boundary" => {
            trace.hit("output.claude.system.compact");
            let metadata = obj(member("compactMetadata"));
            Event::built(vec![
                ("type", string("compact")),
                ("trigger", string(str_of(get_in(metadata, "trigger")).unwrap_or("auto"))),
                ("preTokens", number(num(get_in(metadata, "preTokens")).unwrap_or(0.0))),
            ])
        }
        _ => return None,
    };
    let mut message = wire.message(Content::Event(event), Carry::Agent);
    message.meta = record.meta;
    message.is_sidechain = is_sidechain;
    message.parent_tool_use_id = parent_tool_use_id;
    Some(message)
}

/// The round summary of a `turn_duration` entry, when derivable.
fn round_summary(value: Option<&Value>) -> Option<Value> {
    let summary = obj(value)?;
    let member = |key| get(summary, key);

    let mut models = Map::new();
    let mut any_tokens = false;
    if let Some(model_usage) = obj(member("modelUsage")) {
        for (model, usage) in entries(model_usage) {
            if !is_obj(usage) {
                continue;
            }
            let mut parsed = Map::new();
            for key in ["inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens"] {
                if let Some(tokens) = safe_uint(get(usage, key)) {
                    parsed.insert(key.to_owned(), number(tokens));
                }
            }
            any_tokens |= !parsed.is_empty();
            models.insert(model.into_owned(), Value::Object(parsed));
        }
    }
    if !any_tokens {
        models.clear();
    }

    let usage = obj(member("usage")).and_then(|usage| {
        let mut parsed = Map::new();
        for key in ["input_tokens", "output_tokens"] {
            parsed.insert(key.to_owned(), number(safe_uint(get(usage, key))?));
        }
        for key in ["cache_creation_input_tokens", "cache_read_input_tokens"] {
            if let Some(tokens) = safe_uint(get(usage, key)) {
                parsed.insert(key.to_owned(), number(tokens));
            }
        }
        Some(Value::Object(parsed))
    });
    let cost = non_negative(member("total_cost_usd"));
    let turns = safe_uint(member("num_turns"));
    let duration = non_negative(member("duration_ms"));
    if usage.is_none() && models.is_empty() && cost.is_none() && turns.is_none() && duration.is_none() {
        return None;
    }

    let mut out = Map::new();
    if let Some(usage) = usage {
        out.insert("usage".to_owned(), usage);
    }
    out.insert("modelUsage".to_owned(), Value::Object(models));
    if let Some(cost) = cost.filter(|c| *c > 0.0) {
        out.insert("totalCostUsd".to_owned(), number(cost));
    }
    if let Some(turns) = turns.filter(|t| *t > 0.0) {
        out.insert("numTurns".to_owned(), number(turns));
    }
    if let Some(duration) = duration {
        out.insert("durationMs".to_owned(), number(duration));
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::round_summary;
    use serde_json::json;

    #[test]
    fn round_summary_model_usage_keeps_empty_models_only_when_one_has_tokens() {
        // chat-normalize §15 example 11.
        let summary = round_summary(Some(&json!({"modelUsage": [{"inputTokens": 1}, {"outputTokens": "x"}, 5]})));
        assert_eq!(summary, Some(json!({"modelUsage": {"0": {"inputTokens": 1}, "1": {}}})));
        assert_eq!(round_summary(Some(&json!({"total_cost_usd": 0}))), Some(json!({"modelUsage": {}})));
        assert_eq!(round_summary(Some(&json!({"modelUsage": {"m": {}}}))), None);
        assert_eq!(round_summary(Some(&json!({"usage": {"input_tokens": 1}}))), None);
    }
}
