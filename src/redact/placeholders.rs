//! Placeholders: what they look like (`REDACTED_<LABEL>_<n>`), and the
//! tables that hand them out while scrubbing (the redactor's own, which
//! numbers new secrets, and a read-only view of it, which cannot).

use super::escapes;
use regex::Regex;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::LazyLock;

/// Matches the placeholders this module writes.
pub(super) static PLACEHOLDER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"REDACTED_[A-Z0-9]+(?:_[A-Z0-9]+)*_[0-9]+").ok());

/// Replacements made by [`Redactor::scrub_value_known`], per rule id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replacements(pub(super) BTreeMap<String, usize>);

/// A secret that has no placeholder yet (see [`Redactor::scrub_value_known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewSecret;

/// Where placeholders come from while scrubbing.
pub(super) trait Assign {
    /// The placeholder of `secret` (found by a rule with `label`), or
    /// [`NewSecret`] when it would be a new one this table cannot hand out.
    fn placeholder(&mut self, label: &str, secret: &str) -> Result<String, NewSecret>;
    /// Counts one replacement by `rule`.
    fn replaced(&mut self, rule: &str);
}

/// The redactor's own table: hands out the next number on first sight.
pub(super) struct Live<'a> {
    pub(super) placeholders: &'a mut HashMap<String, String>,
    pub(super) counters: &'a mut HashMap<String, usize>,
    pub(super) replacements: &'a mut BTreeMap<String, usize>,
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
pub(super) struct Known<'a> {
    pub(super) placeholders: &'a HashMap<String, String>,
    pub(super) replacements: BTreeMap<String, usize>,
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
pub(super) fn placeholder_key(secret: &str) -> String {
    escapes::views(secret).pop().map_or_else(|| secret.to_owned(), |view| view.text)
}

pub(super) fn placeholder_spans(text: &str) -> Vec<Range<usize>> {
    match PLACEHOLDER.as_ref() {
        Some(regex) => regex.find_iter(text).map(|m| m.range()).collect(),
        None => Vec::new(),
    }
}

/// Whether `text` holds a placeholder written by a redactor.
pub fn contains_placeholder(text: &str) -> bool {
    PLACEHOLDER.as_ref().is_some_and(|regex| regex.is_match(text))
}
