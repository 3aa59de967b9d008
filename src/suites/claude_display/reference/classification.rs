//! The six-row classification of `user` envelopes (the envelope lies: tool
//! results, harness injections and CLI records all arrive as `user`):
//!
//! 1. `isReplay: true` → replay;
//! 2. a tool-result block → tool return;
//! 3. `isSynthetic: true` → synthetic;
//! 4. every block matches a text rule → synthetic, or a notification for
//!    task notifications;
//! 5. `parent_tool_use_id` set and the sub-agent has no prompt yet →
//!    sub-agent prompt;
//! 6. otherwise → real user input.
//!
//! Rows 3 and 4 share one answer: when the text rules recognise the
//! machinery they decide its reason (and whether it surfaces) whether or not
//! the SDK flagged it, so flags and text rules give the same turns.

use super::kinds::{BlockRule, USER_BLOCKS, block_rule};
use super::parts::{block_text, block_type};
use super::text_rules::{Rule, match_text};
use serde_json::Value;

/// What a user envelope really is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Row 1.
    Replay,
    /// Row 2.
    ToolReturn,
    /// Rows 3–4, hidden: `rule` is the text rule that named it, if any.
    Machinery {
        /// The text rule that named it, if any.
        rule: Option<Rule>,
    },
    /// Row 4's notify rule: a task notification rewritten to its summary.
    Notification,
    /// Row 5.
    SubagentPrompt,
    /// Row 6.
    UserInput,
}

/// Where the message sits, as far as row 5 cares.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    /// The message has a known `parent_tool_use_id`.
    pub in_subagent: bool,
    /// That sub-agent's opening prompt has already been seen.
    pub prompt_seen: bool,
}

/// Classifies a `user` message whose content blocks are `blocks`.
pub fn classify(message: &Value, blocks: &[Value], place: Place) -> Class {
    let flag = |key: &str| message.get(key) == Some(&Value::Bool(true));
    if flag("isReplay") {
        return Class::Replay;
    }
    if blocks.iter().any(|block| block_rule(USER_BLOCKS, block_type(block)) == BlockRule::SettlesCall) {
        return Class::ToolReturn;
    }
    let rule = machinery_rule(blocks);
    if rule == Some(Rule::TaskNotification) {
        return Class::Notification;
    }
    if flag("isSynthetic") || rule.is_some() {
        return Class::Machinery { rule };
    }
    if place.in_subagent && !place.prompt_seen {
        return Class::SubagentPrompt;
    }
    Class::UserInput
}

/// The text rule naming a message: every block must be a text block that
/// matches a rule. A message made only of task notifications is a
/// notification; otherwise the first rule that is not a task notification
/// names it.
pub fn machinery_rule(blocks: &[Value]) -> Option<Rule> {
    if blocks.is_empty() {
        return None;
    }
    let rules: Option<Vec<Rule>> = blocks.iter().map(|block| block_text(block).and_then(match_text)).collect();
    let rules = rules?;
    rules.iter().copied().find(|rule| *rule != Rule::TaskNotification).or(Some(Rule::TaskNotification))
}

/// The reason of a flagged synthetic message no text rule names, inferred
/// from context: the expansion of the slash command just recorded (a skill
/// body when the command names a skill in the snapshot), a prompt-submit
/// hook, a system reminder, or other.
pub fn inferred_reason(blocks: &[Value], last_command: Option<&str>, skills: &[String]) -> &'static str {
    if let Some(command) = last_command {
        return if skills.iter().any(|skill| skill == command) { "skill-body" } else { "slash-command" };
    }
    let texts = || blocks.iter().filter_map(block_text);
    if texts().any(super::text_rules::mentions_hook) {
        "hook-output"
    } else if texts().any(super::text_rules::mentions_reminder) {
        "system-reminder"
    } else {
        "other"
    }
}
