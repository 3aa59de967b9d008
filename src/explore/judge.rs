//! Judging one generated input: what each side made of it, and whether and
//! how they diverge.
//!
//! The two sides are the implementation under test and what it is judged
//! against (the reference, or a second implementation). Outputs are
//! compared canonically; a divergence is signed exactly as `conform run`
//! clusters a failure ([`crate::report::cluster`]): one
//! [`Signature`] per distinct cause (pointer pattern, difference kind and,
//! for enum-like values, the change), so an input showing two bugs lands in
//! two clusters. A crash, timeout or protocol error of either side is a
//! divergence of its own whatever the other side did; so is an error on one
//! side where the other has an output. Two errors agree (neither decodes the
//! input); a side that declines the case or does not implement the suite
//! leaves it unjudged.

use crate::compare::{differences, values_equal};
use crate::implementation::Outcome;
use crate::report::cluster::{difference_signatures, message_class};
use crate::report::rules::name_rules;
use crate::report::{DifferenceReport, Signature, Verdict};
use crate::suite_api::Suite;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which side of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The implementation under test (`--impl-cmd`, or the reference).
    Subject,
    /// What it is judged against (the reference, or `--against-cmd`).
    Against,
}

/// What the divergences of one cluster have in common, within a suite: a
/// [`Signature`] as `run` clusters failures, and the side it belongs to (the
/// failing side of a fault; the implementation under test for differences).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClusterKey {
    /// The side whose behaviour the signature describes.
    pub side: Side,
    /// The signature.
    pub signature: Signature,
}

impl ClusterKey {
    /// One line for humans: the signature's label, prefixed with `against
    /// side` for a fault of the side it is judged against.
    pub fn label(&self) -> String {
        match self.side {
            Side::Subject => self.signature.label(),
            Side::Against => format!("against side {}", self.signature.label()),
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
    /// They diverge: one key per distinct cause, in the order the
    /// differences appear (never empty).
    Diverge(Vec<ClusterKey>),
}

impl Judgement {
    /// Whether this judgement shows `key`.
    pub fn shows(&self, key: &ClusterKey) -> bool {
        matches!(self, Judgement::Diverge(keys) if keys.contains(key))
    }
}

/// The verdict of an outcome where the implementation broke down.
fn fault(outcome: &Outcome) -> Option<Verdict> {
    Verdict::of(outcome).filter(|verdict| verdict.is_fault())
}

fn fault_key(side: Side, verdict: Verdict, outcome: &Outcome) -> Judgement {
    let signature = Signature::Verdict { verdict, message_class: message_class(outcome.message().unwrap_or_default()) };
    Judgement::Diverge(vec![ClusterKey { side, signature }])
}

/// The case a judgement is about, so that differences can name the rules
/// behind them (from the suite reference's provenance of `input` at
/// `version`).
#[derive(Clone, Copy)]
pub struct JudgedCase<'a> {
    /// The suite.
    pub suite: &'a dyn Suite,
    /// The fixtureVersion the input is judged at.
    pub version: u32,
    /// The input both sides received.
    pub input: &'a Value,
}

/// Judges the outcomes of the two sides on one input of `suite`, signing
/// differences by pointer pattern (no rules named).
pub fn judge(suite: &str, subject: &Outcome, against: &Outcome) -> Judgement {
    judge_outcomes(suite, None, subject, against)
}

/// Judges the outcomes of the two sides on `case`: differences whose
/// expected value the reference traces to a rule are signed by that rule.
pub fn judge_case(case: JudgedCase<'_>, subject: &Outcome, against: &Outcome) -> Judgement {
    judge_outcomes(case.suite.name(), Some(case), subject, against)
}

fn judge_outcomes(suite: &str, case: Option<JudgedCase<'_>>, subject: &Outcome, against: &Outcome) -> Judgement {
    if let Some(verdict) = fault(subject) {
        return fault_key(Side::Subject, verdict, subject);
    }
    if let Some(verdict) = fault(against) {
        return fault_key(Side::Against, verdict, against);
    }
    match (subject, against) {
        (Outcome::Skipped(_) | Outcome::Unsupported(_), _) | (_, Outcome::Skipped(_) | Outcome::Unsupported(_)) => {
            Judgement::Unjudged
        }
        (Outcome::Output(actual), Outcome::Output(expected)) => {
            if values_equal(expected, actual) {
                return Judgement::Agree;
            }
            let mut found: Vec<DifferenceReport> = differences(expected, actual).0.iter().map(Into::into).collect();
            if let Some(case) = case {
                name_rules(case.suite, case.version, case.input, expected, &mut found);
            }
            let keys: Vec<ClusterKey> = difference_signatures(suite, &found)
                .into_iter()
                .map(|signature| ClusterKey { side: Side::Subject, signature })
                .collect();
            if keys.is_empty() {
                // Not equal yet no difference listed: cannot happen with the
                // comparison as it is; sign it as a whole-output change.
                let signature = Signature::difference("", crate::compare::DifferenceKind::ValueChanged);
                return Judgement::Diverge(vec![ClusterKey { side: Side::Subject, signature }]);
            }
            Judgement::Diverge(keys)
        }
        (Outcome::Error(_), Outcome::Error(_)) => Judgement::Agree,
        (Outcome::Error(_), _) => fault_key(Side::Subject, Verdict::Error, subject),
        (_, _) => fault_key(Side::Against, Verdict::Error, against),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labels(judgement: &Judgement) -> Vec<String> {
        match judgement {
            Judgement::Diverge(keys) => keys.iter().map(ClusterKey::label).collect(),
            other => panic!("a divergence, not {other:?}"),
        }
    }

    #[test]
    fn outputs_errors_and_faults_are_judged_as_the_module_says() {
        let out = |v: Value| Outcome::Output(v);
        assert_eq!(judge("chat", &out(json!({"a": 1.0})), &out(json!({"a": 1}))), Judgement::Agree);
        assert_eq!(labels(&judge("chat", &out(json!({"b": [1]})), &out(json!({"b": [2]})))), ["/b/* value-changed"]);
        assert_eq!(judge("chat", &Outcome::Error("x".into()), &Outcome::Error("y".into())), Judgement::Agree);
        let crash = judge("chat", &Outcome::Crash("exit status 3 after 12 cases".into()), &out(json!(1)));
        assert_eq!(labels(&crash), ["crash: exit status N after N cases"]);
        let against = judge("chat", &out(json!(1)), &Outcome::Timeout("no reply within 10 s".into()));
        assert_eq!(labels(&against), ["against side timeout: no reply within N s"]);
        assert_eq!(judge("chat", &Outcome::Skipped("later".into()), &out(json!(1))), Judgement::Unjudged);
        let error = judge("chat", &Outcome::Error("bad `x`".into()), &out(json!(1)));
        assert_eq!(labels(&error), ["error: bad `…`"]);
    }

    #[test]
    fn divergences_are_signed_by_cause_as_run_clusters_them() {
        let out = |v: Value| Outcome::Output(v);
        // One cause seen in `blocks` and in the derived `visibleBlocks`, plus
        // an enum-like change: one signature, with the change in it.
        let expected = json!({"blocks": [{"state": "error"}], "visibleBlocks": [{"state": "error"}]});
        let actual = json!({"blocks": [{"state": "completed"}], "visibleBlocks": [{"state": "completed"}]});
        let judged = judge("chat", &out(actual), &out(expected));
        assert_eq!(labels(&judged), ["/blocks/*/state value-changed (\"error\" → \"completed\")"]);
        // Two causes: two keys, so the input lands in two clusters.
        let two = judge("chat", &out(json!({"a": 1, "b": "x"})), &out(json!({"a": 2, "b": "y", "c": 0})));
        assert_eq!(labels(&two).len(), 3);
        let key = match &two {
            Judgement::Diverge(keys) => keys[0].clone(),
            _ => unreachable!(),
        };
        assert!(two.shows(&key) && !Judgement::Agree.shows(&key));
    }
}
