//! The suites, one folder each, and the registry that lists them.
//!
//! A suite folder holds everything of one suite: its [`Suite`] impl (the
//! folder's `mod.rs`), its reference implementation, its capture importers
//! and a `README.md` with its input and expected parts and its rules. Code
//! several suites share sits beside them: [`js`] (JavaScript semantics the
//! references reproduce), [`agent_events`] (the agent-event model of the
//! runtime suites) and [`claude_stream`] (the Claude stream-json reader).
//!
//! Adding a suite is its folder, its `pub mod` line, one line in the registry below, its schema under
//! `schemas/` and its fixtures.

pub mod agent_events;
pub mod claude_stream;
pub mod js;

// The suite folders are declared here, outside `registry!`: rustfmt does not
// format modules declared inside a macro call.
pub mod catalogs;
pub mod chat;
pub mod claude_display;
pub mod claude_events;
pub mod codex_app_server_events;
pub mod codex_exec_events;
pub mod event_fold;
pub mod pagination;
pub mod runtime_session;
pub mod sse;
pub mod tool_policy;

use crate::suite::Suite;

/// Lists each suite's [`Suite`] value in [`all`], so that registering a
/// suite is its `pub mod` line above and one line of `registry!`.
macro_rules! registry {
    ($($folder:ident => $suite:ident),+ $(,)?) => {
        /// Every suite the harness knows, in report order.
        pub fn all() -> &'static [&'static dyn Suite] {
            &[$(&$folder::$suite),+]
        }
    };
}

// The registry: one line per suite, in report order.
registry! {
    chat => ChatSuite,
    sse => SseSuite,
    pagination => PaginationSuite,
    catalogs => CatalogsSuite,
    claude_display => ClaudeDisplay,
    claude_events => ClaudeEventsSuite,
    codex_app_server_events => CodexAppServerEventsSuite,
    codex_exec_events => CodexExecEventsSuite,
    event_fold => EventFoldSuite,
    tool_policy => ToolPolicySuite,
    runtime_session => RuntimeSessionSuite,
}

/// Looks a suite up by folder name.
pub fn find(name: &str) -> Option<&'static dyn Suite> {
    all().iter().copied().find(|suite| suite.name() == name)
}

/// The names of every suite, in report order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|suite| suite.name()).collect()
}

/// The suite name closest to `name` (by edit distance, after the spelling
/// slips people make: case, `_` or a space for `-`), for messages about a
/// name no suite has.
pub fn nearest(name: &str) -> Option<&'static str> {
    nearest_name(name, &names())
}

fn nearest_name<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    let spelled: String =
        name.trim().chars().map(|c| if c == '_' || c == ' ' { '-' } else { c.to_ascii_lowercase() }).collect();
    known.iter().copied().min_by_key(|candidate| strsim::damerau_levenshtein(&spelled, candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_name_forgives_case_and_separators_first() {
        let known = ["chat", "sse", "tool-policy", "claude-events", "codex-exec-events"];
        assert_eq!(nearest_name("tool_policy", &known), Some("tool-policy"));
        assert_eq!(nearest_name("Tool Policy", &known), Some("tool-policy"));
        assert_eq!(nearest_name("chats", &known), Some("chat"));
        assert_eq!(nearest_name("codex_exec_event", &known), Some("codex-exec-events"));
        assert_eq!(nearest_name("SSE", &known), Some("sse"));
        assert_eq!(nearest_name("x", &[]), None);
    }

    #[test]
    fn every_registered_schema_compiles_and_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        for suite in all() {
            assert!(names.insert(suite.name()), "duplicate suite {}", suite.name());
            crate::validate::compile_schema(suite.schema()).unwrap_or_else(|err| panic!("{}: {err}", suite.name()));
            assert!(!suite.readable_versions().is_empty());
            for shape in suite.document_shapes() {
                crate::validate::compile_schema(shape.schema)
                    .unwrap_or_else(|err| panic!("{} {:?}: {err}", suite.name(), shape.versions));
            }
            for version in suite.reference_versions() {
                assert!(
                    suite.readable_versions().contains(version),
                    "{}: the reference implements fixtureVersion {version}, which no schema reads",
                    suite.name()
                );
            }
        }
    }
}
