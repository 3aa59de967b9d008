//! The replay path's row order: rows as the database returned them, sorted
//! by timestamp, then sequence number (`ORDER BY created_at, seq`).
//!
//! Timestamps are stored at millisecond precision, so two events in the same
//! millisecond tie on time and only `seq` orders them (the seed's
//! "scrambled tokens" fix). A row without `ts` or `seq` sorts before rows
//! that have one, as SQL sorts NULL; exact ties keep the returned order.

use chrono::{DateTime, NaiveDateTime};
use serde_json::Value;
use std::cmp::Ordering;

/// A row's sort key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowKey {
    /// Milliseconds since the epoch, truncated.
    pub ts: Option<i64>,
    /// The per-session sequence number.
    pub seq: Option<f64>,
}

impl RowKey {
    /// Reads `ts` and `seq` of event `index`.
    pub fn of(event: &Value, index: usize) -> Result<RowKey, String> {
        let ts = match event.get("ts") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(
                parse_millis(text)
                    .ok_or_else(|| format!("events[{index}].ts is not an ISO 8601 timestamp: {text:?}"))?,
            ),
            Some(Value::Number(millis)) => millis.as_f64().map(|m| m.floor() as i64),
            Some(_) => return Err(format!("events[{index}].ts must be a string or a number")),
        };
        let seq = match event.get("seq") {
            None | Some(Value::Null) => None,
            Some(Value::Number(seq)) => seq.as_f64(),
            Some(_) => return Err(format!("events[{index}].seq must be a number")),
        };
        Ok(RowKey { ts, seq })
    }

    fn cmp(&self, other: &RowKey) -> Ordering {
        self.ts.cmp(&other.ts).then_with(|| match (self.seq, other.seq) {
            (Some(a), Some(b)) => a.total_cmp(&b),
            (a, b) => a.is_some().cmp(&b.is_some()),
        })
    }
}

/// Milliseconds since the epoch of an RFC 3339 timestamp, or of a
/// timestamp without offset (`2026-03-16 15:47:38.086`, read as UTC).
fn parse_millis(text: &str) -> Option<i64> {
    if let Ok(instant) = DateTime::parse_from_rfc3339(text) {
        return Some(instant.timestamp_millis());
    }
    ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f"]
        .iter()
        .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
        .map(|naive| naive.and_utc().timestamp_millis())
}

/// The event indexes in replay order: `returned` (the database's row order)
/// stably sorted by [`RowKey`].
pub fn replay_order(events: &[Value], returned: &[usize]) -> Result<Vec<usize>, String> {
    let mut rows = Vec::with_capacity(returned.len());
    for &index in returned {
        let event =
            events.get(index).ok_or_else(|| format!("replayOrder names event {index}, which does not exist"))?;
        rows.push((RowKey::of(event, index)?, index));
    }
    rows.sort_by(|(a, _), (b, _)| a.cmp(b));
    Ok(rows.into_iter().map(|(_, index)| index).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_millisecond_ties_are_ordered_by_seq() {
        let events = [
            json!({"ts": "2026-03-16T15:47:38.086Z", "seq": 10}),
            json!({"ts": "2026-03-16T15:47:38.0861Z", "seq": 11}),
            json!({"ts": "2026-03-16 15:47:38.086", "seq": 12}),
            json!({"ts": "2026-03-16T15:47:38.085Z", "seq": 13}),
        ];
        assert_eq!(replay_order(&events, &[2, 1, 0, 3]).unwrap(), [3, 0, 1, 2]);
    }

    #[test]
    fn bad_timestamps_and_indexes_are_errors() {
        assert!(replay_order(&[json!({"ts": "yesterday"})], &[0]).is_err());
        assert!(replay_order(&[json!({})], &[1]).is_err());
    }
}
