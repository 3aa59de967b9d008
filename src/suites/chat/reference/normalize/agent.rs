//! The agent role (chat-normalize §6 and §9): the output-family hide filter,
//! payload dispatch to the `output`, `event` and `codex` families, and the
//! stringified fallback for everything the families do not accept.

use super::envelope::{Carry, Record, Wire};
use super::{agy, claude, codex};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{Content, Event, NormalizedMessage};
use crate::suites::chat::reference::stringify::stringify;
use crate::suites::js::{get, is_blank, is_obj, str_of, truthy};
use serde_json::Value;

/// Normalizes a record whose role is exactly `"agent"`; `None` hides it.
pub(super) fn normalize_agent<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let payload = record.payload;
    let kind = if payload.is_object() { str_of(get(payload, "type")) } else { None };
    let normalized = match kind {
        None => {
            trace.hit("agent.payload-stringified");
            None
        }
        Some("output") => {
            let data = get(payload, "data").filter(|data| is_obj(data));
            if let Some(rule) = data.and_then(hide_rule) {
                trace.hit(rule);
                return None;
            }
            normalize_output(wire, record, data, trace)
        }
        Some("event") => normalize_event(wire, record, trace),
        Some("codex") => return codex::normalize_codex(wire, record, trace),
        Some(_) => {
            trace.hit("agent.unknown-payload-type-stringified");
            None
        }
    };
    // Fallback C: the whole payload as agent text.
    Some(normalized.unwrap_or_else(|| wire.fallback_text(stringify(Some(payload)), Carry::Agent, record.meta)))
}

/// The §6.1 hide filter for an output-family entry; the rule that hides it.
fn hide_rule(data: &Value) -> Option<&'static str> {
    if truthy(get(data, "isMeta")) {
        return Some("output.claude.skip.is-meta");
    }
    if truthy(get(data, "isCompactSummary")) {
        return Some("output.claude.skip.is-compact-summary");
    }
    let non_blank_content = || str_of(get(data, "content")).is_some_and(|text| !is_blank(text));
    match str_of(get(data, "type"))? {
        "system" => match str_of(get(data, "subtype")) {
            Some("away_summary") if !non_blank_content() => Some("output.claude.skip.empty-away-summary"),
            Some("api_error" | "turn_duration" | "microcompact_boundary" | "compact_boundary" | "away_summary") => None,
            _ => Some("output.claude.skip.system-subtype"),
        },
        "agy_message" if !non_blank_content() => Some("output.claude.skip.empty-agy-message"),
        "rate_limit_event" => Some("output.claude.skip.rate-limit-event"),
        "tool_progress" => Some("output.claude.skip.tool-progress"),
        _ => None,
    }
}

/// The output family (§7, §8): a Claude SDK entry or an agy entry. `None`
/// sends the message to the stringified fallback.
fn normalize_output<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: Option<&'a Value>,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let Some((data, kind)) = data.and_then(|data| Some((data, str_of(get(data, "type"))?))) else {
        trace.hit("output.not-an-entry-stringified");
        return None;
    };
    match kind {
        "assistant" => claude::assistant(wire, record, data, trace),
        "user" => claude::user_entry(wire, record, data, trace),
        "summary" => claude::summary(wire, record, data, trace),
        "system" => claude::system(wire, record, data, trace),
        "agy_message" => agy::agy_message(wire, record, data, trace),
        "agy_tool_action" => Some(agy::agy_tool_action(wire, record, data, trace)),
        _ => {
            trace.hit("output.unknown-type-stringified");
            None
        }
    }
}

/// The event family (§9): `payload.data` verbatim when it has a string `type`.
fn normalize_event<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let data = get(record.payload, "data").filter(|data| str_of(get(data, "type")).is_some());
    let Some(data) = data else {
        trace.hit("event.invalid-stringified");
        return None;
    };
    trace.hit("event.wire-row");
    let mut message = wire.message(Content::Event(Event::wire(data)), Carry::Agent);
    message.meta = record.meta;
    Some(message)
}
