//! Rule ids of the `pagination` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `pagination` reference can report, sorted.
pub const RULES: &[&str] = &[
    "pagination.cancelled.removes-row",
    "pagination.collapse.reasoning-newest-wins",
    "pagination.consumed.stamps-invoked-at",
    "pagination.fetch-older.applied",
    "pagination.fetch-older.epoch-mismatch-resets",
    "pagination.fetch-older.exhausted",
    "pagination.fetch-older.unavailable",
    "pagination.history-overflow-requires-latest-reset",
    "pagination.latest.duplicate-merged-back",
    "pagination.latest.head-from-response-rows",
    "pagination.latest.replace-keeps-optimistic",
    "pagination.live.advances-newest-cursor",
    "pagination.merge.echo-inherits-invoked-at",
    "pagination.merge.echo-inherits-status",
    "pagination.merge.echo-replaces-optimistic",
    "pagination.merge.into-empty-keeps-all",
    "pagination.merge.invoked-echo-skips-queued",
    "pagination.merge.redelivery-keeps-invoked-at",
    "pagination.merge.sent-optimistic-fallback",
    "pagination.merge.stale-queued-is-sent",
    "pagination.order.id-tie-break",
    "pagination.queued-state.drops-deleted",
    "pagination.sync-tail.cursor-did-not-advance",
    "pagination.sync-tail.incremental",
    "pagination.sync-tail.latest",
    "pagination.sync-tail.reset-page-replaces",
    "pagination.trim.append-drops-oldest",
    "pagination.trim.prepend-drops-newest",
    "pagination.trim.queued-never-trimmed",
    "pagination.update-status.set",
    "pagination.view.tail-after-overflow-drops-cursors",
    // fixtureVersion 2 (v2.md D9)
    "v2.d9.display-links-row-renders",
    "v2.d9.invalid-display-links-row-hidden",
];
