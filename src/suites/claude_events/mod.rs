//! The `claude-events` suite: Claude Agent SDK messages → normalized events, one disposition per message.

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

/// Claude SDK messages → `{events, dispositions}`.
#[derive(Debug)]
pub struct ClaudeEventsSuite;

impl Suite for ClaudeEventsSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "claude-events"
    }

    fn title(&self) -> &'static str {
        "Claude Agent SDK messages → normalized events, one disposition per message"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape { versions: &[1], schema: include_str!("../../../schemas/claude-events.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("messages")
    }

    fn capture_formats(&self) -> &'static [CaptureFormat] {
        &[CaptureFormat {
            name: "claude-stream-json",
            summary: "stdout of `claude -p --output-format stream-json --verbose` (with its NAME.stdin.jsonl \
                      companion when there is one); one case per query() run",
            open: capture::open,
            window: None,
            sniff: crate::suites::claude_stream::sniff_stream,
        }]
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        crate::suites::agent_events::normalized_pointer_context(input, "messages", pointer)
    }
}
