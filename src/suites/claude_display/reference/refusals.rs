//! The texts Claude Code writes into an error `tool_result` when a call did
//! not run because a person (or a permission rule) refused it, or because
//! the user interrupted it. Each row is a pattern: the path, the tool or the
//! command it names vary, the wording does not. The suite README's table
//! "Refusal and interruption texts" lists the same rows.
//!
//! A refusal makes the call `approval-denied` (it never ran); an
//! interruption leaves it `error` (it may have run part-way), named by its
//! own rule so a fixture pins the decision.

use regex::Regex;
use std::sync::LazyLock;

/// What the CLI's text says happened to the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// Nobody allowed it: `approval-denied`.
    Refused,
    /// The user stopped it: `error`.
    Interrupted,
}

/// One row: its rule id, the kind and the pattern (anchored at the start
/// of the trimmed text; what follows the pattern is free).
struct Row {
    rule: &'static str,
    kind: RefusalKind,
    pattern: &'static str,
}

const ROWS: [Row; 4] = [
    Row {
        // "…The tool use was rejected (eg. if it was a file edit, the new_string
        // was NOT written to the file). STOP what you are doing…", or with the
        // user's feedback after "To tell you how to proceed, the user said:".
        rule: "claude-display.refusal.rejected",
        kind: RefusalKind::Refused,
        pattern: r"The user doesn't want to proceed with this tool use\.",
    },
    Row {
        rule: "claude-display.refusal.prompt-aborted",
        kind: RefusalKind::Refused,
        pattern: r"Permission prompt was aborted\.",
    },
    Row {
        // "Claude requested permissions to write to /tmp/a.txt, but you haven't
        // granted it yet." (also "to edit <path>", "to read <path>", "to use
        // <Tool>"): a prompt the session could not show.
        rule: "claude-display.refusal.not-granted",
        kind: RefusalKind::Refused,
        pattern: r"Claude requested permissions? to [^\n]+, but you haven't granted it yet\.?",
    },
    Row {
        rule: "claude-display.refusal.interrupted",
        kind: RefusalKind::Interrupted,
        pattern: r"\[Request interrupted by user(?: for tool use)?\]",
    },
];

static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    ROWS.iter().map(|row| Regex::new(&format!("^(?:{})", row.pattern)).expect("the refusal patterns compile")).collect()
});

/// The row an error result's text (or its `tool_use_result` sidecar string,
/// with the CLI's `Error: ` prefix) matches: its rule id and kind.
pub fn classify(text: &str) -> Option<(&'static str, RefusalKind)> {
    let text = text.trim_start();
    let text = text.strip_prefix("Error: ").unwrap_or(text);
    let position = PATTERNS.iter().position(|pattern| pattern.is_match(text))?;
    ROWS.get(position).map(|row| (row.rule, row.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_matches_with_its_path_or_tool_varying() {
        let refused = |text: &str| classify(text).map(|(rule, kind)| (rule.rsplit('.').next().unwrap_or(""), kind));
        let cases = [
            ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. …).", "rejected"),
            ("Permission prompt was aborted.", "prompt-aborted"),
            ("Error: Permission prompt was aborted.", "prompt-aborted"),
            (
                "Claude requested permissions to write to /home/u/a b.txt, but you haven't granted it yet.",
                "not-granted",
            ),
            ("Claude requested permissions to use WebFetch, but you haven't granted it yet.", "not-granted"),
        ];
        for (text, rule) in cases {
            assert_eq!(refused(text), Some((rule, RefusalKind::Refused)), "{text}");
        }
        assert_eq!(
            refused("[Request interrupted by user for tool use]"),
            Some(("interrupted", RefusalKind::Interrupted))
        );
        // The wording is fixed: a different sentence, or the text later on, is no refusal.
        assert_eq!(classify("Claude requested permissions to write to /a"), None);
        assert_eq!(classify("exit 1: Permission prompt was aborted."), None);
        assert_eq!(classify("User rejected tool use"), None);
        // Wordings no recording in ../shared holds are no rows (the README's table says where each row is from).
        assert_eq!(classify("The user doesn't want to take this action right now."), None);
        assert_eq!(classify("Permission to use Bash with command rm -rf build has been denied."), None);
    }
}
