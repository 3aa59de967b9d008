//! Reference for the `event-fold` suite: normalized events → chat messages
//! with the block model, computed twice — the live path (events applied one
//! at a time as they arrive) and the replay path (stored rows re-read in the
//! database's order and sorted by timestamp, then sequence) — and the case
//! fails when the two disagree, because the seed requires both paths to
//! produce identical output.

mod apply;
mod model;
mod order;
pub mod rule_ids;
mod summary;

pub use rule_ids::RULES;

pub use apply::MAX_SUBAGENT_DEPTH;
pub use summary::{output_text, tool_category};

use crate::json::to_canonical_string;
use crate::suite_api::{NoTrace, RuleTrace, Scope};
use model::Message;
use serde_json::{Map, Value};

/// Folds events, in the given order, into messages.
pub fn fold<'a>(events: impl IntoIterator<Item = &'a Value>, trace: &mut dyn RuleTrace) -> Vec<Value> {
    let mut messages: Vec<Message> = Vec::new();
    let empty = Map::new();
    for event in events {
        let event_type = event.get("type").and_then(Value::as_str).unwrap_or("");
        let data = event.get("data").and_then(Value::as_object).unwrap_or(&empty);
        apply::apply_event(&mut messages, event_type, data, event.get("ts"), trace);
        // Provenance: an event changes the newest message (or adds one).
        match messages.len() {
            0 => trace.emitted(Scope::Case),
            len => trace.emitted(Scope::Items { member: "messages", start: len - 1, end: len }),
        }
    }
    let messages: Vec<Value> = messages.iter().map(Message::to_value).collect();
    for (index, message) in messages.iter().enumerate() {
        claim_summaries(message, &format!("/messages/{index}"), trace);
    }
    messages
}

/// Every tool block's `summary` is decided by `getToolResultSummary`
/// (`fold.tool.summary`), whichever events built the block: a claim of its
/// own for the member, in `blocks`, in `toolEvents` (the same blocks) and in
/// a sub-agent's nested blocks.
fn claim_summaries(holder: &Value, at: &str, trace: &mut dyn RuleTrace) {
    let tools = holder.get("toolEvents").and_then(Value::as_array).map_or(0, Vec::len);
    let Some(blocks) = holder.get("blocks").and_then(Value::as_array) else { return };
    let mut tool = 0;
    for (index, block) in blocks.iter().enumerate() {
        match block.get("kind").and_then(Value::as_str) {
            Some("tool") => {
                trace.hit("fold.tool.summary");
                if trace.keeps_provenance() {
                    trace.emitted(Scope::Pointer(&format!("{at}/blocks/{index}/summary")));
                    if tool < tools {
                        trace.also(Scope::Pointer(&format!("{at}/toolEvents/{tool}/summary")));
                    }
                }
                tool += 1;
            }
            Some("subagent") => {
                if let Some(subagent) = block.get("subagent") {
                    claim_summaries(subagent, &format!("{at}/blocks/{index}/subagent"), trace);
                }
            }
            _ => {}
        }
    }
}

/// The suite reference: `{events, replayOrder?}` → `{messages}`, or an
/// error when the live and replay paths disagree.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let input = input.as_object().ok_or("the input is not a JSON object")?;
    let events = input.get("events").and_then(Value::as_array).ok_or("`events` must be an array")?;
    if let Some(index) = events.iter().position(|event| !event.is_object()) {
        return Err(format!("events[{index}] is not a JSON object"));
    }
    let returned = match input.get("replayOrder") {
        None => (0..events.len()).collect(),
        Some(order) => read_permutation(order, events.len())?,
    };

    let live = fold(events, trace);
    let replayed = order::replay_order(events, &returned)?;
    let replay = fold(replayed.iter().filter_map(|&index| events.get(index)), &mut NoTrace);
    if live != replay {
        return Err(disagreement(&live, &replay));
    }
    let mut output = Map::new();
    output.insert("messages".to_owned(), Value::Array(live));
    Ok(Value::Object(output))
}

/// `replayOrder` must list every event index exactly once.
fn read_permutation(order: &Value, len: usize) -> Result<Vec<usize>, String> {
    let order = order.as_array().ok_or("`replayOrder` must be an array of event indexes")?;
    let mut seen = vec![false; len];
    let mut indexes = Vec::with_capacity(order.len());
    for entry in order {
        let index = crate::suites::js::js_uint(Some(entry))
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < len)
            .ok_or_else(|| format!("replayOrder entry {entry} is not an event index below {len}"))?;
        let seen_before = seen.get_mut(index).map(|slot| std::mem::replace(slot, true));
        if seen_before != Some(false) {
            return Err(format!("replayOrder lists event {index} twice"));
        }
        indexes.push(index);
    }
    if indexes.len() != len {
        return Err(format!("replayOrder lists {} of {len} events", indexes.len()));
    }
    Ok(indexes)
}

fn disagreement(live: &[Value], replay: &[Value]) -> String {
    let position = live.iter().zip(replay).position(|(a, b)| a != b).unwrap_or(live.len().min(replay.len()));
    let show = |messages: &[Value]| {
        messages
            .get(position)
            .map_or_else(|| "(no message)".to_owned(), |m| to_canonical_string(m).trim_end().to_owned())
    };
    format!(
        "the live and replay paths disagree: live has {} messages, replay {}; first difference at message {position}\nlive:   {}\nreplay: {}",
        live.len(),
        replay.len(),
        show(live),
        show(replay)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_whose_stored_order_loses_the_arrival_order_fail_the_case() {
        // Arrived "a" then "b", but stored with "b" a millisecond earlier:
        // replay rebuilds "ba", the live path "ab".
        let input = json!({"events": [
            {"type": "delta", "data": {"text": "a"}, "ts": "2026-11-29T17:23:45.001Z", "seq": 1},
            {"type": "delta", "data": {"text": "b"}, "ts": "2026-11-29T17:23:45.000Z", "seq": 2},
        ]});
        let err = run(&input, &mut NoTrace).unwrap_err();
        assert!(err.starts_with("the live and replay paths disagree"), "{err}");
        // Without a sequence number equal timestamps keep the returned order,
        // so a shuffled return order also splits the paths.
        let input = json!({"events": [
            {"type": "delta", "data": {"text": "a"}, "ts": "2026-11-29T17:23:45.000Z"},
            {"type": "delta", "data": {"text": "b"}, "ts": "2026-11-29T17:23:45.000Z"},
        ], "replayOrder": [1, 0]});
        assert!(run(&input, &mut NoTrace).is_err());
    }

    #[test]
    fn replay_order_must_be_a_permutation() {
        let events = json!([{"type": "done", "data": {}}, {"type": "done", "data": {}}]);
        for order in [json!([0]), json!([0, 0]), json!([0, 2]), json!("0,1")] {
            assert!(run(&json!({"events": events, "replayOrder": order}), &mut NoTrace).is_err(), "{order}");
        }
        assert!(run(&json!({"events": events, "replayOrder": [1, 0]}), &mut NoTrace).is_ok());
    }
}
