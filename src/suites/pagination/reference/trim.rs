//! Bounding the window: the reasoning collapse and the trim.
//!
//! The trim keeps queued rows unconditionally (they shrink the regular
//! budget), gives codex agent-run rows a budget of their own, and cuts the
//! regular rows from the oldest side (append) or the newest side (prepend).
//! Reasoning snapshots of one stream are collapsed to the newest first; that
//! collapse is not a trim (it never sets `hasMore` or moves a cursor).

use super::merge::merge;
use super::row::{Position, Row};
use crate::suite_api::RuleTrace;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// Regular rows kept in tail view, and by every latest-page application.
pub const TAIL_WINDOW: usize = 400;
/// Regular rows kept in history view.
pub const HISTORY_WINDOW: usize = 600;
/// Regular rows kept while merging an older page.
pub const OLDER_LOAD_WINDOW: usize = 800;
/// Agent-run rows kept, in every view.
pub const AGENT_RUN_WINDOW: usize = 800;

/// Which side of the window survives a trim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrimMode {
    /// Rows were added at the newest end: keep the newest, drop the oldest.
    Append,
    /// Rows were added at the oldest end: keep the oldest, drop the newest.
    Prepend,
}

/// Keeps one row per reasoning stream: a later row replaces the stream's
/// current winner when either lacks a position or the later one's position
/// is at least the winner's.
pub fn collapse_reasoning(rows: Vec<Row>, trace: &mut dyn RuleTrace) -> Vec<Row> {
    let mut winners: HashMap<&str, (usize, Option<Position>)> = HashMap::new();
    for (index, row) in rows.iter().enumerate() {
        let Some(stream) = row.stream.as_deref() else { continue };
        let position = row.position();
        let replaces = match winners.get(stream) {
            None => true,
            Some((_, winner)) => match (winner, &position) {
                (Some(winner), Some(position)) => position.compare(winner) != Ordering::Less,
                _ => true,
            },
        };
        if replaces {
            winners.insert(stream, (index, position));
        }
    }
    let winning: HashSet<usize> = winners.values().map(|(index, _)| *index).collect();
    let streamed = rows.iter().filter(|row| row.stream.is_some()).count();
    if streamed > winning.len() {
        trace.hit("pagination.collapse.reasoning-newest-wins");
    }
    rows.into_iter()
        .enumerate()
        .filter(|(index, row)| row.stream.is_none() || winning.contains(index))
        .map(|(_, row)| row)
        .collect()
}

/// Trims `rows` to `limit` regular rows; returns the rows and whether any row
/// was dropped (the collapse does not count).
pub fn trim(rows: Vec<Row>, limit: usize, mode: TrimMode, trace: &mut dyn RuleTrace) -> (Vec<Row>, bool) {
    let rows = collapse_reasoning(rows, trace);
    let (queued, rest): (Vec<Row>, Vec<Row>) = rows.into_iter().partition(Row::is_queued);
    let queued_ids: HashSet<&str> = queued.iter().map(|row| row.id.as_str()).collect();
    let (agent_runs, regular): (Vec<Row>, Vec<Row>) =
        rest.into_iter().filter(|row| !queued_ids.contains(row.id.as_str())).partition(|row| row.facts.agent_run);
    let (regular, regular_dropped) = keep(regular, limit.saturating_sub(queued.len()), mode);
    let (agent_runs, runs_dropped) = keep(agent_runs, AGENT_RUN_WINDOW, mode);
    let trimmed = regular_dropped || runs_dropped;
    if trimmed {
        trace.hit(match mode {
            TrimMode::Append => "pagination.trim.append-drops-oldest",
            TrimMode::Prepend => "pagination.trim.prepend-drops-newest",
        });
    }
    if !queued.is_empty() {
        trace.hit("pagination.trim.queued-never-trimmed");
    }
    let mut kept = regular;
    kept.extend(agent_runs);
    (merge(kept, queued, trace), trimmed)
}

/// Keeps at most `budget` rows from the side `mode` keeps.
fn keep(mut rows: Vec<Row>, budget: usize, mode: TrimMode) -> (Vec<Row>, bool) {
    if rows.len() <= budget {
        return (rows, false);
    }
    match mode {
        TrimMode::Append => {
            let newest = rows.split_off(rows.len() - budget);
            (newest, true)
        }
        TrimMode::Prepend => {
            rows.truncate(budget);
            (rows, true)
        }
    }
}
