//! The `event-fold` suite: normalized events → chat messages, live and
//! replay paths agreeing.

/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::suite_api::ReferenceFn;
use crate::suite_api::{DocumentShape, Layout, PointerContext, Suite};
use serde_json::Value;

/// Events (+ replay row order) → `{messages}` with the block model.
#[derive(Debug)]
pub struct EventFoldSuite;

impl Suite for EventFoldSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "event-fold"
    }

    fn title(&self) -> &'static str {
        "Normalized events → chat messages (block model, derived fields); live and replay paths agree"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape { versions: &[1], schema: include_str!("../../../schemas/event-fold.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("events")
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        crate::suites::agent_events::normalized_pointer_context(input, "events", pointer)
    }
}
