//! The `claude-display` suite: a Claude Code (Agent SDK) stream of
//! `SDKMessage` frames → the display model (transcript turns, system
//! notices, the session snapshot) plus one disposition per frame.

use super::{Layout, ReferenceFn, Suite};

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClaudeDisplay;

impl Suite for ClaudeDisplay {
    fn name(&self) -> &'static str {
        "claude-display"
    }

    fn title(&self) -> &'static str {
        "Claude SDK messages to turns, notices, session snapshot and dispositions"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/claude-display.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(crate::reference::claude_display::reference)
    }

    fn rules(&self) -> &'static [&'static str] {
        crate::reference::claude_display::RULES
    }
}
