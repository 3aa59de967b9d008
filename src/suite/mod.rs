//! Suites: one per fixture folder (`chat`, `sse`, …).
//!
//! A [`Suite`] knows the shape of its documents (how a document splits into the
//! input an implementation receives and the expected part it must produce),
//! the JSON Schema documents must satisfy, the fixtureVersions it can judge,
//! and its reference implementation, if it has one.
//!
//! Adding a suite is local: write a type implementing [`Suite`] in its own
//! file here, add its schema under `schemas/`, and list it in [`all`].

mod agent_events;
mod interface;
mod layout;
mod reference_fn;

pub mod catalogs;
pub mod chat;
pub mod claude_display;
pub mod claude_events;
pub mod codex_app_server_events;
pub mod codex_exec_events;
pub mod event_fold;
pub mod pagination;
pub mod sse;
pub mod tool_policy;

pub use interface::{PointerContext, Suite};
pub(crate) use layout::split_by_layout;
pub use layout::{CaseParts, Layout, has_envelope};
pub use reference_fn::{ReferenceFailure, ReferenceFn, call_reference};

/// Every suite the harness knows, in report order.
pub fn all() -> &'static [&'static dyn Suite] {
    &[
        &chat::ChatSuite,
        &sse::SseSuite,
        &pagination::PaginationSuite,
        &catalogs::CatalogsSuite,
        &claude_display::ClaudeDisplay,
        &claude_events::ClaudeEventsSuite,
        &codex_app_server_events::CodexAppServerEventsSuite,
        &codex_exec_events::CodexExecEventsSuite,
        &event_fold::EventFoldSuite,
        &tool_policy::ToolPolicySuite,
    ]
}

/// Looks a suite up by folder name.
pub fn find(name: &str) -> Option<&'static dyn Suite> {
    all().iter().copied().find(|suite| suite.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_schema_compiles_and_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        for suite in all() {
            assert!(names.insert(suite.name()), "duplicate suite {}", suite.name());
            crate::validate::compile_schema(suite.schema()).unwrap_or_else(|err| panic!("{}: {err}", suite.name()));
            assert!(!suite.supported_versions().is_empty());
        }
    }
}
