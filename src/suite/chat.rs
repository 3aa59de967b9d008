//! The `chat` suite: the HAPI message decode/render pipeline.

use super::{Layout, Suite};

/// Wire messages + agentState → projected chat blocks.
#[derive(Debug)]
pub struct ChatSuite;

impl Suite for ChatSuite {
    fn name(&self) -> &'static str {
        "chat"
    }

    fn title(&self) -> &'static str {
        "HAPI chat pipeline: wire messages and agentState to projected chat blocks"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/chat.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }
}
