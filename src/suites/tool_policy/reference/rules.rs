//! The seed's tool-policy rule sets, written as the JavaScript patterns they
//! are in the seed and compiled with JavaScript's `\s`, `\b` and `.`.
//!
//! The planner's deny list is the seed's `DENIED_SHELL` with `^` replaced by
//! `\b`: the seed's security lesson (start-of-string anchors let
//! `echo ok; rm -rf /` through) applies to every deny pattern.

use crate::suites::js::js_pattern;
use regex::Regex;
use std::sync::LazyLock;

/// A compiled rule list.
pub struct Patterns(Vec<Regex>);

impl Patterns {
    fn new(sources: &[&str]) -> Patterns {
        Patterns(
            sources
                .iter()
                .map(|source| {
                    // The sources are constants of this module; a test compiles every one.
                    Regex::new(&js_pattern(source))
                        .unwrap_or_else(|err| unreachable!("invalid built-in pattern {source}: {err}"))
                })
                .collect(),
        )
    }

    /// Whether any pattern matches `command`.
    pub fn any_match(&self, command: &str) -> bool {
        self.0.iter().any(|pattern| pattern.is_match(command))
    }

    /// Whether some pattern matches at the very start of `command` (what a
    /// pattern anchored with `^` would also match).
    pub fn matches_at_start(&self, command: &str) -> bool {
        self.0.iter().any(|pattern| pattern.find(command).is_some_and(|found| found.start() == 0))
    }
}

/// Read-only shell commands (`ALLOWED_SHELL`).
pub static ALLOWED_SHELL: LazyLock<Patterns> = LazyLock::new(|| {
    Patterns::new(&[
        r"^cat\s",
        r"^ls\s",
        r"^ls$",
        r"^head\s",
        r"^tail\s",
        r"^find\s",
        r"^grep\s",
        r"^rg\s",
        r"^wc\s",
        r"^echo\s",
        r"^pwd$",
        r"^which\s",
        r"^file\s",
        r"^stat\s",
        r"^tree",
    ])
});

/// The planner's denied commands (`DENIED_SHELL`, matched anywhere).
pub static DENIED_SHELL: LazyLock<Patterns> = LazyLock::new(|| {
    Patterns::new(&[
        r"\brm\s",
        r"\bsudo\s",
        r"\bchmod\s",
        r"\bchown\s",
        r"\bgit\s+push",
        r"\bgit\s+reset\s+--hard",
        r"\bkill\s",
        r"\bpkill\s",
        r"\bshutdown",
        r"\breboot",
    ])
});

/// The domain CLI's write commands (`ALLOWED_WRITE`).
pub static ALLOWED_WRITE: LazyLock<Patterns> = LazyLock::new(|| Patterns::new(&[r"^plan\s+"]));

/// Implementation mode's extra shell allowlist (`IMPL_ALLOWED_SHELL`).
pub static IMPL_ALLOWED_SHELL: LazyLock<Patterns> = LazyLock::new(|| {
    Patterns::new(&[
        r"^git\s+(add|commit|push|pull|fetch|show|diff|log|status|stash|merge|rebase|checkout|branch|remote|rev-parse|tag|cherry-pick)\b",
        r"^(npm|npx|node|go|make|cargo|python3|pip3)\b",
        r"^(mkdir|cp|mv|rm)\s",
    ])
});

/// Implementation mode's denied commands (`IMPL_DENIED`).
pub static IMPL_DENIED: LazyLock<Patterns> = LazyLock::new(|| {
    Patterns::new(&[
        r"\brm\s+-rf?\s+\/",
        r"\bsudo\s",
        r"\bgit\s+push\s+.*--force",
        r"\bgit\s+push\s+-f\b",
        r"\bgit\s+reset\s+--hard",
        r"\bshutdown\b",
        r"\breboot\b",
        r"\bkill\s",
        r"\bpkill\s",
        r"\bchmod\s",
        r"\bchown\s",
        r"\bdd\b.*\bof=",
    ])
});

/// Tools the planner always allows.
pub const PLANNER_READ_TOOLS: [&str; 3] = ["Read", "Glob", "Grep"];

/// Tools the planner always denies.
pub const PLANNER_WRITE_TOOLS: [&str; 2] = ["Write", "Edit"];

/// Tools implementation mode allows outright (`IMPL_ALLOWED_TOOLS` without
/// `Bash`, whose commands still go through the shell rules).
pub const IMPL_ALLOWED_TOOLS: [&str; 8] = ["Read", "Glob", "Grep", "Write", "Edit", "Task", "WebSearch", "WebFetch"];
