//! The permission table built from `agentState` (chat-reduce §3.1) and the
//! permission seeds tool cards are created or updated with (§5.2).
//!
//! fixtureVersion 2 stores each request under its correlation id (its
//! `toolCallId`, else its key) instead of its key (v2.md P1–P2); the table is
//! otherwise the same, and without any `toolCallId` it is exactly the
//! version 1 table.

use crate::suite_api::{RuleTrace, Scope};
use crate::suites::chat::reference::blocks::Permission;
use crate::suites::chat::reference::fast_map::FastMap;
use crate::suites::chat::reference::model::ResultPermission;
use crate::suites::js::{entries, get, is_obj, str_of};
use serde_json::Value;
use std::borrow::Cow;

/// A member a permission seed may carry. `None`: the seed does not have the
/// key (the card keeps its value); `Some(None)`: the seed has the key with
/// no value (the card's value is cleared); `Some(Some(v))`: a value.
pub type Carried<'a> = Option<Option<Cow<'a, Value>>>;

/// A permission as merged over a card's existing permission (§5.1 step 2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PermissionSeed<'a> {
    /// `status`, always carried.
    pub status: Option<Cow<'a, Value>>,
    /// `mode`.
    pub mode: Carried<'a>,
    /// `decision`.
    pub decision: Carried<'a>,
    /// `allowedTools`.
    pub allowed_tools: Carried<'a>,
    /// `answers`.
    pub answers: Carried<'a>,
    /// `reason`.
    pub reason: Carried<'a>,
}

impl<'a> PermissionSeed<'a> {
    /// The permission a new card starts with.
    pub fn to_permission(&self) -> Permission<'a> {
        Permission {
            status: self.status.clone(),
            mode: self.mode.clone().flatten(),
            decision: self.decision.clone().flatten(),
            allowed_tools: self.allowed_tools.clone().flatten(),
            answers: self.answers.clone().flatten(),
            reason: self.reason.clone().flatten(),
        }
    }

    /// Shallow-merges this seed over an existing permission: every carried
    /// key replaces the existing one, including keys carried without a value.
    pub fn merge_into(&self, existing: &mut Permission<'a>) {
        fn assign<'a>(slot: &mut Option<Cow<'a, Value>>, carried: &Carried<'a>) {
            if let Some(value) = carried {
                *slot = value.clone();
            }
        }
        existing.status = self.status.clone();
        assign(&mut existing.mode, &self.mode);
        assign(&mut existing.decision, &self.decision);
        assign(&mut existing.allowed_tools, &self.allowed_tools);
        assign(&mut existing.answers, &self.answers);
        assign(&mut existing.reason, &self.reason);
    }

    /// The status when it is a string.
    pub fn status_str(&self) -> Option<&str> {
        self.status.as_deref().and_then(Value::as_str)
    }

    /// A tool result's own `permissions` record as a seed.
    pub fn from_result(record: &ResultPermission<'a>) -> Self {
        let text = |s: &'a str| Cow::Owned(Value::String(s.to_owned()));
        PermissionSeed {
            status: Some(text(if record.approved { "approved" } else { "denied" })),
            mode: Some(record.mode.map(text)),
            decision: Some(record.decision.map(text)),
            allowed_tools: Some(
                record.allowed_tools.as_ref().map(|tools| {
                    Cow::Owned(Value::Array(tools.iter().map(|t| Value::String((*t).to_owned())).collect()))
                }),
            ),
            answers: None,
            reason: None,
        }
    }

    /// An agentState entry combined with a tool result's record: the entry's
    /// fields overridden by the record's; `allowedTools` and `decision` fall
    /// back to the entry's, `mode` is the record's only.
    pub fn combined(entry: &Self, record: &ResultPermission<'a>) -> Self {
        let own = Self::from_result(record);
        let or_entry = |mine: Carried<'a>, theirs: &Carried<'a>| match mine {
            Some(Some(value)) => Some(Some(value)),
            _ => Some(theirs.clone().flatten()),
        };
        PermissionSeed {
            status: own.status,
            mode: own.mode,
            decision: or_entry(own.decision, &entry.decision),
            allowed_tools: or_entry(own.allowed_tools, &entry.allowed_tools),
            answers: entry.answers.clone(),
            reason: entry.reason.clone(),
        }
    }
}

/// One permission-table entry.
#[derive(Clone, Debug, PartialEq)]
pub struct TableEntry<'a> {
    /// The correlation id: the id of the tool the permission attaches to and
    /// of the card synthesized for it. The request key in version 1; the
    /// request's `toolCallId`, when it has one, in version 2 (v2.md P1).
    pub id: Cow<'a, str>,
    /// The request key (only an internal id once a `toolCallId` correlates
    /// the request, v2.md P5); an array's index as a decimal key.
    pub key: Cow<'a, str>,
    /// The request's `tool` when it is a string.
    pub tool: Option<&'a str>,
    /// The request's `arguments` tri-state.
    pub arguments: Option<&'a Value>,
    /// The permission the entry contributes.
    pub permission: PermissionSeed<'a>,
    /// The request's `createdAt` when it is neither absent nor null,
    /// whatever its type (only absent and null make the wall clock stand in).
    pub created_at: Option<&'a Value>,
}

/// Request id → entry, completed requests first (§3.1).
#[derive(Debug, Default)]
pub struct PermissionTable<'a> {
    /// Entries in table order.
    pub entries: Vec<TableEntry<'a>>,
    index: FastMap<Cow<'a, str>, usize>,
}

/// The permission a completed request contributes (§3.1 step 1).
fn completed_permission(entry: &Value) -> PermissionSeed<'_> {
    let member = |key| get(entry, key).map(Cow::Borrowed);
    // null and missing become absent; allowTools and answers keep null.
    let non_null = |key| Some(get(entry, key).filter(|v| !v.is_null()).map(Cow::Borrowed));
    PermissionSeed {
        status: member("status"),
        reason: non_null("reason"),
        mode: non_null("mode"),
        decision: non_null("decision"),
        allowed_tools: Some(member("allowTools")),
        answers: Some(member("answers")),
    }
}

/// The permission a pending request contributes (§3.1 step 2).
fn pending_permission<'a>() -> PermissionSeed<'a> {
    PermissionSeed { status: Some(Cow::Owned(Value::String("pending".to_owned()))), ..Default::default() }
}

impl<'a> PermissionTable<'a> {
    /// Builds the table from `agentState`. A request map given as an array
    /// is read as JavaScript reads an object (entries keyed `"0"`, `"1"`, …);
    /// an entry that is not an object has no members (a completed one
    /// carries the permission `{}`, a pending one `{status: "pending"}`),
    /// except `null`, on which the web pipeline throws: it is skipped.
    /// `by_tool_call_id`: the version 2 correlation (v2.md P1–P2).
    pub fn build(agent_state: Option<&'a Value>, by_tool_call_id: bool, trace: &mut dyn RuleTrace) -> Self {
        let Some(state) = agent_state else { return PermissionTable::default() };
        let table =
            if by_tool_call_id { Self::build_correlated(state, trace) } else { Self::build_by_key(state, trace) };
        // Provenance: what no entry claimed concerns the whole case.
        trace.emitted(Scope::Case);
        table
    }

    /// fixtureVersion 1: every entry under its key; completed requests win.
    fn build_by_key(state: &'a Value, trace: &mut dyn RuleTrace) -> Self {
        let mut table = PermissionTable::default();
        for (key, entry) in map_entries(get(state, "completedRequests"), trace) {
            trace.hit("reduce.permission.completed-entry");
            trace.emitted(Scope::Id(&key));
            table.push(key.clone(), key, entry, completed_permission(entry));
        }
        for (key, entry) in map_entries(get(state, "requests"), trace) {
            if table.index.contains_key(&key) {
                trace.hit("reduce.permission.completed-wins");
                trace.emitted(Scope::Id(&key));
                continue;
            }
            trace.hit("reduce.permission.pending-request");
            trace.emitted(Scope::Id(&key));
            table.push(key.clone(), key, entry, pending_permission());
        }
        table
    }

    /// fixtureVersion 2 (v2.md P2): completed requests, then requests, each
    /// under its correlation id; a later entry replaces what is stored under
    /// the same id in its place. A request is skipped only when a completed
    /// request has the same key.
    fn build_correlated(state: &'a Value, trace: &mut dyn RuleTrace) -> Self {
        let mut table = PermissionTable::default();
        if get(state, "codexPlanProposalId").is_some() {
            trace.hit("v2.s5.plan-proposal-id-ignored");
        }
        let completed = get(state, "completedRequests");
        for (key, entry) in map_entries(completed, trace) {
            trace.hit("reduce.permission.completed-entry");
            let Some(id) = correlation_id(&key, entry, trace) else { continue };
            if get(entry, "answers").is_some_and(|answers| !answers.is_null()) {
                trace.hit("v2.p7.answers-carried-verbatim");
            }
            if get(entry, "status").and_then(Value::as_str) == Some("resolved") {
                trace.hit("v2.p6.resolved-request");
            }
            trace.emitted(Scope::Id(&id));
            table.store(id, key, entry, completed_permission(entry), trace);
        }
        for (key, entry) in map_entries(get(state, "requests"), trace) {
            if get_in_map(completed, &key).is_some_and(|completed| !completed.is_null()) {
                trace.hit("reduce.permission.completed-wins");
                trace.emitted(Scope::Id(&key));
                continue;
            }
            trace.hit("reduce.permission.pending-request");
            let Some(id) = correlation_id(&key, entry, trace) else { continue };
            if table.get(&id).is_some_and(|stored| stored.permission.status_str() != Some("pending")) {
                trace.hit("v2.p2.request-replaces-completed");
            }
            trace.emitted(Scope::Id(&id));
            table.store(id, key, entry, pending_permission(), trace);
        }
        table
    }

    fn push(&mut self, id: Cow<'a, str>, key: Cow<'a, str>, entry: &'a Value, permission: PermissionSeed<'a>) {
        self.index.insert(id.clone(), self.entries.len());
        self.entries.push(TableEntry {
            id,
            key,
            tool: str_of(get(entry, "tool")),
            arguments: get(entry, "arguments"),
            permission,
            created_at: get(entry, "createdAt").filter(|created_at| !created_at.is_null()),
        });
    }

    /// Stores an entry under `id`, replacing the one stored there in its
    /// place (v2.md P2).
    fn store(
        &mut self,
        id: Cow<'a, str>,
        key: Cow<'a, str>,
        entry: &'a Value,
        permission: PermissionSeed<'a>,
        trace: &mut dyn RuleTrace,
    ) {
        let Some(&position) = self.index.get(&id) else {
            self.push(id, key, entry, permission);
            return;
        };
        trace.hit("v2.p2.same-correlation-id-replaced");
        if let Some(slot) = self.entries.get_mut(position) {
            *slot = TableEntry {
                id,
                key,
                tool: str_of(get(entry, "tool")),
                arguments: get(entry, "arguments"),
                permission,
                created_at: get(entry, "createdAt").filter(|created_at| !created_at.is_null()),
            };
        }
    }

    /// The entry whose key equals the tool id exactly.
    pub fn get(&self, id: &str) -> Option<&TableEntry<'a>> {
        self.index.get(id).and_then(|&i| self.entries.get(i))
    }
}

/// The correlation id of a request (v2.md P1): its `toolCallId` when that
/// is present and not null (used as is, `""` included), else its key. A
/// `toolCallId` of another type correlates with nothing: such a request is
/// left out of the table, which no tool id nor synthesized card could
/// observe otherwise.
fn correlation_id<'a>(key: &Cow<'a, str>, entry: &'a Value, trace: &mut dyn RuleTrace) -> Option<Cow<'a, str>> {
    match get(entry, "toolCallId") {
        None | Some(Value::Null) => Some(key.clone()),
        Some(Value::String(id)) => {
            trace.hit(if id.is_empty() {
                "v2.p1.empty-tool-call-id-is-an-id"
            } else {
                "v2.p1.tool-call-id-correlates"
            });
            Some(Cow::Borrowed(id.as_str()))
        }
        Some(_) => {
            trace.hit("v2.p1.non-string-tool-call-id-correlates-with-nothing");
            None
        }
    }
}

/// A member of a request map by key (an array's members by their index),
/// `None` when the map is neither an object nor an array.
fn get_in_map<'a>(map: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    match map {
        Some(map @ Value::Object(_)) => get(map, key),
        Some(Value::Array(items)) => key.parse::<usize>().ok().and_then(|index| items.get(index)),
        _ => None,
    }
}

/// The entries of a request map (an object, or an array read as one), in
/// JavaScript key order, without the `null` entries.
fn map_entries<'a>(map: Option<&'a Value>, trace: &mut dyn RuleTrace) -> Vec<(Cow<'a, str>, &'a Value)> {
    let Some(map) = map.filter(|map| is_obj(map)) else { return Vec::new() };
    if map.is_array() {
        trace.hit("reduce.permission.request-map-array");
    }
    entries(map).into_iter().filter(|(_, entry)| !entry.is_null()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::{NoTrace, RuleSet};
    use serde_json::json;

    fn ids(table: &PermissionTable<'_>) -> Vec<(String, String, Option<String>)> {
        table
            .entries
            .iter()
            .map(|entry| {
                (entry.id.to_string(), entry.key.to_string(), entry.permission.status_str().map(str::to_owned))
            })
            .collect()
    }

    #[test]
    fn version_1_ignores_tool_call_ids() {
        let state = json!({"requests": {"k": {"tool": "Bash", "toolCallId": "t"}}});
        let table = PermissionTable::build(Some(&state), false, &mut NoTrace);
        assert_eq!(ids(&table), [("k".to_owned(), "k".to_owned(), Some("pending".to_owned()))]);
    }

    #[test]
    fn version_2_stores_under_the_correlation_id_and_replaces_in_place() {
        let state = json!({
            "completedRequests": {"a": {"toolCallId": "z", "status": "approved"}, "x": null},
            "requests": {"a": {}, "x": {}, "b": {"toolCallId": "z"}, "k": {"toolCallId": ""}}
        });
        let mut trace = RuleSet::default();
        let table = PermissionTable::build(Some(&state), true, &mut trace);
        // Keys in JavaScript order of key-sorted input (a, b, k, x); `x` is
        // kept: the completed entry under its key is null.
        assert_eq!(
            ids(&table),
            [
                ("z".to_owned(), "b".to_owned(), Some("pending".to_owned())),
                ("".to_owned(), "k".to_owned(), Some("pending".to_owned())),
                ("x".to_owned(), "x".to_owned(), Some("pending".to_owned())),
            ]
        );
        assert!(trace.0.contains("v2.p2.request-replaces-completed"));
        assert!(trace.0.contains("v2.p1.empty-tool-call-id-is-an-id"));
    }

    #[test]
    fn a_tool_call_id_that_is_not_a_string_correlates_with_nothing() {
        let state = json!({"requests": {"k": {"tool": "Bash", "toolCallId": 5}, "m": {"toolCallId": null}}});
        let mut trace = RuleSet::default();
        let table = PermissionTable::build(Some(&state), true, &mut trace);
        assert!(table.get("k").is_none() && table.get("5").is_none());
        assert_eq!(ids(&table), [("m".to_owned(), "m".to_owned(), Some("pending".to_owned()))]);
        assert!(trace.0.contains("v2.p1.non-string-tool-call-id-correlates-with-nothing"));
    }
}
