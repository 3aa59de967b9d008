//! The scrubber: a [`Redactor`] replaces every secret of a value or text
//! by its placeholder, through every escape level, in place.

use super::hits::{find_hits, overlaps};
use super::lint::{Finding, Linter, lint_with};
use super::placeholders::{Assign, Known, Live, NewSecret, Replacements, contains_placeholder};
use super::rules::{BUILTIN_RULES, Rule, is_secret_member};
use super::screen::RuleList;
use super::{RedactError, RedactOptions, SECRET_MEMBER_RULE, escapes};
use crate::json;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

/// Placeholder label of user names, whichever rule found them.
pub(super) const USER_LABEL: &str = "USER";

/// Placeholder label of values replaced by member name.
pub(super) const SECRET_MEMBER_LABEL: &str = "SECRET";

/// Upper bound on replace-and-rescan rounds for one string. Every round
/// replaces at least one secret by a placeholder no rule matches, so this is
/// only a guard against pathological inputs.
pub(super) const MAX_ROUNDS: usize = 256;

/// How much a redactor replaced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedactionSummary {
    /// Replacements per rule id.
    pub replacements: BTreeMap<String, usize>,
    /// Distinct secrets (distinct placeholders handed out).
    pub distinct: usize,
}

impl RedactionSummary {
    /// Total replacements.
    pub fn total(&self) -> usize {
        self.replacements.values().sum()
    }
}

/// Scrubs one capture. See the module docs.
#[derive(Debug)]
pub struct Redactor {
    pub(super) rules: RuleList,
    /// Placeholder of each secret, keyed by the secret with every escape
    /// level decoded, so one secret gets one placeholder however it was
    /// written and whichever rule found it.
    pub(super) placeholders: HashMap<String, String>,
    pub(super) counters: HashMap<String, usize>,
    pub(super) replacements: BTreeMap<String, usize>,
    /// User names already turned into `known-user-name` rules.
    pub(super) learned_user_names: HashSet<String>,
}

impl Redactor {
    /// A redactor with every built-in rule, preceded by the user's patterns
    /// (which therefore win where both match).
    pub fn new(user_rules: &[String]) -> Result<Redactor, RedactError> {
        Redactor::with_options(&RedactOptions { user_rules: user_rules.to_vec(), keep_personal_data: false })
    }

    /// A redactor with the user's patterns first, then the built-in rules
    /// (without the personal-data ones when asked to keep personal data).
    pub fn with_options(options: &RedactOptions) -> Result<Redactor, RedactError> {
        let mut rules = Vec::new();
        for (index, pattern) in options.user_rules.iter().enumerate() {
            let rule = Rule::custom(index + 1, pattern)
                .map_err(|err| RedactError::BadUserRule { pattern: pattern.clone(), message: err.to_string() })?;
            rules.push(rule);
        }
        for spec in BUILTIN_RULES.iter().filter(|spec| !(options.keep_personal_data && spec.personal_data)) {
            rules.push(Rule::builtin(spec).map_err(|err| RedactError::BadBuiltinRule(err.to_string()))?);
        }
        Ok(Redactor {
            rules: RuleList::new(rules),
            placeholders: HashMap::new(),
            counters: HashMap::new(),
            replacements: BTreeMap::new(),
            learned_user_names: HashSet::new(),
        })
    }

    /// What was replaced so far.
    pub fn summary(&self) -> RedactionSummary {
        RedactionSummary { replacements: self.replacements.clone(), distinct: self.placeholders.len() }
    }

    /// Scrubs every string (and member name) of `value` in place. A number
    /// that a rule finds (a card or phone number written as a JSON number)
    /// becomes the placeholder string: the written document must not hold
    /// it, and the lint reads numbers too.
    pub fn scrub_value(&mut self, value: &mut Value) {
        let mut live = Live {
            placeholders: &mut self.placeholders,
            counters: &mut self.counters,
            replacements: &mut self.replacements,
        };
        // A live table hands out every placeholder, so this cannot fail.
        let _ = scrub_value_with(&self.rules, &mut live, value);
    }

    /// Scrubs one text.
    pub fn scrub_text(&mut self, text: &str) -> String {
        let mut live = Live {
            placeholders: &mut self.placeholders,
            counters: &mut self.counters,
            replacements: &mut self.replacements,
        };
        scrub_changed(&self.rules, &mut live, text).ok().flatten().unwrap_or_else(|| text.to_owned())
    }

    /// Scrubs `value` in place as [`Redactor::scrub_value`] would, without
    /// changing the redactor, when every secret in it already has its
    /// placeholder; the replacements it made are returned, to be counted
    /// with [`Redactor::count`]. A secret seen for the first time is
    /// [`NewSecret`], and `value` is then partly scrubbed (work on a copy):
    /// its placeholder's number depends on what is scrubbed before it.
    pub fn scrub_value_known(&self, value: &mut Value) -> Result<Replacements, NewSecret> {
        let mut known = Known { placeholders: &self.placeholders, replacements: BTreeMap::new() };
        scrub_value_with(&self.rules, &mut known, value)?;
        Ok(Replacements(known.replacements))
    }

    /// [`Redactor::scrub_value_known`] for one text.
    pub fn scrub_text_known(&self, text: &str) -> Result<(String, Replacements), NewSecret> {
        let mut known = Known { placeholders: &self.placeholders, replacements: BTreeMap::new() };
        let scrubbed = scrub_changed(&self.rules, &mut known, text)?.unwrap_or_else(|| text.to_owned());
        Ok((scrubbed, Replacements(known.replacements)))
    }

    /// Counts replacements made by [`Redactor::scrub_value_known`].
    pub fn count(&mut self, replacements: Replacements) {
        for (rule, count) in replacements.0 {
            *self.replacements.entry(rule).or_default() += count;
        }
    }

    /// The rules of the lint, to lint documents on other threads while the
    /// redactor goes on scrubbing (the rules no longer change once the user
    /// names are learned).
    pub fn linter(&self) -> Linter {
        Linter { rules: self.rules.clone() }
    }

    /// Re-scans a finished document (its exact text and parsed value) and
    /// lists everything secret-looking that is not a placeholder. An empty
    /// list means the document may be written.
    pub fn lint(&self, text: &str, value: &Value) -> Vec<Finding> {
        lint_with(&self.rules, text, value)
    }
}

pub(super) fn scrub_value_with(rules: &RuleList, table: &mut impl Assign, value: &mut Value) -> Result<(), NewSecret> {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::String(text) => {
            if let Some(scrubbed) = scrub_changed(rules, table, text)? {
                *text = scrubbed;
            }
            Ok(())
        }
        Value::Number(number) => {
            // As the document will be written, so the lint sees the same text.
            let mut lexeme = String::new();
            json::write_number(&mut lexeme, number);
            if let Some(scrubbed) = scrub_changed(rules, table, &lexeme)? {
                *value = Value::String(scrubbed);
            }
            Ok(())
        }
        Value::Array(items) => items.iter_mut().try_for_each(|item| scrub_value_with(rules, table, item)),
        Value::Object(members) => {
            let entries = std::mem::take(members);
            let mut failed = Ok(());
            for (name, mut member) in entries {
                if failed.is_err() {
                    members.insert(name, member);
                    continue;
                }
                let name = match scrub_changed(rules, table, &name) {
                    Ok(changed) => changed.unwrap_or(name),
                    Err(err) => {
                        failed = Err(err);
                        members.insert(name, member);
                        continue;
                    }
                };
                failed = scrub_value_with(rules, table, &mut member);
                if failed.is_ok()
                    && is_secret_member(&name)
                    && let Value::String(text) = &member
                    && !text.is_empty()
                    && !contains_placeholder(text)
                {
                    match table.placeholder(SECRET_MEMBER_LABEL, text) {
                        Ok(placeholder) => {
                            table.replaced(SECRET_MEMBER_RULE);
                            member = Value::String(placeholder);
                        }
                        Err(err) => failed = Err(err),
                    }
                }
                members.insert(name, member);
            }
            failed
        }
        Value::Null | Value::Bool(_) => Ok(()),
    })
}

/// The scrubbed text, or `None` when nothing needed replacing.
pub(super) fn scrub_changed(
    rules: &RuleList,
    table: &mut impl Assign,
    text: &str,
) -> Result<Option<String>, NewSecret> {
    let mut current: Option<String> = None;
    for _ in 0..MAX_ROUNDS {
        let source = current.as_deref().unwrap_or(text);
        let Some(next) = replace_once(rules, table, source)? else { break };
        current = Some(next);
    }
    Ok(current)
}

/// Finds secrets at the shallowest escape level that has any, replaces
/// them all, and returns the new text (`None`: nothing found).
pub(super) fn replace_once(rules: &RuleList, table: &mut impl Assign, text: &str) -> Result<Option<String>, NewSecret> {
    for view in escapes::views(text) {
        let hits = find_hits(rules, &view.text);
        if hits.is_empty() {
            continue;
        }
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for hit in hits {
            let Some(span) = view.original_span(hit.range.clone()) else { continue };
            if edits.iter().any(|(taken, _)| overlaps(taken, &span)) {
                continue;
            }
            let placeholder = table.placeholder(&rules.get(hit.rule).label, &view.text[hit.range.clone()])?;
            table.replaced(&rules.get(hit.rule).id);
            edits.push((span, placeholder));
        }
        if edits.is_empty() {
            continue;
        }
        edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        let mut out = text.to_owned();
        for (span, placeholder) in edits {
            out.replace_range(span, &placeholder);
        }
        return Ok(Some(out));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::KNOWN_USER_NAME_RULE;
    use super::*;
    use serde_json::json;

    fn redactor() -> Redactor {
        Redactor::new(&[]).unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn the_same_secret_gets_the_same_placeholder() {
        let mut r = redactor();
        let mut value = json!({
            "a": "key sk-ant-api03-AAAAbbbbCCCC and again sk-ant-api03-AAAAbbbbCCCC",
            "b": ["other sk-ant-api03-ZZZZ"],
        });
        r.scrub_value(&mut value);
        assert_eq!(
            value,
            json!({
                "a": "key REDACTED_ANTHROPIC_KEY_1 and again REDACTED_ANTHROPIC_KEY_1",
                "b": ["other REDACTED_ANTHROPIC_KEY_2"],
            })
        );
        assert_eq!(r.summary().distinct, 2);
    }

    #[test]
    fn secrets_behind_escapes_are_replaced_in_place() {
        let mut r = redactor();
        let text = r#"{"output":"{\"token\":\"gh\u0070_0123456789abcdef\",\"n\":1}"}"#;
        let scrubbed = r.scrub_text(text);
        assert_eq!(scrubbed, r#"{"output":"{\"token\":\"REDACTED_GITHUB_TOKEN_1\",\"n\":1}"}"#);
    }

    #[test]
    fn one_user_name_is_one_placeholder_across_path_forms() {
        let mut r = redactor();
        let scrubbed = r.scrub_text(r"/Users/alice/a and /home/alice/b and C:\Users\alice\c");
        assert_eq!(scrubbed, r"/Users/REDACTED_USER_1/a and /home/REDACTED_USER_1/b and C:\Users\REDACTED_USER_1\c");
    }

    #[test]
    fn user_names_learned_from_paths_are_replaced_where_they_stand_alone() {
        let mut r = redactor();
        let mut capture = json!([
            {"stdout": "drwxr-x--- 9 cyou cyou 4096 Jan 11 .\nprompt: cyou@box; cyoung stays"},
            {"cwd": "/home/cyou/src", "log": "/tmp/claude-1000/-home-marco-projects-spotter/tasks/a.output"},
            {"owner": "marco", "account": "root", "other": "/home/root/x and /home/user/y"}
        ]);
        r.learn_user_names(&capture);
        r.scrub_value(&mut capture);
        let text = capture.to_string();
        assert!(!text.contains("cyou ") && !text.contains("cyou@") && !text.contains("marco"), "{text}");
        assert!(text.contains("9 REDACTED_USER_1 REDACTED_USER_1 4096"), "{text}");
        assert!(text.contains("-home-REDACTED_USER_2-projects-spotter"), "{text}");
        assert!(text.contains("cyoung stays") && text.contains(r#""account":"root""#), "{text}");
        assert_eq!(r.summary().replacements.get(KNOWN_USER_NAME_RULE), Some(&4));
        assert!(r.lint(&text, &capture).is_empty());
    }

    #[test]
    fn secret_members_are_replaced_whatever_their_value() {
        let mut r = redactor();
        let mut value = json!({"password": "correct horse", "input_tokens": 12, "apiKey": ""});
        r.scrub_value(&mut value);
        assert_eq!(value, json!({"password": "REDACTED_SECRET_1", "input_tokens": 12, "apiKey": ""}));
    }

    #[test]
    fn deep_values_are_scrubbed_without_overflowing_the_stack() {
        let mut value = json!("mail bob@corp.io");
        for _ in 0..9_000 {
            value = Value::Array(vec![value]);
        }
        let mut r = redactor();
        r.scrub_value(&mut value);
        let text = crate::json::to_compact_string(&value);
        assert!(text.contains("REDACTED_EMAIL_1") && !text.contains("bob@"));
        assert!(r.lint(&text, &value).is_empty());
        // serde_json drops nested values recursively; leave this one to the
        // end of the process rather than the test thread's stack.
        std::mem::forget(value);
    }

    #[test]
    fn user_rules_come_first_and_bad_ones_are_reported() {
        let mut r = Redactor::new(&["internal-(\\d+)\\.corp".to_owned()]).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(r.scrub_text("host internal-42.corp"), "host internal-REDACTED_CUSTOM1_1.corp");
        assert!(matches!(Redactor::new(&["(".to_owned()]), Err(RedactError::BadUserRule { .. })));
    }
}
