//! Judging one generated input: what each side made of it, and whether and
//! how they diverge.
//!
//! The two sides are the implementation under test and what it is judged
//! against (the reference, or a second implementation). Both outputs:
//! compared canonically, a divergence's signature is the set of (pointer
//! pattern, difference kind) pairs, as `conform reduce` keeps it. A crash,
//! timeout or protocol error of either side is a divergence of its own
//! whatever the other side did; so is an error on one side where the other
//! has an output. Two errors agree (neither decodes the input); a side that
//! declines the case or does not implement the suite leaves it unjudged.

use crate::compare::{DifferenceKind, values_equal};
use crate::implementation::Outcome;
use crate::reduce::Signature as ReduceSignature;
use crate::report::cluster::message_class;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// Which side of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The implementation under test (`--impl-cmd`, or the reference).
    Subject,
    /// What it is judged against (the reference, or `--against-cmd`).
    Against,
}

/// What two sides' divergences have in common: the cluster key within a
/// suite.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DivergenceSignature {
    /// Both produced outputs that differ: the kinds of differences by
    /// pointer pattern.
    Differences(BTreeSet<(String, DifferenceKind)>),
    /// One side failed outright, or gave an error where the other had an
    /// output: the verdict and its message class.
    Fault {
        /// The side that failed.
        side: Side,
        /// `crash`, `timeout`, `protocol-error` or `error`.
        verdict: &'static str,
        /// The first line of the message with numbers and quoted text
        /// blanked out.
        message_class: String,
    },
}

impl DivergenceSignature {
    /// One line for humans.
    pub fn label(&self) -> String {
        match self {
            DivergenceSignature::Differences(pairs) => ReduceSignature::Differences(pairs.clone()).to_string(),
            DivergenceSignature::Fault { side, verdict, message_class } => {
                let who = match side {
                    Side::Subject => "",
                    Side::Against => "against side ",
                };
                if message_class.is_empty() {
                    format!("{who}{verdict}")
                } else {
                    format!("{who}{verdict}: {message_class}")
                }
            }
        }
    }

    /// The side whose behaviour the reducer shrinks: the failing side of a
    /// fault, the implementation under test otherwise.
    pub fn reduced_side(&self) -> Side {
        match self {
            DivergenceSignature::Fault { side, .. } => *side,
            DivergenceSignature::Differences(_) => Side::Subject,
        }
    }

    /// What `conform reduce` calls the same failure, for the reduced side
    /// judged against the other.
    pub fn reduce_signature(&self) -> ReduceSignature {
        match self {
            DivergenceSignature::Differences(pairs) => ReduceSignature::Differences(pairs.clone()),
            DivergenceSignature::Fault { verdict, .. } => ReduceSignature::Verdict(verdict),
        }
    }
}

/// The judgement of one input.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// Both sides agree.
    Agree,
    /// A side declined the case or does not implement it.
    Unjudged,
    /// They diverge.
    Diverge(DivergenceSignature),
}

fn fault(outcome: &Outcome) -> Option<&'static str> {
    match outcome {
        Outcome::Crash(_) => Some("crash"),
        Outcome::Timeout(_) => Some("timeout"),
        Outcome::ProtocolError(_) => Some("protocol-error"),
        _ => None,
    }
}

fn fault_signature(side: Side, verdict: &'static str, outcome: &Outcome) -> DivergenceSignature {
    DivergenceSignature::Fault { side, verdict, message_class: message_class(outcome.message().unwrap_or_default()) }
}

/// Judges the outcomes of the two sides on one input.
pub fn judge(subject: &Outcome, against: &Outcome) -> Judgement {
    if let Some(verdict) = fault(subject) {
        return Judgement::Diverge(fault_signature(Side::Subject, verdict, subject));
    }
    if let Some(verdict) = fault(against) {
        return Judgement::Diverge(fault_signature(Side::Against, verdict, against));
    }
    match (subject, against) {
        (Outcome::Skipped(_) | Outcome::Unsupported(_), _) | (_, Outcome::Skipped(_) | Outcome::Unsupported(_)) => {
            Judgement::Unjudged
        }
        (Outcome::Output(actual), Outcome::Output(expected)) => {
            if values_equal(expected, actual) {
                Judgement::Agree
            } else {
                Judgement::Diverge(DivergenceSignature::Differences(difference_pairs(expected, actual)))
            }
        }
        (Outcome::Error(_), Outcome::Error(_)) => Judgement::Agree,
        (Outcome::Error(_), _) => Judgement::Diverge(fault_signature(Side::Subject, "error", subject)),
        (_, _) => Judgement::Diverge(fault_signature(Side::Against, "error", against)),
    }
}

/// The (pointer pattern, kind) pairs of the differences of `actual` from
/// `expected`, exactly as [`ReduceSignature::of`] computes them.
fn difference_pairs(expected: &Value, actual: &Value) -> BTreeSet<(String, DifferenceKind)> {
    match ReduceSignature::of(&Outcome::Output(actual.clone()), expected, &[]) {
        Some(ReduceSignature::Differences(pairs)) => pairs,
        _ => BTreeSet::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outputs_errors_and_faults_are_judged_as_the_module_says() {
        let out = |v: Value| Outcome::Output(v);
        assert_eq!(judge(&out(json!({"a": 1.0})), &out(json!({"a": 1}))), Judgement::Agree);
        let Judgement::Diverge(signature) = judge(&out(json!({"b": [1]})), &out(json!({"b": [2]}))) else {
            panic!("a divergence")
        };
        assert_eq!(signature.label(), "/b/* value-changed");
        assert_eq!(judge(&Outcome::Error("x".into()), &Outcome::Error("y".into())), Judgement::Agree);
        let crash = judge(&Outcome::Crash("exit status 3 after 12 cases".into()), &out(json!(1)));
        let Judgement::Diverge(crash) = crash else { panic!("a crash diverges") };
        assert_eq!(crash.label(), "crash: exit status N after N cases");
        assert_eq!(crash.reduce_signature(), ReduceSignature::Verdict("crash"));
        let against = judge(&out(json!(1)), &Outcome::Timeout("no reply within 10 s".into()));
        let Judgement::Diverge(against) = against else { panic!("an against-side timeout diverges") };
        assert_eq!(against.label(), "against side timeout: no reply within N s");
        assert_eq!(against.reduced_side(), Side::Against);
        assert_eq!(judge(&Outcome::Skipped("later".into()), &out(json!(1))), Judgement::Unjudged);
        let Judgement::Diverge(error) = judge(&Outcome::Error("bad `x`".into()), &out(json!(1))) else {
            panic!("an error where the other side decodes diverges")
        };
        assert_eq!(error.label(), "error: bad `…`");
    }
}
