//! Rule ids of the `claude-events` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `claude-events` reference can report, sorted.
pub const RULES: &[&str] = &[
    "claude.assistant.blocks",
    "claude.assistant.repeated-block",
    "claude.block.ignored",
    "claude.block.server-tool-result",
    "claude.block.server-tool-start",
    "claude.block.streamed",
    "claude.block.text-delta",
    "claude.block.thinking",
    "claude.block.tool-result",
    "claude.block.tool-start",
    "claude.block.unknown",
    "claude.content.not-blocks",
    "claude.control-response.other",
    "claude.end.aborted",
    "claude.end.completed",
    "claude.end.error",
    "claude.init.session-ready",
    "claude.init.without-session-id",
    "claude.invalid-line",
    "claude.kind.ignored",
    "claude.kind.unknown",
    "claude.not-an-object",
    "claude.permission.request",
    "claude.permission.resolved",
    "claude.result.error-skipped",
    "claude.result.final-text",
    "claude.result.no-text",
    "claude.result.superseded",
    "claude.sidechain.subagent-id",
    "claude.stream-event.text-delta",
    "claude.stream-event.thinking-delta",
    "claude.stream.cut-off",
    "claude.subagent-id",
    "claude.tool-start.input-field",
    "claude.tool-start.spawn-never-ran",
    "claude.tool-start.subagent-spawn",
    "claude.transcript.session-ready",
    "claude.transcript.user-machinery",
    "claude.transcript.user-prompt",
    "claude.user.tool-results",
];
