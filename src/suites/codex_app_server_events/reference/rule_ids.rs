//! Rule ids of the `codex-app-server-events` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `codex-app-server-events` reference can report, sorted.
pub const RULES: &[&str] = &[
    "app-server.agent-message.completed-skipped",
    "app-server.agent-message.completed-unstreamed",
    "app-server.agent-message.delta",
    "app-server.approval.answer-unreadable",
    "app-server.approval.answered",
    "app-server.approval.request",
    "app-server.client.request",
    "app-server.error.emitted",
    "app-server.error.will-retry",
    "app-server.invalid-line",
    "app-server.item.unknown",
    "app-server.method.ignored",
    "app-server.method.unknown",
    "app-server.not-an-object",
    "app-server.reasoning.completed",
    "app-server.reasoning.completed-unstreamed",
    "app-server.reasoning.delta",
    "app-server.reasoning.empty-dropped",
    "app-server.reasoning.started",
    "app-server.reasoning.unprefixed-alias",
    "app-server.request-resolved.already-answered",
    "app-server.request-resolved.without-answer",
    "app-server.response",
    "app-server.stream.cut-off",
    "app-server.thread-started.child",
    "app-server.thread-started.session-ready",
    "app-server.turn-completed.done",
    "app-server.turn-completed.stopped",
    "app-server.turn-failed.error",
    "app-server.turn-failed.error-already-reported",
    "app-server.turn-started.thinking",
    "app-server.unrecognized",
    "codex-item.tool.completed-without-start",
    "codex-item.tool.result",
    "codex-item.tool.start",
];
