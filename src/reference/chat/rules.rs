//! Rule ids: the stable names of the decode rules the chat reference reports
//! to a [`crate::reference::RuleTrace`] when they decide part of the output.
//!
//! Ids are `family.rule`, dotted; `conform coverage` reports them. A test
//! checks that every id the sources use is listed here and that every
//! listed id is used.

/// Every rule id the chat reference can report, grouped by pipeline stage.
pub const RULES: &[&str] = &[
    // Wire rows
    "message.not-an-object-dropped",
    // Envelope unwrap (chat-normalize §4)
    "envelope.none-stringified",
    "envelope.record.data-message",
    "envelope.record.direct",
    "envelope.record.message",
    "envelope.record.payload-message",
    "envelope.unknown-role-stringified",
    // User role (§5)
    "user.attachments.invalid-skipped",
    "user.attachments.kept",
    "user.attachments.preview-url",
    "user.text.object",
    "user.text.string",
    "user.text.stringified",
    // Agent payload dispatch (§6)
    "agent.payload-stringified",
    "agent.unknown-payload-type-stringified",
    // Output family: Claude SDK entries and agy (§6.1, §7, §8)
    "output.agy.message.echo-only-stringified",
    "output.agy.message.echo-stripped",
    "output.agy.message.task-log-chip",
    "output.agy.message.text",
    "output.agy.tool.error-message",
    "output.agy.tool.mapped",
    "output.agy.tool.system-message",
    "output.agy.tool.system-message-failed",
    "output.agy.tool.unmapped-humanized",
    "output.claude.assistant.block-ignored",
    "output.claude.assistant.content-not-a-list-empty",
    "output.claude.assistant.string-content",
    "output.claude.message-not-object-stringified",
    "output.claude.skip.empty-agy-message",
    "output.claude.skip.empty-away-summary",
    "output.claude.skip.is-compact-summary",
    "output.claude.skip.is-meta",
    "output.claude.skip.rate-limit-event",
    "output.claude.skip.system-subtype",
    "output.claude.skip.tool-progress",
    "output.claude.summary",
    "output.claude.summary-not-string-stringified",
    "output.claude.system.api-error",
    "output.claude.system.compact",
    "output.claude.system.microcompact",
    "output.claude.system.recap",
    "output.claude.system.turn-duration",
    "output.claude.system.turn-summary",
    "output.claude.tool-result",
    "output.claude.tool-result.is-error",
    "output.claude.tool-result.permissions",
    "output.claude.tool-result.tool-use-result-preferred",
    "output.claude.tool-use.default-name",
    "output.claude.user.agent-items",
    "output.claude.user.sidechain-text-prompt",
    "output.claude.user.sidechain-tool-results-discarded",
    "output.claude.user.string-sidechain",
    "output.claude.user.user-lane",
    "output.not-an-entry-stringified",
    "output.unknown-type-stringified",
    // Event family (§9)
    "event.invalid-stringified",
    "event.wire-row",
    // Codex family (§10)
    "codex.agent-run-event",
    "codex.compact-summary",
    "codex.compact-summary.no-summary-dropped",
    "codex.context-compacted",
    "codex.error-event",
    "codex.error.no-message-dropped",
    "codex.generated-image",
    "codex.generated-image.no-image-id-dropped",
    "codex.generated-image.source",
    "codex.invalid-data-dropped",
    "codex.message.no-message-dropped",
    "codex.message.pi-snapshot",
    "codex.message.review",
    "codex.message.text",
    "codex.plan",
    "codex.plan-update",
    "codex.plan.empty-dropped",
    "codex.reasoning",
    "codex.reasoning.no-message-dropped",
    "codex.thread-goal-cleared",
    "codex.thread-goal-updated",
    "codex.thread-goal.invalid-dropped",
    "codex.token-count",
    "codex.token-count.no-usage-dropped",
    "codex.tool-call",
    "codex.tool-call-result",
    "codex.tool-call-result.is-error",
    "codex.tool-call-result.no-call-id-dropped",
    "codex.tool-call.no-call-id-dropped",
    "codex.tool-call.progress",
    "codex.unknown-type-dropped",
    // Case input
    "input.messages-not-a-list",
    // Reduce (chat-reduce §3–§8)
    "reduce.agent-run.fallback-merged",
    "reduce.agent-run.orphan-removed",
    "reduce.agent-run.result",
    "reduce.agent-run.start",
    "reduce.agent-run.tool-only-update-skipped",
    "reduce.agent-run.trace",
    "reduce.agent-run.trace-child",
    "reduce.agent-run.update",
    "reduce.agent-run.update-ignored",
    "reduce.cli.merged",
    "reduce.dedupe.error",
    "reduce.dedupe.event",
    "reduce.dedupe.message",
    "reduce.dedupe.message-equals-title",
    "reduce.dedupe.title",
    "reduce.event.block",
    "reduce.event.consumed",
    "reduce.event.ready",
    "reduce.fold.api-error",
    "reduce.goal-filter.removed",
    "reduce.lanes.orphan-dropped",
    "reduce.lanes.orphan-released",
    "reduce.lanes.parent-tool-use",
    "reduce.lanes.parent-uuid",
    "reduce.lanes.prompt-match",
    "reduce.lanes.root-sidechain",
    "reduce.limit.other-items-dropped",
    "reduce.limit.reached",
    "reduce.limit.warning",
    "reduce.permission.attached-to-call",
    "reduce.permission.completed-entry",
    "reduce.permission.completed-wins",
    "reduce.permission.from-result",
    "reduce.permission.pending-request",
    "reduce.permission.result-merged-with-entry",
    "reduce.permission.synthesized-pending",
    "reduce.permission.synthesized-too-old",
    "reduce.permission.synthesized-wall-clock",
    "reduce.reasoning.stream-continued",
    "reduce.sidechain.task-notification",
    "reduce.subagent.children",
    "reduce.summary.message-event",
    "reduce.text.cli-output",
    "reduce.text.prompt-echo-skipped",
    "reduce.text.sentinel-skipped",
    "reduce.text.stream-continued",
    "reduce.title.changed",
    "reduce.title.no-event",
    "reduce.tool.created",
    "reduce.tool.created-refused",
    "reduce.tool.input-replaced",
    "reduce.tool.pending-call-running",
    "reduce.tool.placeholder-name-kept",
    "reduce.tool.progress-updated",
    "reduce.tool.renamed",
    "reduce.tool.result-completed",
    "reduce.tool.result-error",
    "reduce.tool.updated",
    "reduce.usage.cache-plus-input",
    "reduce.usage.child-scope-ignored",
    "reduce.usage.context-tokens",
    "reduce.usage.sidechain-ignored",
    "reduce.user.cli-output",
    "reduce.user.text",
    // Tool grouping (chat-reduce §9)
    "group.codex-bash-ineligible",
    "group.codex-bash-without-actions",
    "group.codex-exploration",
    "group.default",
    "group.id-from-last-tool",
    "group.pending-permission-ineligible",
];

#[cfg(test)]
mod tests {
    use super::RULES;
    use std::collections::BTreeSet;
    use std::path::Path;

    const FAMILIES: [&str; 10] =
        ["message", "envelope", "user", "agent", "output", "event", "codex", "input", "reduce", "group"];

    /// String literals shaped like rule ids (`family.rule-name…`) in a source text.
    fn rule_literals(source: &str) -> Vec<String> {
        source
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|literal| {
                let mut parts = literal.split('.');
                let family = parts.next().unwrap_or_default();
                FAMILIES.contains(&family)
                    && literal.contains('.')
                    && literal.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
            })
            .map(str::to_owned)
            .collect()
    }

    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("rules.rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    #[test]
    fn every_rule_id_used_in_the_sources_is_listed_and_every_listed_id_is_used() {
        let listed: BTreeSet<&str> = RULES.iter().copied().collect();
        assert_eq!(listed.len(), RULES.len(), "RULES has duplicates");
        let mut files = Vec::new();
        sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/reference/chat"), &mut files);
        assert!(files.len() > 10, "the chat sources were not found");
        let mut used = BTreeSet::new();
        for (path, text) in &files {
            for literal in rule_literals(text) {
                assert!(
                    listed.contains(literal.as_str()),
                    "{path} uses rule id {literal:?}, which RULES does not list"
                );
                used.insert(literal);
            }
        }
        for rule in RULES {
            assert!(used.contains(*rule), "RULES lists {rule:?}, which no source file uses");
        }
    }
}
