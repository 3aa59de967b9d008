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
    use super::introduced_in;

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
