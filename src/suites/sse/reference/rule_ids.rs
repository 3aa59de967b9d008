//! Rule ids of the `sse` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `sse` reference can report, sorted. Ids of rules
/// fixtureVersion 2 introduced start with `v2.` and the rule's number in
/// v2.md.
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
    // fixtureVersion 2 (v2.md §3.7 and §4), numbered as there
    "v2.c1.session-reply-clock",
    "v2.c2.reply-clock-patch-member",
    "v2.c3.watermark-without-seq-is-0",
    "v2.c4.newer-version-relevant",
    "v2.c4.version-alone-not-relevant",
    "v2.c5.version-bumps-seq",
    "v2.c6.equal-version-opens-gate",
    "v2.c6.stale-version-clock-ignored",
    "v2.c7.versioned-clock-written",
    "v2.c7.versioned-null-clears",
    "v2.c8.unversioned-clock-advances",
    "v2.c8.unversioned-never-backward",
    "v2.c8.unversioned-null-keeps-time",
    "v2.c8.unversioned-null-over-absent",
    "v2.c9.reply-clock-decides-verdict",
    "v2.m3.reply-clock-in-version-1-document",
];
