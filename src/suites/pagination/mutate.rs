//! What `conform explore` knows about pagination inputs: rows tie in display
//! order when they share `createdAt` and `seq` (or one has no `seq`), a case
//! the fixtures never show; one mutation makes two rows tie.

use crate::suite_api::mutate::{object_at_mut, objects_where};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &["id", "localId"],
    order_members: &[],
    words: &["queued", "sending", "sent", "failed", "tail", "history", "latest", "before", "after"],
    mutators: &[SuiteMutator { name: "pagination/display-tie", weight: 4, apply: display_tie }],
    unpinnable_rules: &[],
};

/// Gives one row the `createdAt` (and `seq`, or none) of another.
fn display_tie(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let rows = objects_where(input, &|members| {
        members.get("id").is_some_and(Value::is_string) && members.get("createdAt").is_some_and(Value::is_number)
    });
    if rows.len() < 2 {
        return None;
    }
    let a = chooser.below(rows.len());
    let b = (a + 1 + chooser.below(rows.len() - 1)) % rows.len();
    let source = crate::suite_api::mutate::node_at(input, &rows[a])?.clone();
    let seq = if chooser.chance(1, 3) { Value::Null } else { source.get("seq").cloned().unwrap_or(Value::Null) };
    let row = object_at_mut(input, &rows[b])?;
    let created_at = source.get("createdAt")?.clone();
    if row.get("createdAt") == Some(&created_at) && row.get("seq") == Some(&seq) {
        return None;
    }
    row.insert("createdAt".to_owned(), created_at);
    if row.contains_key("seq") || !seq.is_null() {
        row.insert("seq".to_owned(), seq);
    }
    let id = |row: &Value| row.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
    Some(format!(
        "row {:?} ties with row {:?} in display order",
        id(crate::suite_api::mutate::node_at(input, &rows[b])?),
        id(&source)
    ))
}
