//! Property tests of the message-window store: random op scripts with random
//! but well-formed responses never make the reference fail or panic, and
//! after every op the window is in position order with no repeated id.
//!
//! Scripts keep ids unique and every time distinct (the specification's note
//! on property tests: a delivery that repeats an id into an empty window, and
//! ties on time that mix numbered and unnumbered rows, legitimately break the
//! property). 64 cases per run, scripts of up to 12 ops; one batch in ten is
//! large enough (350 to 450 rows) to cross the window limits.

use conform::suite_api::NoTrace;
use conform::suites::chat::reference::{ChatOptions, renders};
use conform::suites::pagination::reference::row::display_order;
use conform::suites::pagination::reference::script::run_op;
use conform::suites::pagination::reference::store::Store;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::cmp::Ordering;
use std::collections::HashSet;

#[derive(Clone, Debug)]
enum RowKind {
    Agent,
    Hidden,
    QueuedUser,
    InvokedUser,
    Reasoning(u8),
    AgentRun,
    /// The stored echo of the n-th optimistic row (modulo how many exist).
    Echo(usize),
}

#[derive(Clone, Debug)]
struct RowSpec {
    kind: RowKind,
    numbered: bool,
}

#[derive(Clone, Debug)]
struct PageSpec {
    direction: u8,
    epoch: u8,
    reset: bool,
    has_more: bool,
    next_before: bool,
    next_after: bool,
    head: bool,
    rows: Vec<RowSpec>,
}

#[derive(Clone, Debug)]
enum OpSpec {
    SyncTail(Vec<PageSpec>),
    FetchOlder(Vec<PageSpec>),
    Live(Vec<RowSpec>),
    AppendOptimistic(u8),
    UpdateStatus(usize, u8),
    Consumed(usize),
    Cancelled(usize, bool),
    CancelInvoked(usize),
    ViewMode(bool),
    QueuedState(Vec<(usize, bool)>),
}

fn row_spec() -> impl Strategy<Value = RowSpec> {
    let kind = prop_oneof![
        4 => Just(RowKind::Agent),
        1 => Just(RowKind::Hidden),
        1 => Just(RowKind::QueuedUser),
        1 => Just(RowKind::InvokedUser),
        1 => (0u8..3).prop_map(RowKind::Reasoning),
        1 => Just(RowKind::AgentRun),
        1 => (0usize..8).prop_map(RowKind::Echo),
    ];
    (kind, prop::bool::weighted(0.9)).prop_map(|(kind, numbered)| RowSpec { kind, numbered })
}

fn rows() -> impl Strategy<Value = Vec<RowSpec>> {
    prop_oneof![9 => prop::collection::vec(row_spec(), 0..6), 1 => prop::collection::vec(row_spec(), 350..450)]
}

fn page_spec() -> impl Strategy<Value = PageSpec> {
    (0u8..3, 0u8..3, prop::bool::weighted(0.15), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), rows())
        .prop_map(|(direction, epoch, reset, has_more, next_before, next_after, head, rows)| PageSpec {
            direction,
            epoch,
            reset,
            has_more,
            next_before,
            next_after,
            head,
            rows,
        })
}

fn op_spec() -> impl Strategy<Value = OpSpec> {
    prop_oneof![
        3 => prop::collection::vec(page_spec(), 0..4).prop_map(OpSpec::SyncTail),
        2 => prop::collection::vec(page_spec(), 0..3).prop_map(OpSpec::FetchOlder),
        3 => rows().prop_map(OpSpec::Live),
        2 => (0u8..5).prop_map(OpSpec::AppendOptimistic),
        1 => (0usize..8, 0u8..4).prop_map(|(target, status)| OpSpec::UpdateStatus(target, status)),
        1 => (0usize..8).prop_map(OpSpec::Consumed),
        1 => (0usize..8, any::<bool>()).prop_map(|(target, by_id)| OpSpec::Cancelled(target, by_id)),
        1 => (0usize..8).prop_map(OpSpec::CancelInvoked),
        1 => any::<bool>().prop_map(OpSpec::ViewMode),
        1 => prop::collection::vec((0usize..8, any::<bool>()), 0..4).prop_map(OpSpec::QueuedState),
    ]
}

const STATUSES: [&str; 4] = ["queued", "sending", "sent", "failed"];

/// Turns specs into JSON ops with globally unique ids, seqs and times.
#[derive(Default)]
struct Builder {
    counter: u64,
    local_ids: Vec<String>,
}

impl Builder {
    fn next(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    fn time(&mut self) -> u64 {
        self.next() * 1000
    }

    fn local_id(&self, target: usize) -> String {
        if self.local_ids.is_empty() {
            "local-none".to_owned()
        } else {
            self.local_ids[target % self.local_ids.len()].clone()
        }
    }

    fn row(&mut self, spec: &RowSpec) -> Value {
        let n = self.next();
        let id = format!("r-{n}");
        let seq = if spec.numbered { json!(n) } else { Value::Null };
        let created = self.time();
        let agent = |content: Value| json!({"role": "agent", "content": content});
        match &spec.kind {
            RowKind::Agent => json!({"id": id, "seq": seq, "localId": null, "createdAt": created, "invokedAt": created,
                "content": agent(json!({"type": "codex", "data": {"type": "message", "message": "m"}}))}),
            RowKind::Hidden => {
                json!({"id": id, "seq": seq, "localId": null, "createdAt": created, "invokedAt": created,
                "content": agent(json!({"type": "output", "data": {"type": "system", "isMeta": true}}))})
            }
            RowKind::QueuedUser => {
                json!({"id": id, "seq": seq, "localId": format!("srv-local-{n}"), "createdAt": created,
                "invokedAt": null, "content": {"role": "user", "content": {"type": "text", "text": "q"}}})
            }
            RowKind::InvokedUser => json!({"id": id, "seq": seq, "localId": null, "createdAt": created,
                "invokedAt": self.time(), "content": {"role": "user", "content": {"type": "text", "text": "u"}}}),
            RowKind::Reasoning(stream) => json!({"id": id, "seq": seq, "localId": null, "createdAt": created,
                "invokedAt": created,
                "content": agent(json!({"type": "codex", "data": {"type": "reasoning", "id": format!("s{stream}"), "message": "t"}}))}),
            RowKind::AgentRun => {
                json!({"id": id, "seq": seq, "localId": null, "createdAt": created, "invokedAt": created,
                "content": agent(json!({"type": "codex", "data": {"type": "agent-run-update"}}))})
            }
            RowKind::Echo(target) => {
                json!({"id": id, "seq": seq, "localId": self.local_id(*target), "createdAt": created,
                "invokedAt": if n.is_multiple_of(2) { Value::Null } else { json!(self.time()) },
                "content": {"role": "user", "content": {"type": "text", "text": "echo"}}})
            }
        }
    }

    fn pair(&mut self, present: bool) -> (Value, Value) {
        if present { (json!(self.time()), json!(self.next())) } else { (Value::Null, Value::Null) }
    }

    fn page(&mut self, spec: &PageSpec) -> Value {
        let messages: Vec<Value> = spec.rows.iter().map(|row| self.row(row)).collect();
        let (before_at, before_seq) = self.pair(spec.next_before);
        let (after_at, after_seq) = self.pair(spec.next_after);
        let (head_at, head_seq) = self.pair(spec.head);
        let direction = ["latest", "before", "after"][usize::from(spec.direction % 3)];
        json!({"messages": messages, "page": {
            "direction": direction,
            "limit": 200, "epoch": spec.epoch, "reset": spec.reset, "hasMore": spec.has_more,
            "nextBeforeAt": before_at, "nextBeforeSeq": before_seq, "nextAfterAt": after_at, "nextAfterSeq": after_seq,
            "snapshotHeadAt": head_at, "snapshotHeadSeq": head_seq}})
    }

    fn op(&mut self, spec: &OpSpec) -> Value {
        match spec {
            OpSpec::SyncTail(pages) => {
                json!({"op": "sync-tail", "responses": pages.iter().map(|page| self.page(page)).collect::<Vec<_>>()})
            }
            OpSpec::FetchOlder(pages) => {
                json!({"op": "fetch-older", "responses": pages.iter().map(|page| self.page(page)).collect::<Vec<_>>()})
            }
            OpSpec::Live(rows) => {
                json!({"op": "sse-messages", "messages": rows.iter().map(|row| self.row(row)).collect::<Vec<_>>()})
            }
            OpSpec::AppendOptimistic(status) => {
                let local_id = format!("local-{}", self.next());
                self.local_ids.push(local_id.clone());
                let mut row = json!({"id": local_id, "seq": null, "localId": local_id, "createdAt": self.time(),
                    "invokedAt": null, "content": {"role": "user", "content": {"type": "text", "text": "o"}}});
                if let Some(status) = STATUSES.get(usize::from(*status)) {
                    row["status"] = json!(status);
                }
                json!({"op": "append-optimistic", "message": row})
            }
            OpSpec::UpdateStatus(target, status) => json!({"op": "update-status", "localId": self.local_id(*target),
                "status": STATUSES[usize::from(*status) % STATUSES.len()]}),
            OpSpec::Consumed(target) => {
                json!({"op": "messages-consumed", "localIds": [self.local_id(*target)], "invokedAt": self.time()})
            }
            OpSpec::Cancelled(target, by_id) => {
                let key = if *by_id { format!("r-{}", target + 1) } else { self.local_id(*target) };
                json!({"op": "message-cancelled", "localId": key})
            }
            OpSpec::CancelInvoked(target) => {
                let local_id = self.local_id(*target);
                let n = self.next();
                let created = self.time();
                json!({"op": "cancel-invoked", "localId": local_id, "message": {"id": format!("r-{n}"), "seq": n,
                    "localId": local_id, "createdAt": created, "invokedAt": self.time(),
                    "content": {"role": "user", "content": {"type": "text", "text": "c"}}}})
            }
            OpSpec::ViewMode(history) => {
                json!({"op": "set-view-mode", "mode": if *history { "history" } else { "tail" }})
            }
            OpSpec::QueuedState(entries) => {
                let queued: Vec<String> =
                    entries.iter().filter(|(_, queued)| *queued).map(|(target, _)| self.local_id(*target)).collect();
                let invoked: Vec<Value> = entries
                    .iter()
                    .filter(|(_, queued)| !*queued)
                    .map(|(target, _)| json!({"localId": self.local_id(*target), "invokedAt": self.time()}))
                    .collect();
                json!({"op": "queued-state", "queuedLocalIds": queued, "invoked": invoked})
            }
        }
    }
}

fn check_window(store: &Store) -> Result<(), TestCaseError> {
    let mut ids = HashSet::new();
    for row in &store.rows {
        prop_assert!(ids.insert(row.id.clone()), "id {} appears twice", row.id);
    }
    for pair in store.rows.windows(2) {
        if let [earlier, later] = pair {
            prop_assert_eq!(display_order(earlier, later), Ordering::Less, "{} is not before {}", earlier.id, later.id);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    fn random_scripts_keep_the_window_ordered_and_unique(specs in prop::collection::vec(op_spec(), 1..12)) {
        let mut builder = Builder::default();
        let mut store = Store::default();
        for spec in &specs {
            let op = builder.op(spec);
            let result = run_op(&mut store, &op, &|row| renders(row, &ChatOptions::V2), &mut NoTrace);
            prop_assert!(result.is_ok(), "{:?} on {}", result, op);
            check_window(&store)?;
        }
    }
}

crate::trials![random_scripts_keep_the_window_ordered_and_unique];
