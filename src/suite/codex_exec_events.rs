//! The `codex-exec-events` suite: `codex exec --json` lines → normalized events, one disposition per line.

use super::{Layout, PointerContext, Suite};
use crate::suite::ReferenceFn;
use serde_json::Value;

/// `codex exec --json` lines → `{events, dispositions}`.
#[derive(Debug)]
pub struct CodexExecEventsSuite;

impl Suite for CodexExecEventsSuite {
    fn name(&self) -> &'static str {
        "codex-exec-events"
    }

    fn title(&self) -> &'static str {
        "`codex exec --json` lines → normalized events, one disposition per line"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/codex-exec-events.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(crate::reference::codex_exec_events::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        crate::reference::codex_exec_events::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        super::agent_events::normalized_pointer_context(input, "lines", pointer)
    }
}
