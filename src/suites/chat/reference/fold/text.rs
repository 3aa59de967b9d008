//! Text patterns the reducer matches (chat-reduce §4.2–§4.4, §7.4): usage
//! limit lines, CLI tags, task-notification summaries, the "No response
//! requested" sentinel and goal status lines. Hand-written matchers with
//! JavaScript regular-expression semantics (ASCII `\d`, JavaScript `\s`).

use crate::suites::chat::reference::model::Event;
use crate::suites::js::{ascii_digits_len, find_ascii_ci, is_whitespace, number, string, trim, trim_start};

/// The event a usage-limit text stands for, if it is one (§4.2).
pub fn usage_limit_event(text: &str) -> Option<Event<'static>> {
    if let Some(rest) = text.strip_prefix("Claude AI usage limit reached|") {
        let (ends_at, rest) = leading_number(rest)?;
        let limit_type = match rest.strip_prefix('|') {
            Some(limit_type) if !limit_type.contains('|') => limit_type,
            None if rest.is_empty() => "",
            _ => return None,
        };
        return Some(Event::built(vec![
            ("type", string("limit-reached")),
            ("endsAt", number(ends_at)),
            ("limitType", string(limit_type)),
        ]));
    }
    let rest = text.strip_prefix("Claude AI usage limit warning|")?;
    let (ends_at, rest) = leading_number(rest)?;
    let (percent, rest) = leading_number(rest.strip_prefix('|')?)?;
    let limit_type = rest.strip_prefix('|').filter(|limit_type| !limit_type.contains('|'))?;
    Some(Event::built(vec![
        ("type", string("limit-warning")),
        ("utilization", number(percent / 100.0)),
        ("endsAt", number(ends_at)),
        ("limitType", string(limit_type)),
    ]))
}

/// One or more ASCII digits as a finite double, and the rest of the text.
fn leading_number(text: &str) -> Option<(f64, &str)> {
    let len = ascii_digits_len(text);
    if len == 0 {
        return None;
    }
    let value: f64 = text[..len].parse().ok()?;
    value.is_finite().then(|| (value, &text[len..]))
}

/// Whether the text holds an opening CLI tag: `<local-command-…>`,
/// `<command-name>`, `<command-message>` or `<command-args>` (ASCII case-insensitive).
pub fn has_cli_tag(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter(|(_, b)| **b == b'<').any(|(at, _)| {
        let rest = &bytes[at..];
        let starts = |tag: &str| rest.len() >= tag.len() && rest[..tag.len()].eq_ignore_ascii_case(tag.as_bytes());
        if starts("<command-name>") || starts("<command-message>") || starts("<command-args>") {
            return true;
        }
        if !starts("<local-command-") {
            return false;
        }
        let name = &rest["<local-command-".len()..];
        let len = name.iter().take_while(|b| b.is_ascii_alphabetic() || **b == b'-').count();
        len > 0 && name.get(len) == Some(&b'>')
    })
}

/// Whether the text contains `tag`, ignoring ASCII case.
pub fn contains_tag(text: &str, tag: &str) -> bool {
    find_ascii_ci(text, tag).is_some()
}

/// The trimmed `<summary>` of a `<task-notification>` prompt, when non-empty.
pub fn task_notification_summary(prompt: &str) -> Option<&str> {
    if !trim_start(prompt).starts_with("<task-notification>") {
        return None;
    }
    let start = prompt.find("<summary>")? + "<summary>".len();
    let end = start + prompt[start..].find("</summary>")?;
    Some(trim(&prompt[start..end])).filter(|summary| !summary.is_empty())
}

/// The injected-turn sentinel text.
pub fn is_no_response_sentinel(text: &str) -> bool {
    matches!(trim(text), "No response requested." | "No response requested")
}

/// A goal status line the timeline hides (§7.4), given the trimmed message.
pub fn is_goal_status_line(message: &str) -> bool {
    if message == "Goal cleared" {
        return true;
    }
    let Some(rest) = message.strip_prefix("Goal ") else { return false };
    ["active", "paused", "complete", "blocked", "limited by budget", "limited by usage"].iter().any(|word| {
        let Some(after) = rest.strip_prefix(word) else { return false };
        if after.is_empty() {
            return true;
        }
        let after_ws = after.trim_start_matches(is_whitespace);
        if after_ws.len() == after.len() {
            return false;
        }
        let Some(after_dot) = after_ws.strip_prefix('\u{b7}') else { return false };
        after_dot.chars().next().is_some_and(is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn usage_limit_texts() {
        let warning = usage_limit_event("Claude AI usage limit warning|1755010800|85|").unwrap();
        assert_eq!(
            *warning.value,
            json!({"type": "limit-warning", "utilization": 0.85, "endsAt": 1755010800, "limitType": ""})
        );
        let reached = usage_limit_event("Claude AI usage limit reached|1755010800").unwrap();
        assert_eq!(*reached.value, json!({"type": "limit-reached", "endsAt": 1755010800, "limitType": ""}));
        let with_newline = usage_limit_event("Claude AI usage limit reached|1|five_hour\n").unwrap();
        assert_eq!(with_newline.value["limitType"], "five_hour\n");
        assert!(usage_limit_event(" Claude AI usage limit reached|1").is_none());
        assert!(usage_limit_event("Claude AI usage limit warning|1|2").is_none());
        assert!(usage_limit_event("Claude AI usage limit reached|1|a|b").is_none());
        assert!(usage_limit_event(&format!("Claude AI usage limit reached|{}", "9".repeat(400))).is_none());
        let ninety = usage_limit_event("Claude AI usage limit warning|1|90|x").unwrap();
        assert_eq!(ninety.value["utilization"], json!(0.9));
    }

    #[test]
    fn cli_tags() {
        assert!(has_cli_tag("x <Command-Name>/x"));
        assert!(has_cli_tag("<local-command-stdout>out"));
        assert!(!has_cli_tag("<local-command->"));
        assert!(!has_cli_tag("</command-name>"));
        assert!(!has_cli_tag("<local-command-std0ut>"));
    }

    #[test]
    fn task_notification() {
        let prompt = "  <task-notification><summary>\n Done \n</summary></task-notification>";
        assert_eq!(task_notification_summary(prompt), Some("Done"));
        assert_eq!(task_notification_summary("<task-notification><summary> </summary>"), None);
        assert_eq!(task_notification_summary("x<task-notification><summary>a</summary>"), None);
    }

    #[test]
    fn goal_lines() {
        assert!(is_goal_status_line("Goal active \u{b7} 10k tokens"));
        assert!(is_goal_status_line("Goal limited by usage"));
        assert!(is_goal_status_line("Goal cleared"));
        assert!(!is_goal_status_line("Goal activex"));
        assert!(!is_goal_status_line("Goal completed"));
        assert!(!is_goal_status_line("Goal active now"));
    }
}
