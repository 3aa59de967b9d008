//! The `tool-policy` suite: mode-aware allow/deny decisions for tool calls.

/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::suite_api::ReferenceFn;
use crate::suite_api::{DocumentShape, Layout, Suite};

/// `{tool, command?, mode}` → `{allowed, reason?}`.
#[derive(Debug)]
pub struct ToolPolicySuite;

impl Suite for ToolPolicySuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "tool-policy"
    }

    fn title(&self) -> &'static str {
        "Mode-aware tool policy: planner and implementation rule sets, deny patterns matched anywhere"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape { versions: &[1], schema: include_str!("../../../schemas/tool-policy.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }
}
