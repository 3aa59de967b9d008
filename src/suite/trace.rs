//! Rule traces: which named decode rules a reference run exercised, for
//! `conform coverage`.

use std::collections::BTreeSet;

/// Records which named decode rules a reference run exercised.
///
/// Rule ids are stable dotted names such as `user.attachments.invalid-skipped`
/// or `codex.unknown-type-dropped`; `conform coverage` reports them.
pub trait RuleTrace {
    /// Notes that `rule` decided part of the output.
    fn hit(&mut self, rule: &'static str);
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
