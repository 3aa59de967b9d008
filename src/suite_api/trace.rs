//! Rule traces: which named decode rules a reference run exercised, for
//! `conform coverage`; where in the expected output each rule decided
//! (provenance, see [`crate::suite_api::provenance`]); and the portability notes
//! a reference raises when an output it computed depends on a choice ports
//! may make otherwise (`regen` and `capture` warn about those).

use std::collections::BTreeSet;

/// Records which named decode rules a reference run exercised.
///
/// Rule ids are stable dotted names such as `user.attachments.invalid-skipped`
/// or `codex.unknown-type-dropped`; `conform coverage` reports them.
pub trait RuleTrace {
    /// Notes that `rule` decided part of the output.
    fn hit(&mut self, rule: &'static str);

    /// Notes that the output depends on a behaviour of the original that
    /// its own documentation asks ports not to copy (for example an order
    /// decided by locale collation where ports are told to compare code
    /// units): a fixture expecting this output is not portable. `why` says
    /// what depends on what, in one sentence. Ignored by default.
    fn not_portable(&mut self, why: String) {
        let _ = why;
    }

    /// Whether this trace keeps provenance: a reference may skip work that
    /// only serves [`RuleTrace::emitted`] (formatting a key) when it does
    /// not. False by default.
    fn keeps_provenance(&self) -> bool {
        false
    }

    /// An emission point: the hits recorded since the previous emission
    /// point decided the output items `scope` names. Hits no emission point
    /// claims concern the case as a whole. Ignored by default, so a trace
    /// that does not keep provenance costs one empty call per point.
    fn emitted(&mut self, scope: Scope<'_>) {
        let _ = scope;
    }

    /// The hits the previous emission point claimed also decided the items
    /// `scope` names (a message's rules decide its blocks and the tool
    /// cards its calls make). Nothing when that point claimed no hit.
    /// Ignored by default.
    fn also(&mut self, scope: Scope<'_>) {
        let _ = scope;
    }
}

/// Which items of the expected output an emission point names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// The case as a whole (what a hit no point claims concerns too).
    Case,
    /// The items (objects, at any depth) whose `id` member is this string
    /// or starts with it followed by `:` (a chat message's blocks are
    /// `<id>` and `<id>:<n>`).
    Id(&'a str),
    /// One member of the items [`Scope::Id`] names: the rule decided that
    /// member only (a pending card's `createdAt`).
    IdMember(&'a str, &'static str),
    /// The elements `start..end` of the top-level array member `member` of
    /// the expected part (the events one wire line became).
    Items {
        /// The array member (`events`).
        member: &'static str,
        /// The first element.
        start: usize,
        /// One past the last element.
        end: usize,
    },
    /// The value at this JSON pointer into the expected part.
    Pointer(&'a str),
}

/// A trace that collects portability notes and ignores rule hits: each
/// distinct note once, in the order first raised, up to
/// [`PortabilityNotes::LIMIT`]; the distinct notes beyond are only counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortabilityNotes {
    /// The notes kept.
    pub notes: Vec<String>,
    /// Distinct notes raised beyond the limit.
    pub omitted: usize,
    seen: BTreeSet<String>,
}

impl PortabilityNotes {
    /// At most this many notes are kept (one long sort can raise hundreds).
    pub const LIMIT: usize = 10;

    /// Whether nothing was raised.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// The notes as lines, with a last line counting the omitted ones.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.notes.clone();
        if self.omitted > 0 {
            lines.push(format!("… and {} more like these", self.omitted));
        }
        lines
    }
}

impl RuleTrace for PortabilityNotes {
    fn hit(&mut self, _rule: &'static str) {}

    fn not_portable(&mut self, why: String) {
        if self.seen.contains(&why) {
            return;
        }
        if self.notes.len() < Self::LIMIT {
            self.notes.push(why.clone());
        } else {
            self.omitted += 1;
        }
        self.seen.insert(why);
    }
}

/// A trace that records nothing (the normal, fast path).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl RuleTrace for NoTrace {
    fn hit(&mut self, _rule: &'static str) {}
}

/// A trace that collects the set of rules hit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet(pub BTreeSet<&'static str>);

impl RuleTrace for RuleSet {
    fn hit(&mut self, rule: &'static str) {
        self.0.insert(rule);
    }
}

/// The fixtureVersion that introduced a rule, read from its id: ids of rules
/// a later version added start with `v<N>.` and the rule's number in that
/// version's specification (`v2.d3.scheme-not-http`); every other id is a
/// version 1 rule. `conform coverage` reports each version's rules apart.
pub fn introduced_in(rule: &str) -> u32 {
    rule.strip_prefix('v')
        .and_then(|rest| rest.split_once('.'))
        .and_then(|(number, _)| number.parse::<u32>().ok())
        .filter(|version| *version >= 2)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portability_notes_are_kept_once_and_capped() {
        let mut notes = PortabilityNotes::default();
        for round in 0..2 {
            for n in 0..PortabilityNotes::LIMIT + 3 {
                notes.not_portable(format!("note {n}"));
            }
            assert_eq!(notes.notes.len(), PortabilityNotes::LIMIT, "round {round}");
            assert_eq!(notes.omitted, 3, "round {round}");
        }
        assert_eq!(notes.lines().last().map(String::as_str), Some("… and 3 more like these"));
        let mut quiet = NoTrace;
        quiet.not_portable("ignored".to_owned());
        assert!(PortabilityNotes::default().is_empty());
    }

    #[test]
    fn the_version_prefix_names_the_version_that_introduced_a_rule() {
        assert_eq!(introduced_in("v2.c5.version-bumps-seq"), 2);
        assert_eq!(introduced_in("v10.a1.x"), 10);
        assert_eq!(introduced_in("user.attachments.kept"), 1);
        assert_eq!(introduced_in("v1.x"), 1);
        assert_eq!(introduced_in("vx.y"), 1);
        assert_eq!(introduced_in("v2"), 1, "no dotted rule after the prefix");
    }
}
