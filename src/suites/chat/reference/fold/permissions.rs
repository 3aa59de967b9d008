//! The permission table built from `agentState` (chat-reduce §3.1) and the
//! permission seeds tool cards are created or updated with (§5.2).

use crate::suite::RuleTrace;
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
    /// The request id (the map key; an array's index as a decimal key).
    pub id: Cow<'a, str>,
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

impl<'a> PermissionTable<'a> {
    /// Builds the table from `agentState`. A request map given as an array
    /// is read as JavaScript reads an object (entries keyed `"0"`, `"1"`, …);
    /// an entry that is not an object has no members (a completed one
    /// carries the permission `{}`, a pending one `{status: "pending"}`),
    /// except `null`, on which the web pipeline throws: it is skipped.
    pub fn build(agent_state: Option<&'a Value>, trace: &mut dyn RuleTrace) -> Self {
        let mut table = PermissionTable::default();
        let Some(state) = agent_state else { return table };
        for (id, entry) in map_entries(get(state, "completedRequests"), trace) {
            trace.hit("reduce.permission.completed-entry");
            let member = |key| get(entry, key).map(Cow::Borrowed);
            // null and missing become absent; allowTools and answers keep null.
            let non_null = |key| Some(get(entry, key).filter(|v| !v.is_null()).map(Cow::Borrowed));
            let permission = PermissionSeed {
                status: member("status"),
                reason: non_null("reason"),
                mode: non_null("mode"),
                decision: non_null("decision"),
                allowed_tools: Some(member("allowTools")),
                answers: Some(member("answers")),
            };
            table.push(id, entry, permission);
        }
        for (id, entry) in map_entries(get(state, "requests"), trace) {
            if table.index.contains_key(&id) {
                trace.hit("reduce.permission.completed-wins");
                continue;
            }
            trace.hit("reduce.permission.pending-request");
            let permission =
                PermissionSeed { status: Some(Cow::Owned(Value::String("pending".to_owned()))), ..Default::default() };
            table.push(id, entry, permission);
        }
        table
    }

    fn push(&mut self, id: Cow<'a, str>, entry: &'a Value, permission: PermissionSeed<'a>) {
        self.index.insert(id.clone(), self.entries.len());
        self.entries.push(TableEntry {
            id,
            tool: str_of(get(entry, "tool")),
            arguments: get(entry, "arguments"),
            permission,
            created_at: get(entry, "createdAt").filter(|created_at| !created_at.is_null()),
        });
    }

    /// The entry whose key equals the tool id exactly.
    pub fn get(&self, id: &str) -> Option<&TableEntry<'a>> {
        self.index.get(id).and_then(|&i| self.entries.get(i))
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
