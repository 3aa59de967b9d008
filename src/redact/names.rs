//! User names: learned from the home-directory paths a capture holds,
//! before anything is scrubbed, so that a name standing alone is replaced
//! too.

use super::KNOWN_USER_NAME_RULE;
use super::escapes;
use super::rules::Rule;
use super::scrubber::{Redactor, USER_LABEL};
use serde_json::Value;

impl Redactor {
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
}

/// Whether a user name found in a path is long enough, and shaped so, to be
/// replaced wherever it stands as a word.
pub(super) fn is_learnable_user_name(name: &str) -> bool {
    let word_edges =
        name.starts_with(|c: char| c.is_ascii_alphanumeric()) && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    word_edges && name.len() >= 3
}

/// Calls `visit` on every string and member name of `value`.
pub(super) fn collect_strings(value: &Value, visit: &mut dyn FnMut(&str)) {
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
