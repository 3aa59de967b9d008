//! The normative projection of the final window (`expectedState`).
//!
//! Rows keep identity, position and send-state members only; `content`,
//! `deliveryState`, `steered` and every store-internal flag are left out.

use super::row::{InvokedAt, Position, Row};
use super::store::Store;
use serde_json::{Map, Value};

/// `{messages, hasMore, epoch, viewMode, olderCursor, newestCursor}`.
pub fn project(store: &Store) -> Value {
    let mut state = Map::new();
    state.insert("messages".to_owned(), Value::Array(store.rows.iter().map(project_row).collect()));
    state.insert("hasMore".to_owned(), Value::Bool(store.has_more));
    state.insert("epoch".to_owned(), store.epoch.clone().map_or(Value::Null, Value::Number));
    state.insert("viewMode".to_owned(), Value::from(store.view_mode.as_str()));
    state.insert("olderCursor".to_owned(), cursor(store.older_cursor.as_ref()));
    state.insert("newestCursor".to_owned(), cursor(store.newest_cursor.as_ref()));
    Value::Object(state)
}

fn cursor(position: Option<&Position>) -> Value {
    position.map_or(Value::Null, Position::to_json)
}

/// One row: `invokedAt`, `scheduledAt` and `status` only when present.
pub fn project_row(row: &Row) -> Value {
    let mut projected = Map::new();
    projected.insert("id".to_owned(), Value::from(row.id.as_str()));
    projected.insert("localId".to_owned(), row.local_id.as_deref().map_or(Value::Null, Value::from));
    projected.insert("seq".to_owned(), row.seq.clone().map_or(Value::Null, Value::Number));
    projected.insert("createdAt".to_owned(), Value::Number(row.created_at.clone()));
    match &row.invoked_at {
        InvokedAt::Absent => {}
        InvokedAt::Null => {
            projected.insert("invokedAt".to_owned(), Value::Null);
        }
        InvokedAt::At(time) => {
            projected.insert("invokedAt".to_owned(), Value::Number(time.clone()));
        }
    }
    if let Some(scheduled_at) = &row.scheduled_at {
        projected.insert("scheduledAt".to_owned(), scheduled_at.clone());
    }
    if let Some(status) = &row.status {
        projected.insert("status".to_owned(), Value::from(status.as_str()));
    }
    projected.insert("queued".to_owned(), Value::Bool(row.is_queued()));
    projected.insert("optimistic".to_owned(), Value::Bool(row.is_optimistic()));
    Value::Object(projected)
}
