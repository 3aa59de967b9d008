//! Combining rows: the one merge procedure every mutation of the window uses.
//!
//! Beyond de-duplicating by id, the merge reconciles optimistic rows with
//! their stored echoes (matched by `localId`), drops a sent optimistic row
//! once a stored user row lands near its position, turns stale `queued`
//! statuses into `sent`, and sorts.

use super::row::{InvokedAt, Row, number_value, sort_rows};
use crate::suite_api::RuleTrace;
use std::collections::{HashMap, HashSet};

/// A sent optimistic row is dropped when a stored user row lands this close
/// (in ms, strictly) to its position: the echo without a matching `localId`.
pub const SENT_FALLBACK_WINDOW_MS: f64 = 10_000.0;

/// What an optimistic row hands over to the stored rows echoing it.
#[derive(Default)]
struct Handover {
    status: Option<String>,
    invoked_at: Option<InvokedAt>,
    steered: bool,
}

/// Merges `incoming` into `existing` and returns the sorted result.
pub fn merge(existing: Vec<Row>, incoming: Vec<Row>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    if existing.is_empty() || incoming.is_empty() {
        if existing.is_empty() && !incoming.is_empty() {
            // Into an empty window every row is kept, repeated ids included.
            trace.hit("pagination.merge.into-empty-keeps-all");
        }
        let mut rows = existing;
        rows.extend(incoming);
        return normalize_and_sort(rows, trace);
    }
    let echo_keys: HashSet<String> = incoming
        .iter()
        .filter(|row| !row.is_optimistic())
        .filter_map(|row| row.local_key().map(str::to_owned))
        .collect();
    let mut slots = Slots::default();
    for row in existing {
        slots.put(row, |_, _| {});
    }
    for row in incoming {
        slots.put(row, |stored, newcomer| {
            if let (InvokedAt::At(time), InvokedAt::Absent | InvokedAt::Null) =
                (&stored.invoked_at, &newcomer.invoked_at)
            {
                trace.hit("pagination.merge.redelivery-keeps-invoked-at");
                newcomer.invoked_at = InvokedAt::At(time.clone());
            }
            if stored.steered && !newcomer.steered {
                newcomer.steered = true;
            }
        });
    }
    let mut rows: Vec<Row> = slots.rows.into_iter().flatten().collect();
    if !echo_keys.is_empty() {
        rows = reconcile_echoes(rows, &echo_keys, trace);
    }
    rows = drop_echoed_sent_rows(rows, trace);
    normalize_and_sort(rows, trace)
}

/// Rows keyed by id in first-insertion order; a later row with the same id
/// takes the earlier one's slot.
#[derive(Default)]
struct Slots {
    rows: Vec<Option<Row>>,
    by_id: HashMap<String, usize>,
}

impl Slots {
    fn put(&mut self, mut row: Row, mut carry_over: impl FnMut(&Row, &mut Row)) {
        match self.by_id.get(&row.id).and_then(|&slot| self.rows.get_mut(slot)) {
            Some(slot) => {
                if let Some(stored) = slot.as_ref() {
                    carry_over(stored, &mut row);
                }
                *slot = Some(row);
            }
            None => {
                self.by_id.insert(row.id.clone(), self.rows.len());
                self.rows.push(Some(row));
            }
        }
    }
}

/// Replaces optimistic rows by the stored rows echoing their `localId`; the
/// echoes inherit the client status, a known invocation and `steered`.
fn reconcile_echoes(rows: Vec<Row>, echo_keys: &HashSet<String>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    let mut handovers: HashMap<String, Handover> = HashMap::new();
    let mut kept = Vec::with_capacity(rows.len());
    for row in rows {
        match row.local_key().filter(|key| row.is_optimistic() && echo_keys.contains(*key)) {
            Some(key) => {
                trace.hit("pagination.merge.echo-replaces-optimistic");
                let handover = Handover {
                    status: row.status.clone().filter(|status| !status.is_empty()),
                    invoked_at: (row.invoked_at != InvokedAt::Absent).then(|| row.invoked_at.clone()),
                    steered: row.steered,
                };
                handovers.insert(key.to_owned(), handover);
            }
            None => kept.push(row),
        }
    }
    for row in &mut kept {
        let Some(handover) = row.local_key().and_then(|key| handovers.get(key)) else { continue };
        if let Some(status) = handover.status.as_ref().filter(|_| row.status.is_none()) {
            if status == "queued" && row.invoked_at.time().is_some() {
                trace.hit("pagination.merge.invoked-echo-skips-queued");
            } else {
                trace.hit("pagination.merge.echo-inherits-status");
                row.status = Some(status.clone());
            }
        }
        if let Some(InvokedAt::At(time)) = &handover.invoked_at
            && row.invoked_at.time().is_none()
        {
            trace.hit("pagination.merge.echo-inherits-invoked-at");
            row.invoked_at = InvokedAt::At(time.clone());
        }
        if handover.steered {
            row.steered = true;
        }
    }
    kept
}

/// Drops each sent optimistic row when some stored user row sits within
/// [`SENT_FALLBACK_WINDOW_MS`] of it (any user row, not only its echo).
fn drop_echoed_sent_rows(rows: Vec<Row>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    let stored_user_times: Vec<f64> =
        rows.iter().filter(|row| row.facts.user && !row.is_optimistic()).map(|row| number_value(row.at())).collect();
    if stored_user_times.is_empty() {
        return rows;
    }
    let mut kept = Vec::with_capacity(rows.len());
    for row in rows {
        let at = number_value(row.at());
        let echoed = row.is_optimistic()
            && row.has_status("sent")
            && stored_user_times.iter().any(|time| (time - at).abs() < SENT_FALLBACK_WINDOW_MS);
        if echoed {
            trace.hit("pagination.merge.sent-optimistic-fallback");
        } else {
            kept.push(row);
        }
    }
    kept
}

/// Stale-queued normalization (a `queued` row already invoked is `sent`),
/// then the display sort.
pub fn normalize_and_sort(mut rows: Vec<Row>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    for row in &mut rows {
        if row.has_status("queued") && row.invoked_at.time().is_some() {
            trace.hit("pagination.merge.stale-queued-is-sent");
            row.status = Some("sent".to_owned());
        }
    }
    sort_rows(rows, trace)
}
