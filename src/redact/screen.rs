//! One pass over a text that tells which rules can match in it at all.
//!
//! Every string of a capture and every view of a written document is
//! searched by every rule (some forty patterns). Almost all of them find
//! nothing, and searching a short string costs a rule about as much as a
//! long one: one call into the engine, its cache, its prefilter. A [`Screen`]
//! is all the rules' patterns, word boundaries removed, compiled into one
//! multi-pattern search that reports which patterns match anywhere in the
//! text; only those rules then search it. A pattern without its word
//! boundaries matches wherever the rule's pattern matches (see
//! [`super::search`]), so a rule the screen leaves out finds nothing in that
//! text, and [`RuleList::candidates`] yields exactly the rules that can.
//!
//! When the combined pattern does not compile within [`SCREEN_NFA_LIMIT`]
//! (thousands of `--redact-rule` patterns or learned user names), every rule
//! is tried, as if there were no screen: slower, never different.

use super::rules::Rule;
use regex_automata::meta::{self, Regex};
use regex_automata::{Input, MatchKind, PatternSet};

/// Size limit of the combined pattern's compiled automaton, in bytes.
pub const SCREEN_NFA_LIMIT: usize = 40 * (1 << 20);

/// Cache of the lazy DFA of the combined pattern, in bytes (per thread).
const SCREEN_CACHE: usize = 8 * (1 << 20);

/// The combined search (see the module docs).
#[derive(Clone, Debug)]
pub struct Screen {
    regex: Regex,
}

impl Screen {
    /// Compiles the loose patterns of `rules`; `None` when they do not fit.
    pub fn new(rules: &[Rule]) -> Option<Screen> {
        let patterns: Vec<_> = rules.iter().map(|rule| rule.finder.loose_pattern().clone()).collect();
        let config = meta::Config::new()
            .match_kind(MatchKind::All)
            .utf8_empty(true)
            .nfa_size_limit(Some(SCREEN_NFA_LIMIT))
            .hybrid_cache_capacity(SCREEN_CACHE);
        let regex = meta::Builder::new().configure(config).build_many_from_hir(&patterns).ok()?;
        Some(Screen { regex })
    }

    /// The patterns that match somewhere in `text`.
    fn matching(&self, text: &str) -> PatternSet {
        let mut set = PatternSet::new(self.regex.pattern_len());
        self.regex.which_overlapping_matches(&Input::new(text), &mut set);
        set
    }
}

/// The rules of a redactor in priority order, with their [`Screen`].
#[derive(Clone, Debug, Default)]
pub struct RuleList {
    rules: Vec<Rule>,
    screen: Option<Screen>,
}

impl RuleList {
    /// The rules, screened.
    pub fn new(rules: Vec<Rule>) -> RuleList {
        let screen = Screen::new(&rules);
        RuleList { rules, screen }
    }

    /// Adds rules at the end (lowest priority) and screens them all again.
    pub fn extend(&mut self, more: Vec<Rule>) {
        if more.is_empty() {
            return;
        }
        self.rules.extend(more);
        self.screen = Screen::new(&self.rules);
    }

    /// Every rule, in priority order.
    pub fn all(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule at `index` of [`RuleList::all`].
    pub fn get(&self, index: usize) -> &Rule {
        &self.rules[index]
    }

    /// The rules that can match in `text` (every other finds nothing there),
    /// with their indexes, in priority order.
    pub fn candidates(&self, text: &str) -> impl Iterator<Item = (usize, &Rule)> {
        let indexes: Vec<usize> = match &self.screen {
            Some(screen) => screen.matching(text).iter().map(|pattern| pattern.as_usize()).collect(),
            None => (0..self.rules.len()).collect(),
        };
        indexes.into_iter().map(|index| (index, &self.rules[index]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::rules::BUILTIN_RULES;

    fn builtin() -> Vec<Rule> {
        BUILTIN_RULES.iter().map(|spec| Rule::builtin(spec).unwrap_or_else(|err| panic!("{err}"))).collect()
    }

    /// The rules that find something in `text`, found the slow way.
    fn finding(rules: &[Rule], text: &str) -> Vec<usize> {
        rules.iter().enumerate().filter(|(_, rule)| !rule.find_all(text).is_empty()).map(|(index, _)| index).collect()
    }

    #[test]
    fn the_screen_keeps_every_rule_that_finds_something() {
        let list = RuleList::new(builtin());
        assert!(list.screen.is_some(), "the built-in rules fit in one screen");
        let texts = [
            "key sk-ant-api03-AAAAbbbbCCCC, mail bob@corp.io, /Users/alice/src",
            "é-bob@corp.io and password = 'hunter2' µs 4111 1111 1111 1111",
            "Authorization: Bearer abcdefghijklmnop1234 from 10.0.0.12 or fe80::1",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            "nothing to see here: 1–200 µs",
            "",
        ];
        for text in texts {
            let screened: Vec<usize> = list.candidates(text).map(|(index, _)| index).collect();
            for index in finding(list.all(), text) {
                assert!(screened.contains(&index), "rule {} finds something in {text:?}", list.get(index).id);
            }
        }
        assert_eq!(list.candidates("nothing to see here").count(), 0);
    }

    #[test]
    fn without_a_screen_every_rule_is_a_candidate() {
        let list = RuleList { rules: builtin(), screen: None };
        assert_eq!(list.candidates("plain").count(), BUILTIN_RULES.len());
    }

    #[test]
    fn extending_screens_the_new_rules_too() {
        let mut list = RuleList::new(builtin());
        let name = Rule::plain("known-user-name", "USER", r"\bmarco\b").unwrap_or_else(|err| panic!("{err}"));
        list.extend(vec![name]);
        let found: Vec<&str> = list.candidates("owner marco").map(|(_, rule)| rule.id.as_str()).collect();
        assert_eq!(found, ["known-user-name"]);
    }
}
