//! Failure signatures: what "the same failure" means while shrinking a case.
//!
//! An implementation that produced an output fails with the set of
//! difference [`Signature`]s of its differences from the expectation (the
//! same type that clusters a report's failures). One that produced no output
//! fails with its verdict; the message is left out, since it usually names
//! ids or sizes that change as the input shrinks.

use crate::compare::{DifferenceKind, differences};
use crate::implementation::Outcome;
use crate::report::{Signature, Verdict};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;

/// How an implementation fails on a case: one verdict signature, or the set
/// of difference signatures of its output.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Failure(pub BTreeSet<Signature>);

impl Failure {
    /// The failure of an outcome against an expectation; `None` when the
    /// outcome matches it (no failure). `ignore` drops difference kinds that
    /// do not count (see [`super::Oracle::Stored`]).
    pub fn of(outcome: &Outcome, expected: &Value, ignore: &[DifferenceKind]) -> Option<Failure> {
        if let Outcome::Output(actual) = outcome {
            let (found, _) = differences(expected, actual);
            let signatures: BTreeSet<Signature> = found
                .iter()
                .filter(|d| !ignore.contains(&d.kind))
                .map(|d| Signature::difference(&d.pointer_pattern(), d.kind))
                .collect();
            return if found.is_empty() { None } else { Some(Failure(signatures)) };
        }
        let verdict = Verdict::of(outcome)?;
        Some(Failure::verdict(verdict))
    }

    /// The failure of an outcome without output.
    pub fn verdict(verdict: Verdict) -> Failure {
        Failure(BTreeSet::from([Signature::verdict(verdict)]))
    }

    /// Whether this is a failure worth reducing (a verdict, or at least one
    /// difference that counts).
    pub fn is_failure(&self) -> bool {
        !self.0.is_empty()
    }

    /// Whether any difference of the failure is of `kind`.
    pub fn has_kind(&self, wanted: DifferenceKind) -> bool {
        self.0.iter().any(|signature| matches!(signature, Signature::Difference { kind, .. } if *kind == wanted))
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self
            .0
            .iter()
            .map(|signature| match signature {
                Signature::Verdict { verdict, .. } => format!("verdict {verdict}"),
                Signature::Rule { rule, .. } => format!("rule {rule}"),
                Signature::Difference { pattern, kind, .. } => {
                    format!("{} {kind}", if pattern.is_empty() { "(root)" } else { pattern })
                }
            })
            .collect();
        write!(f, "{}", list.join(", "))
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
        assert_eq!(Failure::of(&at_two, &expected, &[]), Failure::of(&at_zero, &short, &[]));
        assert_eq!(
            Failure::of(&at_zero, &short, &[]).map(|s| s.to_string()).as_deref(),
            Some("/blocks/*/state value-changed")
        );
        assert_eq!(Failure::of(&Outcome::Output(short.clone()), &short, &[]), None);
        let crash = Failure::of(&Outcome::Crash("x".into()), &short, &[]);
        assert_eq!(crash, Some(Failure::verdict(Verdict::Crash)));
        assert_eq!(crash.map(|s| s.to_string()).as_deref(), Some("verdict crash"));
    }

    #[test]
    fn ignored_kinds_leave_an_empty_signature_that_is_not_a_failure() {
        let expected = json!([1, 2, 3]);
        let signature = Failure::of(&Outcome::Output(json!([1, 3])), &expected, &[DifferenceKind::MissingElements]);
        assert_eq!(signature.as_ref().map(Failure::is_failure), Some(false));
    }
}
