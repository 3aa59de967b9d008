//! The message-window store: its state and its operations.
//!
//! Every operation runs to completion before the next one starts (the op
//! script is sequential), so the concurrency refinements of the client (a
//! single-flight tail sync, superseded older loads) never apply here: an
//! older load is never `busy` or `invalidated`.

use super::merge::{merge, normalize_and_sort};
use super::page::{FetchError, MessagesServer, Page, Request};
use super::row::{InvokedAt, Position, Row, max_position, newest_position, number_value, oldest_position};
use super::trim::{HISTORY_WINDOW, OLDER_LOAD_WINDOW, TAIL_WINDOW, TrimMode, trim};
use crate::suite_api::RuleTrace;
use serde_json::{Number, Value, json};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// Which end of the conversation the user is looking at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewMode {
    /// Following the live bottom.
    Tail,
    /// Scrolled back into older history.
    History,
}

impl ViewMode {
    /// The fixture spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ViewMode::Tail => "tail",
            ViewMode::History => "history",
        }
    }

    /// The trim applied to ordinary merges in this view.
    fn merge_shape(self) -> (TrimMode, usize) {
        match self {
            ViewMode::Tail => (TrimMode::Append, TAIL_WINDOW),
            ViewMode::History => (TrimMode::Prepend, HISTORY_WINDOW),
        }
    }
}

/// The outcome of an older-page load, as recorded in `expectedOutcome`.
#[derive(Clone, Debug, PartialEq)]
pub enum OlderOutcome {
    /// The page was merged.
    Applied {
        /// The page's `hasMore`.
        has_more: bool,
        /// New retained rows the page brought (before collapse and trim).
        added_renderable_count: usize,
    },
    /// No older history (`hasMore` is false).
    Exhausted,
    /// Older history exists but there is no cursor to ask for it.
    Unavailable,
    /// The page's epoch differed from the cached one: the window was reset.
    EpochReset,
    /// The request failed.
    Failed,
}

impl OlderOutcome {
    /// `{kind, …}` as recorded in fixtures.
    pub fn to_json(&self) -> Value {
        match self {
            OlderOutcome::Applied { has_more, added_renderable_count } => {
                json!({"kind": "applied", "hasMore": has_more, "addedRenderableCount": added_renderable_count})
            }
            OlderOutcome::Exhausted => json!({"kind": "stopped", "reason": "exhausted"}),
            OlderOutcome::Unavailable => json!({"kind": "stopped", "reason": "unavailable"}),
            OlderOutcome::EpochReset => json!({"kind": "stopped", "reason": "epoch-reset"}),
            OlderOutcome::Failed => json!({"kind": "failed"}),
        }
    }
}

/// The window of one session.
#[derive(Clone, Debug)]
pub struct Store {
    /// Rows in display order.
    pub rows: Vec<Row>,
    /// Older history exists (server flag or a trim).
    pub has_more: bool,
    /// The cached epoch.
    pub epoch: Option<Number>,
    /// The current view.
    pub view_mode: ViewMode,
    /// Feeds the next before-request.
    pub older_cursor: Option<Position>,
    /// Feeds the next after-request.
    pub newest_cursor: Option<Position>,
    /// The window no longer reaches the tail: the next sync must replace it.
    pub latest_reset_required: bool,
    /// The last warning a failed sync left (not projected).
    pub warning: Option<String>,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            rows: Vec::new(),
            has_more: false,
            epoch: None,
            view_mode: ViewMode::Tail,
            older_cursor: None,
            newest_cursor: None,
            latest_reset_required: false,
            warning: None,
        }
    }
}

impl Store {
    /// Merges incoming rows into the window with the given trim (default: the
    /// view's) and applies the trim's cursor side effects. Returns whether
    /// anything was trimmed.
    fn window_merge(
        &mut self,
        incoming: Vec<Row>,
        shape: Option<(TrimMode, usize)>,
        trace: &mut dyn RuleTrace,
    ) -> bool {
        let retained: Vec<Row> = incoming.into_iter().filter(Row::is_retained).collect();
        if retained.is_empty() {
            return false;
        }
        let (mode, limit) = shape.unwrap_or(self.view_mode.merge_shape());
        let merged = merge(std::mem::take(&mut self.rows), retained, trace);
        let (rows, trimmed) = trim(merged, limit, mode, trace);
        self.rows = rows;
        if trimmed {
            match mode {
                TrimMode::Append => {
                    self.has_more = true;
                    if let Some(oldest) = oldest_position(&self.rows) {
                        self.older_cursor = Some(oldest);
                    }
                }
                TrimMode::Prepend => {
                    trace.hit("pagination.history-overflow-requires-latest-reset");
                    self.latest_reset_required = true;
                    self.newest_cursor = newest_position(&self.rows);
                }
            }
        }
        trimmed
    }

    /// Applies a latest page; `replace` keeps only the optimistic rows of the
    /// window.
    fn apply_latest_page(&mut self, page: Page, replace: bool, trace: &mut dyn RuleTrace) {
        let snapshot_head = page.snapshot_head.clone().or_else(|| {
            trace.hit("pagination.latest.head-from-response-rows");
            newest_position(&page.rows)
        });
        let retained: Vec<Row> = page.rows.into_iter().filter(Row::is_retained).collect();
        let previous = std::mem::take(&mut self.rows);
        let concurrent = concurrent_rows(&previous);
        let preserved = if replace {
            trace.hit("pagination.latest.replace-keeps-optimistic");
            let mut preserved: Vec<Row> = previous.iter().filter(|row| row.is_optimistic()).cloned().collect();
            preserved.extend(concurrent.iter().cloned());
            preserved
        } else {
            previous
        };
        let mut merged = merge(preserved, retained, trace);
        if !concurrent.is_empty() {
            // Merged back over the response, so they win over its rows.
            trace.hit("pagination.latest.duplicate-merged-back");
            merged = merge(merged, concurrent, trace);
        }
        let (rows, trimmed) = trim(merged, TAIL_WINDOW, TrimMode::Append, trace);
        self.rows = rows;
        self.newest_cursor = max_position(snapshot_head, newest_position(&self.rows));
        self.older_cursor = if trimmed {
            oldest_position(&self.rows)
        } else if replace {
            page.next_before
        } else {
            page.next_before.or(self.older_cursor.take())
        };
        self.has_more = page.has_more || (!replace && self.has_more) || trimmed;
        self.epoch = Some(page.epoch);
        self.latest_reset_required = false;
    }

    /// `sync-tail`: a latest request when there is no usable cursor, else the
    /// after-cursor catch-up loop.
    pub fn sync_tail(&mut self, server: &mut dyn MessagesServer, trace: &mut dyn RuleTrace) -> Result<(), String> {
        let (Some(after), Some(epoch), false) =
            (self.newest_cursor.clone(), self.epoch.clone(), self.latest_reset_required)
        else {
            let replace_required = self.latest_reset_required;
            let Some(page) = fetch(server, Request::Latest, self)? else { return Ok(()) };
            trace.hit("pagination.sync-tail.latest");
            let replace = replace_required || page.reset;
            self.apply_latest_page(page, replace, trace);
            return Ok(());
        };
        trace.hit("pagination.sync-tail.incremental");
        let mut after = after;
        let mut until: Option<Position> = None;
        loop {
            let request = Request::After { after: after.clone(), until: until.clone(), epoch: epoch.clone() };
            let Some(page) = fetch(server, request, self)? else { return Ok(()) };
            if page.reset || page.direction == "latest" {
                trace.hit("pagination.sync-tail.reset-page-replaces");
                self.apply_latest_page(page, true, trace);
                return Ok(());
            }
            let next_after = page.next_after.clone();
            if until.is_none() {
                until = page.snapshot_head.clone();
            }
            let has_more = page.has_more;
            self.window_merge(page.rows, None, trace);
            self.epoch = Some(page.epoch);
            if !self.latest_reset_required {
                self.newest_cursor = max_position(next_after.clone(), self.newest_cursor.take());
            }
            let Some(next_after) = next_after.filter(|_| has_more && !self.latest_reset_required) else {
                return Ok(());
            };
            if next_after.compare(&after) != Ordering::Greater {
                trace.hit("pagination.sync-tail.cursor-did-not-advance");
                self.warning = Some("Message tail cursor did not advance".to_owned());
                return Ok(());
            }
            after = next_after;
        }
    }

    /// `fetch-older`: one older page, or the reason none was requested.
    pub fn fetch_older(
        &mut self,
        server: &mut dyn MessagesServer,
        trace: &mut dyn RuleTrace,
    ) -> Result<OlderOutcome, String> {
        if !self.has_more {
            trace.hit("pagination.fetch-older.exhausted");
            return Ok(OlderOutcome::Exhausted);
        }
        let Some(cursor) = self.older_cursor.clone() else {
            trace.hit("pagination.fetch-older.unavailable");
            return Ok(OlderOutcome::Unavailable);
        };
        let cached_epoch = self.epoch.clone();
        let Some(page) = fetch(server, Request::Before(cursor), self)? else {
            self.warning = Some("Failed to load older messages".to_owned());
            return Ok(OlderOutcome::Failed);
        };
        if let Some(cached) = cached_epoch
            && number_value(&cached) != number_value(&page.epoch)
        {
            trace.hit("pagination.fetch-older.epoch-mismatch-resets");
            self.epoch = None;
            self.newest_cursor = None;
            self.latest_reset_required = true;
            self.sync_tail(server, trace)?;
            return Ok(OlderOutcome::EpochReset);
        }
        let added_renderable_count = self.added_renderable_count(&page.rows);
        let has_more = page.has_more;
        self.window_merge(page.rows, Some((TrimMode::Prepend, OLDER_LOAD_WINDOW)), trace);
        self.has_more = has_more;
        self.epoch = Some(page.epoch);
        self.older_cursor = page.next_before;
        trace.hit("pagination.fetch-older.applied");
        Ok(OlderOutcome::Applied { has_more, added_renderable_count })
    }

    /// New retained rows an older page brings: not already in the window by
    /// id or non-empty `localId`, and not repeated within the page.
    fn added_renderable_count(&self, incoming: &[Row]) -> usize {
        let mut ids: HashSet<&str> = self.rows.iter().map(|row| row.id.as_str()).collect();
        let mut local_ids: HashSet<&str> = self.rows.iter().filter_map(Row::local_key).collect();
        let mut count = 0;
        for row in incoming.iter().filter(|row| row.is_retained()) {
            if ids.contains(row.id.as_str()) || row.local_key().is_some_and(|key| local_ids.contains(key)) {
                continue;
            }
            count += 1;
            ids.insert(row.id.as_str());
            local_ids.extend(row.local_key());
        }
        count
    }

    /// `sse-messages`: a live delivery. With an epoch cached (and no reset
    /// pending) the newest cursor advances past every delivered row, hidden
    /// ones included.
    pub fn ingest_live(&mut self, rows: Vec<Row>, trace: &mut dyn RuleTrace) {
        if rows.is_empty() {
            return;
        }
        let newest_delivered = newest_position(&rows);
        self.window_merge(rows, None, trace);
        if self.epoch.is_none() || self.latest_reset_required {
            return;
        }
        if let Some(newest) = newest_delivered
            && self.newest_cursor.as_ref().is_none_or(|cursor| newest.compare(cursor) == Ordering::Greater)
        {
            trace.hit("pagination.live.advances-newest-cursor");
            self.newest_cursor = Some(newest);
        }
    }

    /// `append-optimistic`: merge one local row; cursors move only through a
    /// trim.
    pub fn append_optimistic(&mut self, row: Row, trace: &mut dyn RuleTrace) {
        self.window_merge(vec![row], None, trace);
    }

    /// `update-status`: set the client status of every row with this
    /// `localId`; no merge, sort or normalization.
    pub fn update_status(&mut self, local_id: &str, status: &str, trace: &mut dyn RuleTrace) {
        if local_id.is_empty() {
            return;
        }
        for row in self.rows.iter_mut().filter(|row| row.local_id.as_deref() == Some(local_id)) {
            if !row.has_status(status) {
                trace.hit("pagination.update-status.set");
                row.status = Some(status.to_owned());
            }
        }
    }

    /// `messages-consumed`: stamp `invokedAt` on queued rows (never on an
    /// absent one) and mark them `sent`, skipping `failed` rows; re-sort.
    pub fn mark_consumed(&mut self, local_ids: &[String], invoked_at: &Number, trace: &mut dyn RuleTrace) {
        if local_ids.is_empty() {
            return;
        }
        let mut changed = false;
        for row in &mut self.rows {
            let matches = row.local_key().is_some_and(|key| local_ids.iter().any(|local_id| local_id == key));
            if !matches || row.has_status("failed") {
                continue;
            }
            let needs_status = !row.has_status("sent");
            let needs_stamp = row.invoked_at == InvokedAt::Null;
            if needs_status {
                row.status = Some("sent".to_owned());
            }
            if needs_stamp {
                trace.hit("pagination.consumed.stamps-invoked-at");
                row.invoked_at = InvokedAt::At(invoked_at.clone());
            }
            changed |= needs_status || needs_stamp;
        }
        if changed {
            self.rows = normalize_and_sort(std::mem::take(&mut self.rows), trace);
        }
    }

    /// `message-cancelled`: remove every row whose `localId` or `id` is `key`.
    pub fn remove(&mut self, key: &str, trace: &mut dyn RuleTrace) {
        if key.is_empty() {
            return;
        }
        let before = self.rows.len();
        self.rows.retain(|row| row.local_id.as_deref() != Some(key) && row.id != key);
        if self.rows.len() != before {
            trace.hit("pagination.cancelled.removes-row");
        }
    }

    /// `cancel-invoked`: the cancel came too late; replace the row by the
    /// server's invoked copy with status `sent`.
    pub fn cancel_invoked(&mut self, local_id: &str, mut row: Row, trace: &mut dyn RuleTrace) {
        self.remove(local_id, trace);
        row.status = Some("sent".to_owned());
        self.append_optimistic(row, trace);
    }

    /// `set-view-mode`. Entering tail trims to the tail window and, after a
    /// history overflow, drops the epoch and newest cursor so the next sync
    /// takes the latest path.
    pub fn set_view_mode(&mut self, mode: ViewMode, trace: &mut dyn RuleTrace) {
        if mode == self.view_mode {
            return;
        }
        if mode == ViewMode::Tail {
            let (rows, trimmed) = trim(std::mem::take(&mut self.rows), TAIL_WINDOW, TrimMode::Append, trace);
            self.rows = rows;
            if trimmed {
                self.older_cursor = oldest_position(&self.rows);
                self.has_more = true;
            }
            if self.latest_reset_required {
                trace.hit("pagination.view.tail-after-overflow-drops-cursors");
                self.epoch = None;
                self.newest_cursor = None;
            }
        }
        self.view_mode = mode;
    }

    /// `queued-state`: the reconcile round trip after a resume gap. Returns the
    /// candidates sent to the server.
    pub fn reconcile_queued(
        &mut self,
        queued_local_ids: &[String],
        invoked: &[(String, Number)],
        trace: &mut dyn RuleTrace,
    ) -> Vec<String> {
        let mut candidates: Vec<String> = Vec::new();
        for key in self.rows.iter().filter(|row| is_reconcile_candidate(row)).filter_map(Row::local_key) {
            if !candidates.iter().any(|candidate| candidate == key) {
                candidates.push(key.to_owned());
            }
        }
        // One consume per distinct time, in order of first appearance.
        let mut groups: Vec<(Number, Vec<String>)> = Vec::new();
        for (local_id, time) in invoked {
            match groups.iter_mut().find(|(group_time, _)| number_value(group_time) == number_value(time)) {
                Some((_, local_ids)) => local_ids.push(local_id.clone()),
                None => groups.push((time.clone(), vec![local_id.clone()])),
            }
        }
        for (time, local_ids) in &groups {
            self.mark_consumed(local_ids, time, trace);
        }
        if !candidates.is_empty() {
            let before = self.rows.len();
            self.rows.retain(|row| {
                let Some(key) = row.local_key() else { return true };
                let deleted = candidates.iter().any(|candidate| candidate == key)
                    && !queued_local_ids.iter().any(|queued| queued == key)
                    && is_reconcile_candidate(row);
                !deleted
            });
            if self.rows.len() != before {
                trace.hit("pagination.queued-state.drops-deleted");
            }
        }
        candidates
    }
}

/// A row whose queued state the server is asked about: queued, with a
/// non-empty `localId`, and stored or already acknowledged (an optimistic row
/// still `sending` or without status is excluded).
/// The rows a latest-page application treats as concurrent arrivals.
///
/// The web pipeline snapshots the window by id when it sends a latest
/// request, and when the response is merged, every non-optimistic row that
/// is not the snapshot's row for its id counts as having arrived while the
/// request was in flight: it is kept even when the page replaces the window,
/// and merged again after the response. In a sequential replay nothing
/// arrives meanwhile, but a window holding two rows with one id (a delivery
/// into an empty window keeps both) snapshots only the last of them, so the
/// earlier copies are such rows. (pagination.md §9.2 calls the sequential
/// replay exact; it is not, for this reason.)
fn concurrent_rows(rows: &[Row]) -> Vec<Row> {
    let mut last_of_id: HashMap<&str, usize> = HashMap::new();
    for (index, row) in rows.iter().enumerate() {
        last_of_id.insert(row.id.as_str(), index);
    }
    rows.iter()
        .enumerate()
        .filter(|(index, row)| !row.is_optimistic() && last_of_id.get(row.id.as_str()) != Some(index))
        .map(|(_, row)| row.clone())
        .collect()
}

fn is_reconcile_candidate(row: &Row) -> bool {
    row.local_key().is_some()
        && row.is_queued()
        && (!row.is_optimistic() || row.has_status("queued") || row.has_status("sent"))
}

/// Issues a request. `Ok(None)` is a failed request (the store carries on as
/// the client does); a malformed response is an error of the case.
fn fetch(server: &mut dyn MessagesServer, request: Request, store: &mut Store) -> Result<Option<Page>, String> {
    match server.get_messages(request) {
        Ok(page) => Ok(Some(page)),
        Err(FetchError::Failed) => {
            store.warning = Some("Failed to synchronize messages".to_owned());
            Ok(None)
        }
        Err(FetchError::Malformed(problem)) => Err(problem),
    }
}
