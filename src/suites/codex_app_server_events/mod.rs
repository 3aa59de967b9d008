//! The `codex-app-server-events` suite: Codex app-server JSON-RPC frames → normalized events, one disposition per frame.

/// The capture importers (`conform capture`).
pub mod capture;
/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::suite_api::ReferenceFn;
use crate::suite_api::capture::CaptureFormat;
use crate::suite_api::{DocumentShape, Layout, PointerContext, Suite};
use serde_json::Value;

/// Codex app-server frames → `{events, dispositions}`.
#[derive(Debug)]
pub struct CodexAppServerEventsSuite;

impl Suite for CodexAppServerEventsSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "codex-app-server-events"
    }

    fn title(&self) -> &'static str {
        "Codex app-server JSON-RPC frames → normalized events, one disposition per frame"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape {
            versions: &[1],
            schema: include_str!("../../../schemas/codex-app-server-events.schema.json"),
        }]
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("frames")
    }

    fn capture_formats(&self) -> &'static [CaptureFormat] {
        &[CaptureFormat {
            name: "codex-app-server-jsonl",
            summary: "stdout of `codex app-server` (with its NAME.client.jsonl companion); one case per file",
            open: capture::open,
            window: None,
            sniff: capture::sniff,
        }]
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        crate::suites::agent_events::normalized_pointer_context(input, "frames", pointer)
    }
}
