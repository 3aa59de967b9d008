//! Failure signatures: what "the same failure" means while shrinking a case.
//!
//! An implementation that produced an output fails with the set of
//! `(pointer pattern, difference kind)` pairs of its differences from the
//! expectation: `/blocks/*/tool/state value-changed` is the same bug whether
//! it shows on block 3 of 200 or block 1 of 2. One that produced no output
//! fails with its verdict (`error`, `crash`, `timeout`, …); the message is
//! left out, since it usually names ids or sizes that change as the input
//! shrinks.

use crate::compare::{DifferenceKind, differences};
use crate::implementation::Outcome;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;

/// How an implementation fails on a case.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Signature {
    /// It produced no output: the verdict.
    Verdict(&'static str),
    /// It produced a different output: the kinds of differences, by pointer
    /// pattern (array indices as `*`).
    Differences(BTreeSet<(String, DifferenceKind)>),
}

impl Signature {
    /// The signature of an outcome against an expectation; `None` when the
    /// outcome matches it (no failure). `ignore` drops difference kinds that
    /// do not count (see [`super::Oracle::Stored`]).
    pub fn of(outcome: &Outcome, expected: &Value, ignore: &[DifferenceKind]) -> Option<Signature> {
        let verdict = match outcome {
            Outcome::Output(actual) => {
                let (found, _) = differences(expected, actual);
                let pairs: BTreeSet<(String, DifferenceKind)> =
                    found.iter().filter(|d| !ignore.contains(&d.kind)).map(|d| (d.pointer_pattern(), d.kind)).collect();
                return if found.is_empty() { None } else { Some(Signature::Differences(pairs)) };
            }
            Outcome::Error(_) => "error",
            Outcome::Skipped(_) => "skipped",
            Outcome::Unsupported(_) => "unsupported",
            Outcome::Crash(_) => "crash",
            Outcome::Timeout(_) => "timeout",
            Outcome::ProtocolError(_) => "protocol-error",
        };
        Some(Signature::Verdict(verdict))
    }

    /// Whether this is a failure worth reducing (a verdict, or at least one
    /// difference that counts).
    pub fn is_failure(&self) -> bool {
        match self {
            Signature::Verdict(_) => true,
            Signature::Differences(pairs) => !pairs.is_empty(),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signature::Verdict(verdict) => write!(f, "verdict {verdict}"),
            Signature::Differences(pairs) => {
                let list: Vec<String> = pairs
                    .iter()
                    .map(|(pattern, kind)| format!("{} {kind}", if pattern.is_empty() { "(root)" } else { pattern }))
                    .collect();
                write!(f, "{}", list.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_bug_at_another_index_has_the_same_signature() {
        let expected = json!({"blocks": [{"state": "done"}, {"state": "done"}, {"state": "done"}]});
        let at_two = Outcome::Output(json!({"blocks": [{"state": "done"}, {"state": "done"}, {"state": "open"}]}));
        let at_zero = Outcome::Output(json!({"blocks": [{"state": "open"}]}));
        let short = json!({"blocks": [{"state": "done"}]});
        assert_eq!(Signature::of(&at_two, &expected, &[]), Signature::of(&at_zero, &short, &[]));
        assert_eq!(
            Signature::of(&at_zero, &short, &[]).map(|s| s.to_string()).as_deref(),
            Some("/blocks/*/state value-changed")
        );
        assert_eq!(Signature::of(&Outcome::Output(short.clone()), &short, &[]), None);
        assert_eq!(Signature::of(&Outcome::Crash("x".into()), &short, &[]), Some(Signature::Verdict("crash")));
    }

    #[test]
    fn ignored_kinds_leave_an_empty_signature_that_is_not_a_failure() {
        let expected = json!([1, 2, 3]);
        let signature = Signature::of(&Outcome::Output(json!([1, 3])), &expected, &[DifferenceKind::MissingElements]);
        assert_eq!(signature.as_ref().map(Signature::is_failure), Some(false));
    }
}
