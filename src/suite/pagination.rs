//! The `pagination` suite: the HAPI message-window store.

use super::{Layout, Suite};

/// Op script + scripted responses → requests, outcomes and the final window.
#[derive(Debug)]
pub struct PaginationSuite;

impl Suite for PaginationSuite {
    fn name(&self) -> &'static str {
        "pagination"
    }

    fn title(&self) -> &'static str {
        "HAPI message window: paging requests, epoch resets, optimistic sends, trims"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/pagination.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Keys { input: &["ops"], expected: &["expectedState"] }
    }
}
