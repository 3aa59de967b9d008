//! The `claude-events` suite: Claude Agent SDK messages → normalized events, one disposition per message.

use super::{Layout, PointerContext, Suite};
use crate::suite::ReferenceFn;
use serde_json::Value;

/// Claude SDK messages → `{events, dispositions}`.
#[derive(Debug)]
pub struct ClaudeEventsSuite;

impl Suite for ClaudeEventsSuite {
    fn name(&self) -> &'static str {
        "claude-events"
    }

    fn title(&self) -> &'static str {
        "Claude Agent SDK messages → normalized events, one disposition per message"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/claude-events.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(crate::reference::claude_events::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        crate::reference::claude_events::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        super::agent_events::normalized_pointer_context(input, "messages", pointer)
    }
}
