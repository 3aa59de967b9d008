//! The `sse` suite: the HAPI `session-updated` versioned-patch fold.

use super::{Layout, Suite};

/// Initial session + patches → per-patch verdicts and the final session.
#[derive(Debug)]
pub struct SseSuite;

impl Suite for SseSuite {
    fn name(&self) -> &'static str {
        "sse"
    }

    fn title(&self) -> &'static str {
        "HAPI session-patch fold: per-patch verdicts and the final session"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/sse.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Keys { input: &["initialSession", "patches"], expected: &["expectedPatchResults", "expectedSession"] }
    }
}
