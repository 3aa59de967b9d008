//! Rule ids of the `event-fold` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `event-fold` reference can report, sorted.
pub const RULES: &[&str] = &[
    "fold.delta.append",
    "fold.delta.new-message",
    "fold.delta.new-text-block",
    "fold.done",
    "fold.error.block",
    "fold.event.no-effect",
    "fold.no-open-message",
    "fold.permission.request",
    "fold.permission.resolved",
    "fold.permission.resolved-unmatched",
    "fold.result.done",
    "fold.result.fills-empty-content",
    "fold.session-ready.no-block",
    "fold.subagent.completed",
    "fold.subagent.completed-at",
    "fold.subagent.done-completes",
    "fold.subagent.failed",
    "fold.subagent.implicit-block",
    "fold.subagent.never-ran",
    "fold.subagent.routed",
    "fold.subagent.started-at",
    "fold.subagent.unknown-id-dropped",
    "fold.thinking.append",
    "fold.tool-result.unmatched",
    "fold.tool-result.upgrade",
    "fold.tool-start.subagent-spawn",
    "fold.tool-start.tool-block",
    "fold.tool.summary",
    "fold.user-message.new-bubble",
];
