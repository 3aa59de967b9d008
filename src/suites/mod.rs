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
use std::cell::RefCell;
use std::sync::RwLock;

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
/// (a path from the repository root, `src/suites/chat/README.md#rule-<id>`,
/// after the [`rules_base`] when one is set) and the sentence that states it
/// there (the rest of its table row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    /// `<base>src/suites/<folder>/README.md#rule-<id>`.
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
    Some(RuleDoc { link: format!("{}{folder}/README.md#{anchor}", rules_base()), sentence })
}

/// The base every rule link starts with for the rest of the process
/// (`--rules-base`; the command line sets it once): empty, the default, keeps
/// links relative to the repository root.
static RULES_BASE: RwLock<String> = RwLock::new(String::new());

thread_local! {
    /// A base that takes the place of [`RULES_BASE`] on one thread, for
    /// [`with_rules_base`].
    static THREAD_RULES_BASE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Makes every rule link start with `base` for the rest of the process:
/// reports are read away from the repository (a CI artifact folder, a pull
/// request comment), where a path from the repository root leads nowhere,
/// so a URL such as `https://github.com/ORG/REPO/blob/main/` makes them
/// absolute. A `/` is added when `base` does not end with one, and every
/// character that could end a link or a Markdown or HTML construct is
/// percent-encoded (see [`link_base`]); an empty base keeps today's links.
pub fn set_rules_base(base: &str) {
    *RULES_BASE.write().unwrap_or_else(std::sync::PoisonError::into_inner) = link_base(base);
}

/// Runs `render` with `base` as the rules base on this thread only (the
/// golden tests render beside each other in one process).
pub fn with_rules_base<T>(base: &str, render: impl FnOnce() -> T) -> T {
    let before = THREAD_RULES_BASE.with(|cell| cell.replace(Some(link_base(base))));
    let result = render();
    THREAD_RULES_BASE.with(|cell| *cell.borrow_mut() = before);
    result
}

/// The base rule links start with now (empty by default).
pub fn rules_base() -> String {
    THREAD_RULES_BASE
        .with(|cell| cell.borrow().clone())
        .unwrap_or_else(|| RULES_BASE.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone())
}

/// `base` as the start of a link: a `/` after it unless it is empty or ends
/// with one, and every byte outside the characters a URL path keeps as they
/// are percent-encoded, so the base cannot close a Markdown link or table
/// cell, open a tag, or break out of an attribute or a plain-text line.
fn link_base(base: &str) -> String {
    const KEPT: &[u8] = b"-._~:/@!$+,;=%_";
    let mut link = String::with_capacity(base.len() + 1);
    for &byte in base.as_bytes() {
        if byte.is_ascii_alphanumeric() || KEPT.contains(&byte) {
            link.push(char::from(byte));
        } else {
            link.push_str(&format!("%{byte:02X}"));
        }
    }
    if !link.is_empty() && !link.ends_with('/') {
        link.push('/');
    }
    link
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
    fn a_rules_base_prefixes_every_rule_link_and_is_encoded_to_stay_a_link() {
        let link = |base: &str| with_rules_base(base, || rule_doc("chat", "user.text.string").unwrap().link);
        assert_eq!(link(""), "src/suites/chat/README.md#rule-user.text.string");
        assert_eq!(
            link("https://example.invalid/repo/blob/main/"),
            "https://example.invalid/repo/blob/main/src/suites/chat/README.md#rule-user.text.string"
        );
        assert_eq!(link("../repo"), "../repo/src/suites/chat/README.md#rule-user.text.string");
        assert_eq!(
            link("https://x.invalid/a b)|<\"'[]"),
            "https://x.invalid/a%20b%29%7C%3C%22%27%5B%5D/src/suites/chat/README.md#rule-user.text.string"
        );
        assert_eq!(rule_doc("chat", "user.text.string").unwrap().link, link(""), "the override is scoped");
    }

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
