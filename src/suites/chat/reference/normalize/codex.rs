//! The codex family (chat-normalize §10): the generic agent envelope used by
//! codex, cursor, gemini, pi and the other non-Claude flavors. Unlike the
//! other families it never falls back to text: anything it cannot decode is
//! hidden.

use super::envelope::{Carry, Record, Wire};
use super::{display_links, plan, review};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{
    AgentItem, Content, Event, GeneratedImage, MediaSource, NormalizedMessage, TextItem, ToolCall, ToolResult, Usage,
};
use crate::suites::chat::reference::verbatim::deep_clone;
use crate::suites::js::{first_present, get, is_line_terminator, num, number, obj, str_of, string, truthy};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Normalizes a `codex` payload; `None` hides the message.
pub(super) fn normalize_codex<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let data = get(record.payload, "data");
    let Some(kind) = str_of(data.and_then(|d| get(d, "type"))) else {
        trace.hit("codex.invalid-data-dropped");
        return None;
    };
    let data = data?;
    let decoded = decode(wire, data, kind, trace);
    let (content, usage) = decoded?;
    let mut message = wire.message(content, Carry::Agent);
    message.meta = record.meta;
    message.usage = usage.map(Box::new);
    Some(message)
}

type Decoded<'a> = Option<(Content<'a>, Option<Usage<'a>>)>;

fn decode<'a>(wire: &Wire<'a>, data: &'a Value, kind: &str, trace: &mut dyn RuleTrace) -> Decoded<'a> {
    let member = |key| get(data, key);
    let event = |event: Event<'a>| Some((Content::Event(event), None));
    let agent = |items: Vec<AgentItem<'a>>| Some((Content::Agent(items), None));
    let item_uuid = || str_of(member("id")).map_or_else(|| wire.id.clone(), Cow::Borrowed);
    let dropped = |trace: &mut dyn RuleTrace, rule| {
        trace.hit(rule);
        None
    };
    match kind {
        "agent-run-start" | "agent-run-update" | "agent-run-trace" => {
            trace.hit("codex.agent-run-event");
            event(Event::wire(data))
        }
        "generated-image" => {
            let image_id = str_of(first_present(Some(data), &["imageId", "image_id"])).filter(|id| !id.is_empty());
            let Some(image_id) = image_id else {
                return dropped(trace, "codex.generated-image.no-image-id-dropped");
            };
            trace.hit("codex.generated-image");
            let source = media_source(member("source"));
            if source.is_some() {
                trace.hit("codex.generated-image.source");
            }
            agent(vec![AgentItem::GeneratedImage(GeneratedImage {
                image_id,
                file_name: str_of(first_present(Some(data), &["fileName", "file_name"])).unwrap_or("generated-image"),
                mime_type: str_of(first_present(Some(data), &["mimeType", "mime_type"])),
                uuid: item_uuid(),
                source,
            })])
        }
        "display-links" if wire.options.display_links => match display_links::display_links(wire, data, trace) {
            Some(links) => agent(vec![AgentItem::DisplayLinks(links)]),
            None => None,
        },
        "error" => match str_of(member("message")) {
            Some(message) => {
                trace.hit("codex.error-event");
                event(Event::built(vec![("type", string("error")), ("message", string(message))]))
            }
            None => dropped(trace, "codex.error.no-message-dropped"),
        },
        "message" => match str_of(member("message")) {
            Some(text) => agent(vec![message_item(wire, data, text, trace)]),
            None => dropped(trace, "codex.message.no-message-dropped"),
        },
        "reasoning" => match str_of(member("message")) {
            Some(text) => {
                trace.hit("codex.reasoning");
                let stream_id = str_of(member("id")).map_or_else(|| wire.id.clone(), Cow::Borrowed);
                agent(vec![AgentItem::Reasoning(TextItem {
                    text: Cow::Borrowed(text),
                    uuid: wire.id.clone(),
                    parent_uuid: None,
                    stream_id: Some(stream_id),
                })])
            }
            None => dropped(trace, "codex.reasoning.no-message-dropped"),
        },
        "context_compacted" => {
            trace.hit("codex.context-compacted");
            event(Event::built(vec![
                ("type", string("compact")),
                ("trigger", string(str_of(member("trigger")).unwrap_or("auto"))),
                ("preTokens", number(num(first_present(Some(data), &["preTokens", "pre_tokens"])).unwrap_or(0.0))),
            ]))
        }
        "compact-summary" => match str_of(member("summary")) {
            Some(summary) => {
                trace.hit("codex.compact-summary");
                let mut members = vec![("type", string("compact-summary")), ("summary", string(summary))];
                for key in ["tokensBefore", "estimatedTokensAfter"] {
                    if let Some(tokens) = num(member(key)) {
                        members.push((key, number(tokens)));
                    }
                }
                event(Event::built(members))
            }
            None => dropped(trace, "codex.compact-summary.no-summary-dropped"),
        },
        "token_count" => match token_usage(data) {
            Some((info, usage)) => {
                trace.hit("codex.token-count");
                let content = Event::built(vec![("type", string("token-count")), ("info", deep_clone(info))]);
                Some((Content::Event(content), Some(usage)))
            }
            None => dropped(trace, "codex.token-count.no-usage-dropped"),
        },
        "thread_goal_updated" => match thread_goal(data) {
            Some(event_value) => {
                trace.hit("codex.thread-goal-updated");
                event(event_value)
            }
            None => dropped(trace, "codex.thread-goal.invalid-dropped"),
        },
        "thread_goal_cleared" => {
            trace.hit("codex.thread-goal-cleared");
            let mut members = vec![("type", string("thread-goal-cleared"))];
            if let Some(thread) = str_of(first_present(Some(data), &["threadId", "thread_id"])) {
                members.push(("threadId", string(thread)));
            }
            event(Event::built(members))
        }
        "tool-call" => match str_of(member("callId")) {
            Some(call_id) => {
                trace.hit("codex.tool-call");
                let progress = member("progress");
                if progress.is_some() {
                    trace.hit("codex.tool-call.progress");
                }
                agent(vec![AgentItem::ToolCall(ToolCall {
                    id: Cow::Borrowed(call_id),
                    name: Cow::Borrowed(str_of(member("name")).unwrap_or("unknown")),
                    input: member("input").map(Cow::Borrowed),
                    description: str_of(member("description")).map(Cow::Borrowed),
                    native_title: Some(str_of(first_present(Some(data), &["nativeTitle", "title"]))),
                    native_kind: Some(str_of(first_present(Some(data), &["nativeKind", "kind"]))),
                    progress,
                    uuid: item_uuid(),
                    parent_uuid: None,
                })])
            }
            None => dropped(trace, "codex.tool-call.no-call-id-dropped"),
        },
        "tool-call-result" => match str_of(member("callId")) {
            Some(call_id) => {
                trace.hit("codex.tool-call-result");
                let is_error = truthy(member("is_error"));
                if is_error {
                    trace.hit("codex.tool-call-result.is-error");
                }
                agent(vec![AgentItem::ToolResult(ToolResult {
                    tool_use_id: Cow::Borrowed(call_id),
                    content: member("output").map(Cow::Borrowed),
                    is_error,
                    uuid: item_uuid(),
                    parent_uuid: None,
                    permissions: None,
                })])
            }
            None => dropped(trace, "codex.tool-call-result.no-call-id-dropped"),
        },
        "plan" | "plan_update" => match plan::plan_items(wire, data, kind == "plan_update") {
            Some(items) => {
                trace.hit(if kind == "plan" { "codex.plan" } else { "codex.plan-update" });
                agent(items)
            }
            None => dropped(trace, "codex.plan.empty-dropped"),
        },
        _ => dropped(trace, "codex.unknown-type-dropped"),
    }
}

/// A codex `message` (§10.1): a Pi stream snapshot, a review, or text.
fn message_item<'a>(wire: &Wire<'a>, data: &'a Value, text: &'a str, trace: &mut dyn RuleTrace) -> AgentItem<'a> {
    let stream_id = str_of(get(data, "id"));
    let snapshot =
        matches!(get(data, "streamSnapshot"), Some(Value::Bool(true))) || stream_id.is_some_and(is_pi_stream);
    if snapshot {
        trace.hit("codex.message.pi-snapshot");
    } else if let Some(review) = review::parse_review(text) {
        trace.hit("codex.message.review");
        return AgentItem::CodexReview { review, uuid: wire.id.clone(), parent_uuid: None };
    } else {
        trace.hit("codex.message.text");
    }
    AgentItem::Text(TextItem {
        text: Cow::Borrowed(text),
        uuid: wire.id.clone(),
        parent_uuid: None,
        stream_id: stream_id.map(Cow::Borrowed),
    })
}

/// `^pi-.+-turn-\d+-message-\d+-text-\d+$`.
fn is_pi_stream(id: &str) -> bool {
    fn strip_number_suffix<'s>(text: &'s str, label: &str) -> Option<&'s str> {
        let digits = text.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        text[..text.len() - digits].strip_suffix(label)
    }
    let Some(rest) = id.strip_prefix("pi-") else { return false };
    let head = strip_number_suffix(rest, "-text-")
        .and_then(|r| strip_number_suffix(r, "-message-"))
        .and_then(|r| strip_number_suffix(r, "-turn-"));
    head.is_some_and(|head| !head.is_empty() && !head.contains(is_line_terminator))
}

/// `InlineMediaSource` from `data.source` (a JSON object, not an array).
fn media_source(value: Option<&Value>) -> Option<MediaSource<'_>> {
    let source = value.filter(|v| v.is_object())?;
    let ingress = str_of(first_present(Some(source), &["ingress", "path"]))
        .filter(|i| matches!(*i, "mcp" | "acp" | "tool_result"))?;
    let first_string = |keys: [&str; 2]| keys.iter().find_map(|key| str_of(get(source, key)));
    Some(MediaSource {
        ingress,
        flavor: str_of(get(source, "flavor")),
        tool_call_id: first_string(["toolCallId", "tool_call_id"]),
        tool_name: first_string(["toolName", "tool_name"]),
    })
}

/// `token_count` (§10.2): the raw `info` and the derived usage.
fn token_usage(data: &Value) -> Option<(&Value, Usage<'_>)> {
    let info = obj(get(data, "info"))?;
    let source = ["last", "lastTokenUsage", "last_token_usage", "total", "totalTokenUsage", "total_token_usage"]
        .iter()
        .find_map(|key| obj(get(info, key)))
        .unwrap_or(info);
    let pick = |value: &Value, keys: &[&str]| num(first_present(Some(value), keys));
    let input_tokens = pick(source, &["inputTokens", "input_tokens"])?;
    let output_tokens = pick(source, &["outputTokens", "output_tokens"])?;
    let context = first_present(Some(info), &["contextTokens", "context_tokens"])
        .or_else(|| first_present(Some(source), &["contextTokens", "context_tokens"]));
    let scope = obj(get(data, "scope"));
    let thread = first_present(Some(data), &["thread_id", "threadId"])
        .or_else(|| first_present(scope, &["thread_id", "threadId"]))
        .or_else(|| first_present(Some(info), &["thread_id", "threadId"]));
    let scope_role =
        first_present(Some(data), &["scope_role", "scopeRole"]).or_else(|| first_present(scope, &["role"]));
    let usage = Usage {
        input_tokens,
        output_tokens,
        cache_read_input_tokens: pick(
            source,
            &["cachedInputTokens", "cached_input_tokens", "cacheReadInputTokens", "cache_read_input_tokens"],
        ),
        cache_creation_input_tokens: None,
        context_tokens: Some(num(context).unwrap_or(input_tokens)),
        context_window: pick(info, &["modelContextWindow", "model_context_window"]),
        thread_id: str_of(thread),
        scope_role: str_of(scope_role),
        service_tier: None,
    };
    Some((info, usage))
}

/// `thread_goal_updated` (§10.3): the event, or `None` for an invalid goal.
fn thread_goal(data: &Value) -> Option<Event<'_>> {
    fn non_empty(value: Option<&Value>) -> Option<&str> {
        str_of(value).filter(|s| !s.is_empty())
    }
    let goal = obj(get(data, "goal"))?;
    let thread_id = non_empty(first_present(Some(goal), &["threadId", "thread_id"]))?;
    let objective = non_empty(get(goal, "objective"))?;
    let status = non_empty(get(goal, "status"))
        .filter(|s| matches!(*s, "active" | "paused" | "budgetLimited" | "usageLimited" | "blocked" | "complete"))?;
    let count = |keys: &[&str]| number(num(first_present(Some(goal), keys)).unwrap_or(0.0));
    let mut goal_value = Map::new();
    goal_value.insert("threadId".to_owned(), string(thread_id));
    goal_value.insert("objective".to_owned(), string(objective));
    goal_value.insert("status".to_owned(), string(status));
    goal_value.insert(
        "tokenBudget".to_owned(),
        num(first_present(Some(goal), &["tokenBudget", "token_budget"])).map_or(Value::Null, number),
    );
    goal_value.insert("tokensUsed".to_owned(), count(&["tokensUsed", "tokens_used"]));
    goal_value.insert("timeUsedSeconds".to_owned(), count(&["timeUsedSeconds", "time_used_seconds"]));
    goal_value.insert("createdAt".to_owned(), count(&["createdAt", "created_at"]));
    goal_value.insert("updatedAt".to_owned(), count(&["updatedAt", "updated_at"]));

    let mut members = vec![
        ("type", string("thread-goal-updated")),
        ("threadId", string(str_of(first_present(Some(data), &["threadId", "thread_id"])).unwrap_or(thread_id))),
    ];
    if let Some(turn) = str_of(first_present(Some(data), &["turnId", "turn_id"])) {
        members.push(("turnId", string(turn)));
    }
    members.push(("goal", Value::Object(goal_value)));
    Some(Event::built(members))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pi_stream_ids() {
        assert!(is_pi_stream("pi-a1b2-turn-3-message-0-text-1"));
        assert!(!is_pi_stream("pi--turn-1-message-1-text-1"));
        assert!(!is_pi_stream("pi-a-turn-1-message-1-text-"));
        assert!(!is_pi_stream("pi-a\n-turn-1-message-1-text-1"));
        assert!(is_pi_stream("pi-x-turn-1-turn-2-message-3-text-44"));
    }

    #[test]
    fn token_count_example() {
        // chat-normalize §15 example 4.
        let data = json!({"type": "token_count", "thread_id": "th-1", "info": {
            "total_token_usage": {"input_tokens": 900, "output_tokens": 40},
            "last_token_usage": {"input_tokens": 120, "cached_input_tokens": 80, "output_tokens": 7},
            "model_context_window": 200000}});
        let (_, usage) = token_usage(&data).unwrap();
        assert_eq!(
            usage,
            Usage {
                input_tokens: 120.0,
                output_tokens: 7.0,
                cache_read_input_tokens: Some(80.0),
                context_tokens: Some(120.0),
                context_window: Some(200000.0),
                thread_id: Some("th-1"),
                ..Usage::default()
            }
        );
        assert!(token_usage(&json!({"info": {"last": [], "input_tokens": 1, "output_tokens": 1}})).is_none());
    }
}
