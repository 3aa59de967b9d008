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

use crate::suite_api::Suite;

/// Lists each suite's [`Suite`] value in [`all`], so that registering a
/// suite is its `pub mod` line above and one line of `registry!`.
macro_rules! registry {
    ($($folder:ident => $suite:ident),+ $(,)?) => {
        /// Every suite the harness knows, in report order.
        pub fn all() -> &'static [&'static dyn Suite] {
            &[$(&$folder::$suite),+]
        }

        /// Each suite's README (the page that states its rules) as
        /// `(suite folder path, text)`, embedded at build time, by suite name.
        fn readme_of(name: &str) -> Option<(&'static str, &'static str)> {
            [$((&$folder::$suite as &dyn Suite, concat!("src/suites/", stringify!($folder)), include_str!(concat!(stringify!($folder), "/README.md")))),+]
                .into_iter()
                .find(|(suite, _, _)| suite.name() == name)
                .map(|(_, folder, text)| (folder, text))
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

/// Where a rule is stated: the link to its anchor in its suite's README
/// (a path from the repository root, `src/suites/chat/README.md#rule-<id>`)
/// and the sentence that states it there (the rest of its table row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    /// `src/suites/<folder>/README.md#rule-<id>`.
    pub link: String,
    /// The rule's sentence, Markdown as in the README (empty when the
    /// README has no anchored row for it).
    pub sentence: String,
}

/// The anchor of `rule` in its suite's README.
pub fn rule_anchor(rule: &str) -> String {
    format!("rule-{rule}")
}

/// Where `rule` of `suite` is stated, when the suite is known.
pub fn rule_doc(suite: &str, rule: &str) -> Option<RuleDoc> {
    let (folder, text) = readme_of(suite)?;
    let anchor = rule_anchor(rule);
    let marker = format!("<a id=\"{anchor}\"></a>");
    let sentence = text
        .lines()
        .find(|line| line.starts_with('|') && line.contains(&marker))
        .map(|row| {
            let cells: Vec<&str> = row.trim().trim_matches('|').split(" | ").map(str::trim).collect();
            cells.get(1..).map(|rest| rest.join(" — ")).unwrap_or_default()
        })
        .unwrap_or_default();
    Some(RuleDoc { link: format!("{folder}/README.md#{anchor}"), sentence })
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
            crate::schema::compile_schema(suite.schema()).unwrap_or_else(|err| panic!("{}: {err}", suite.name()));
            assert!(!suite.readable_versions().is_empty());
            for shape in suite.document_shapes() {
                crate::schema::compile_schema(shape.schema)
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
