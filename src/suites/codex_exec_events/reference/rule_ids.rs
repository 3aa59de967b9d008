//! Rule ids of the `codex-exec-events` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `codex-exec-events` reference can report, sorted.
pub const RULES: &[&str] = &[
    "codex-item.tool.completed-without-start",
    "codex-item.tool.result",
    "codex-item.tool.start",
    "exec.agent-message.delta",
    "exec.error.emitted",
    "exec.error.retry-notice",
    "exec.invalid-line",
    "exec.item.unknown",
    "exec.not-an-object",
    "exec.reasoning.started",
    "exec.reasoning.thinking",
    "exec.stream.cut-off",
    "exec.thread-started.session-ready",
    "exec.turn-completed.done",
    "exec.turn-failed.done",
    "exec.turn-failed.error",
    "exec.turn-failed.error-already-reported",
    "exec.turn-started.thinking",
    "exec.type.ignored",
    "exec.type.unknown",
];
