//! Scrubbing secrets and personal data out of captured documents before they
//! are written, and a lint pass that refuses to write if anything remains.
//!
//! A [`Redactor`] lives for one capture: every secret it replaces gets a
//! placeholder `REDACTED_<LABEL>_<n>`, and the same secret gets the same
//! placeholder everywhere in that capture, so structure (which tool call used
//! which key, which paths belong to the same user) survives. Strings are
//! searched as they are and through up to three levels of JSON escapes (see
//! [`escapes`]), so a key inside a serialized object inside a tool result is
//! found and replaced in place without re-serializing its surroundings.
//!
//! The rules are one table ([`rules::BUILTIN_RULES`]) plus the user's
//! `--redact-rule` patterns; objects members with secret names
//! ([`rules::is_secret_member`]) are replaced whatever their value looks like.
//! [`Redactor::lint`] re-scans a finished document with the same rules and
//! reports anything secret-looking that is not a placeholder.
//!
//! Personal data that is not a secret (phone numbers, IP addresses, card
//! numbers: the rules marked [`rules::RuleSpec::personal_data`]) is replaced
//! too, unless [`RedactOptions::keep_personal_data`] asks to keep it; the
//! lint then leaves it alone as well.

pub mod escapes;
pub mod personal;
pub mod printed;
pub mod role_addresses;
pub mod rules;
pub mod screen;
pub mod search;
pub mod wrapped;

use crate::json;
use regex::Regex;
use rules::{BUILTIN_RULES, Rule, is_secret_member};
use screen::RuleList;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;
use thiserror::Error;

/// Id under which replacements by member name are counted and reported.
pub const SECRET_MEMBER_RULE: &str = "secret-member";

/// Id under which bare occurrences of learned user names are counted.
pub const KNOWN_USER_NAME_RULE: &str = "known-user-name";

/// Placeholder label of user names, whichever rule found them.
const USER_LABEL: &str = "USER";

/// Placeholder label of values replaced by member name.
const SECRET_MEMBER_LABEL: &str = "SECRET";

/// Upper bound on replace-and-rescan rounds for one string. Every round
/// replaces at least one secret by a placeholder no rule matches, so this is
/// only a guard against pathological inputs.
const MAX_ROUNDS: usize = 256;

/// Matches the placeholders this module writes.
static PLACEHOLDER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"REDACTED_[A-Z0-9]+(?:_[A-Z0-9]+)*_[0-9]+").ok());

/// Why a redactor could not be built.
#[derive(Debug, Error)]
pub enum RedactError {
    /// A `--redact-rule` pattern is not a valid regular expression.
    #[error("--redact-rule {pattern:?} is not a valid regular expression: {message}")]
    BadUserRule {
        /// The pattern as given.
        pattern: String,
        /// The regex compiler's message.
        message: String,
    },
    /// A built-in pattern failed to compile (a bug in the rules table).
    #[error("built-in redaction rule does not compile: {0}")]
    BadBuiltinRule(String),
}

/// Something secret-looking found by [`Redactor::lint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule that found it.
    pub rule: String,
    /// Where: `line L, column C` of the document text, or a JSON pointer.
    pub location: String,
    /// The start of the finding, masked (`sk-a… (48 chars)`), so reporting a
    /// leak does not repeat it.
    pub excerpt: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} looks like a secret ({})", self.location, self.excerpt, self.rule)
    }
}

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

/// What a redactor replaces besides the built-in secret rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedactOptions {
    /// The user's `--redact-rule` patterns, which come before the built-in
    /// rules.
    pub user_rules: Vec<String>,
    /// Keep phone numbers, IP addresses and card numbers
    /// (`--keep-personal-data`).
    pub keep_personal_data: bool,
}

/// Scrubs one capture. See the module docs.
#[derive(Debug)]
pub struct Redactor {
    rules: RuleList,
    /// Placeholder of each secret, keyed by the secret with every escape
    /// level decoded, so one secret gets one placeholder however it was
    /// written and whichever rule found it.
    placeholders: HashMap<String, String>,
    counters: HashMap<String, usize>,
    replacements: BTreeMap<String, usize>,
    /// User names already turned into `known-user-name` rules.
    learned_user_names: HashSet<String>,
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

    /// Learns the user names that home-directory paths anywhere in `value`
    /// reveal, so that the same names are also replaced where they stand
    /// alone (the owner columns of an `ls -l`, a prompt such as `marco@box`).
    /// Call it on everything a capture holds before scrubbing any of it, so
    /// a bare name before the first path is caught too. Names under three
    /// characters are not learned: replacing them everywhere would hide
    /// ordinary words (generic account names are no user's name anyway).
    pub fn learn_user_names(&mut self, value: &Value) {
        let names = self.user_names_in(value);
        self.learn_names(names);
    }

    /// The user names [`Redactor::learn_user_names`] would learn from
    /// `value`, in order of first sight (repeats included). Only reads: a
    /// capture read in pieces collects them piece by piece and learns them
    /// all, in the capture's order, with [`Redactor::learn_names`].
    pub fn user_names_in(&self, value: &Value) -> Vec<String> {
        let mut names = Vec::new();
        // The path rules (their `accept` already refuses generic accounts).
        let path_rules: Vec<&Rule> = self
            .rules
            .all()
            .iter()
            .filter(|rule| rule.label == USER_LABEL && rule.id != KNOWN_USER_NAME_RULE)
            .collect();
        collect_strings(value, &mut |text| {
            for view in escapes::views(text) {
                for rule in &path_rules {
                    let found = rule.find_all(&view.text).into_iter().map(|(_, name)| name);
                    names.extend(found.filter(|name| is_learnable_user_name(name)).map(str::to_owned));
                }
            }
        });
        names
    }

    /// Learns user names (see [`Redactor::learn_user_names`]) in the order
    /// given, which numbers their placeholders.
    pub fn learn_names(&mut self, names: impl IntoIterator<Item = String>) {
        // In order of first sight, so placeholders are numbered the same way on every run.
        let mut learned = Vec::new();
        for name in names {
            if !self.learned_user_names.insert(name.clone()) {
                continue;
            }
            if let Ok(rule) = Rule::plain(KNOWN_USER_NAME_RULE, USER_LABEL, &format!(r"\b{}\b", regex::escape(&name))) {
                learned.push(rule);
            }
        }
        self.rules.extend(learned);
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

/// Replacements made by [`Redactor::scrub_value_known`], per rule id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replacements(BTreeMap<String, usize>);

/// A secret that has no placeholder yet (see [`Redactor::scrub_value_known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewSecret;

/// The lint of a [`Redactor`], apart from it (see [`Redactor::linter`]).
#[derive(Clone, Debug)]
pub struct Linter {
    rules: RuleList,
}

impl Linter {
    /// [`Redactor::lint`].
    pub fn lint(&self, text: &str, value: &Value) -> Vec<Finding> {
        lint_with(&self.rules, text, value)
    }
}

/// Where placeholders come from while scrubbing.
trait Assign {
    /// The placeholder of `secret` (found by a rule with `label`), or
    /// [`NewSecret`] when it would be a new one this table cannot hand out.
    fn placeholder(&mut self, label: &str, secret: &str) -> Result<String, NewSecret>;
    /// Counts one replacement by `rule`.
    fn replaced(&mut self, rule: &str);
}

/// The redactor's own table: hands out the next number on first sight.
struct Live<'a> {
    placeholders: &'a mut HashMap<String, String>,
    counters: &'a mut HashMap<String, usize>,
    replacements: &'a mut BTreeMap<String, usize>,
}

impl Assign for Live<'_> {
    fn placeholder(&mut self, label: &str, secret: &str) -> Result<String, NewSecret> {
        let key = placeholder_key(secret);
        if let Some(existing) = self.placeholders.get(&key) {
            return Ok(existing.clone());
        }
        let counter = self.counters.entry(label.to_owned()).or_default();
        *counter += 1;
        let placeholder = format!("REDACTED_{label}_{counter}");
        self.placeholders.insert(key, placeholder.clone());
        Ok(placeholder)
    }

    fn replaced(&mut self, rule: &str) {
        *self.replacements.entry(rule.to_owned()).or_default() += 1;
    }
}

/// A read-only view of the table: known secrets only.
struct Known<'a> {
    placeholders: &'a HashMap<String, String>,
    replacements: BTreeMap<String, usize>,
}

impl Assign for Known<'_> {
    fn placeholder(&mut self, _label: &str, secret: &str) -> Result<String, NewSecret> {
        self.placeholders.get(&placeholder_key(secret)).cloned().ok_or(NewSecret)
    }

    fn replaced(&mut self, rule: &str) {
        *self.replacements.entry(rule.to_owned()).or_default() += 1;
    }
}

/// One secret gets one placeholder however it was written: the key is the
/// secret with every escape level decoded.
fn placeholder_key(secret: &str) -> String {
    escapes::views(secret).pop().map_or_else(|| secret.to_owned(), |view| view.text)
}

fn scrub_value_with(rules: &RuleList, table: &mut impl Assign, value: &mut Value) -> Result<(), NewSecret> {
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
fn scrub_changed(rules: &RuleList, table: &mut impl Assign, text: &str) -> Result<Option<String>, NewSecret> {
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
fn replace_once(rules: &RuleList, table: &mut impl Assign, text: &str) -> Result<Option<String>, NewSecret> {
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

/// Every finding of the lint in a document (see [`Redactor::lint`]).
fn lint_with(rules: &RuleList, text: &str, value: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    for view in escapes::views(text) {
        for hit in find_hits(rules, &view.text) {
            let Some(span) = view.original_span(hit.range.clone()) else { continue };
            let (line, column) = json::line_column(text, span.start);
            let finding = Finding {
                rule: rules.get(hit.rule).id.clone(),
                location: format!("line {line}, column {column}"),
                excerpt: mask(&view.text[hit.range]),
            };
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
    }
    lint_members(value, String::new(), &mut findings);
    findings
}

/// One rule match in a view.
struct Hit {
    rule: usize,
    range: Range<usize>,
}

/// Every non-overlapping secret in `text`: rules in priority order, never
/// overlapping a placeholder or an earlier rule's match. Only the rules the
/// screen lets through search (the others find nothing in `text`).
fn find_hits(rules: &RuleList, text: &str) -> Vec<Hit> {
    let mut candidates = rules.candidates(text).peekable();
    if candidates.peek().is_none() {
        return Vec::new();
    }
    let mut taken: Vec<Range<usize>> = placeholder_spans(text);
    let mut hits = Vec::new();
    for (index, rule) in candidates {
        for (range, _) in rule.find_all(text) {
            if taken.iter().any(|t| overlaps(t, &range)) {
                continue;
            }
            taken.push(range.clone());
            hits.push(Hit { rule: index, range });
        }
    }
    hits
}

fn lint_members(value: &Value, at: String, findings: &mut Vec<Finding>) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                lint_members(item, json::pointer::push_index(&at, index), findings);
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                let here = json::pointer::push(&at, name);
                if is_secret_member(name)
                    && let Value::String(text) = member
                    && !text.is_empty()
                    && !contains_placeholder(text)
                {
                    findings.push(Finding {
                        rule: SECRET_MEMBER_RULE.to_owned(),
                        location: here.clone(),
                        excerpt: mask(text),
                    });
                }
                lint_members(member, here, findings);
            }
        }
        _ => {}
    })
}

/// Whether a user name found in a path is long enough, and shaped so, to be
/// replaced wherever it stands as a word.
fn is_learnable_user_name(name: &str) -> bool {
    let word_edges =
        name.starts_with(|c: char| c.is_ascii_alphanumeric()) && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    word_edges && name.len() >= 3
}

/// Calls `visit` on every string and member name of `value`.
fn collect_strings(value: &Value, visit: &mut dyn FnMut(&str)) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::String(text) => visit(text),
        Value::Array(items) => items.iter().for_each(|item| collect_strings(item, visit)),
        Value::Object(members) => {
            for (name, member) in members {
                visit(name);
                collect_strings(member, visit);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    })
}

fn placeholder_spans(text: &str) -> Vec<Range<usize>> {
    match PLACEHOLDER.as_ref() {
        Some(regex) => regex.find_iter(text).map(|m| m.range()).collect(),
        None => Vec::new(),
    }
}

/// Whether `text` holds a placeholder written by a redactor.
pub fn contains_placeholder(text: &str) -> bool {
    PLACEHOLDER.as_ref().is_some_and(|regex| regex.is_match(text))
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The first few characters of a secret and its length.
fn mask(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}… ({} chars)", secret.chars().count())
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn lint_finds_what_scrubbing_would_and_ignores_placeholders() {
        let r = redactor();
        let text = "{\n    \"a\": \"REDACTED_EMAIL_1\",\n    \"b\": \"mail bob@corp.io\"\n}\n";
        let value = json!({"a": "REDACTED_EMAIL_1", "b": "mail bob@corp.io", "secret": "x"});
        let findings = r.lint(text, &value);
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[0].location, "line 3, column 16");
        assert_eq!(findings[0].excerpt, "bob@… (11 chars)");
        assert_eq!(findings[1].location, "/secret");
    }
}
