//! Rule ids of the `sse` reference: the stable names it reports to a
//! [`crate::suite::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `sse` reference can report, sorted.
pub const RULES: &[&str] = &[
    "sse.flat.last-write-wins",
    "sse.flat.null-clears",
    "sse.no-effective-change",
    "sse.normalize.fleet-is-interactive",
    "sse.normalize.session-absent-nullable-string-is-null",
    "sse.normalize.session-active-at-defaults-to-0",
    "sse.normalize.session-unknown-key-dropped",
    "sse.normalize.todo-id-defaults-to-empty",
    "sse.normalize.todo-priority-defaults-to-medium",
    "sse.normalize.wrapper-extra-keys-dropped",
    "sse.not-applied.active-turn-started-at",
    "sse.not-applied.scratchlist-updated-at",
    "sse.precheck.irrelevant",
    "sse.precheck.keepalive-subminute",
    "sse.updated-at.advances",
    "sse.updated-at.max-monotonic",
    "sse.wrapper.absent-watermark-is-0",
    "sse.wrapper.newer-applied",
    "sse.wrapper.not-newer-dropped",
    "sse.wrapper.team-state-null-removes",
];
