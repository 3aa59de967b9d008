//! The `codex-app-server-events` suite: Codex app-server JSON-RPC frames → normalized events, one disposition per frame.

use super::{Layout, PointerContext, Suite};
use crate::suite::ReferenceFn;
use serde_json::Value;

/// Codex app-server frames → `{events, dispositions}`.
#[derive(Debug)]
pub struct CodexAppServerEventsSuite;

impl Suite for CodexAppServerEventsSuite {
    fn name(&self) -> &'static str {
        "codex-app-server-events"
    }

    fn title(&self) -> &'static str {
        "Codex app-server JSON-RPC frames → normalized events, one disposition per frame"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/codex-app-server-events.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(crate::reference::codex_app_server_events::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        crate::reference::codex_app_server_events::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        super::agent_events::normalized_pointer_context(input, "frames", pointer)
    }
}
