//! The `claude-display` suite: a Claude Code (Agent SDK) stream of
//! `SDKMessage` frames → the display model (transcript turns, system
//! notices, the session snapshot) plus one disposition per frame.

/// The capture importers (`conform capture`).
pub mod capture;
/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::suite_api::capture::CaptureFormat;
use crate::suite_api::{DocumentShape, Layout, ReferenceFn, Suite};

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClaudeDisplay;

impl Suite for ClaudeDisplay {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "claude-display"
    }

    fn title(&self) -> &'static str {
        "Claude SDK messages to turns, notices, session snapshot and dispositions"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape { versions: &[1], schema: include_str!("../../../schemas/claude-display.schema.json") }]
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
            summary: "Claude stream-json stdout (with its NAME.stdin.jsonl companion) or a session transcript \
                      (~/.claude/projects/…/SESSION.jsonl); one case per file",
            open: capture::open,
            window: None,
            sniff: crate::suites::claude_stream::sniff_stream_or_transcript,
        }]
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::reference)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }
}
