//! What "the same failure" means, for clustering a report's failures and
//! for `conform reduce` keeping a shrunk input that fails the same way.
//!
//! A difference signature is a pointer pattern (array indices as `*`) and a
//! difference kind: `/blocks/*/tool/state value-changed` is the same bug
//! whether it shows on block 3 of 200 or block 1 of 2. A case without an
//! output is signed by its verdict, plus (in clusters) a message class. A
//! difference whose expected value the reference's provenance traces to a
//! contract rule is signed by that rule instead: one bug shows at many
//! pointers, but breaks one rule.

use super::model::Verdict;
use crate::compare::DifferenceKind;
use serde::{Deserialize, Serialize};

/// One way of failing: what the cases of a cluster have in common, and one
/// member of the failure a reduction must keep (see [`crate::reduce::Failure`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum Signature {
    /// The same kind of difference at the same pointer pattern.
    Difference {
        /// JSON pointer with array indices replaced by `*`.
        pattern: String,
        /// What differs there.
        kind: DifferenceKind,
        /// The value change, when both values are enum-like
        /// (`"error" → "completed"`): the same member set to different wrong
        /// values is two causes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        change: Option<String>,
    },
    /// The same contract rule broken: the likeliest rule behind the
    /// difference by the reference's provenance (see `report::rules`),
    /// wherever and however it shows.
    Rule {
        /// The suite whose contract states the rule.
        suite: String,
        /// The rule id.
        rule: String,
    },
    /// The same verdict with the same message class.
    Verdict {
        /// The verdict the implementation earned (for known failures, the
        /// verdict the baseline expected).
        verdict: Verdict,
        /// The normalized first line of the message.
        message_class: String,
    },
}

impl Signature {
    /// The signature of a `kind` difference at pointer pattern `pattern`.
    pub fn difference(pattern: &str, kind: DifferenceKind) -> Self {
        Signature::Difference { pattern: pattern.to_owned(), kind, change: None }
    }

    /// The signature of `verdict` with no message class (how `conform
    /// reduce` signs a case without output: messages name ids or sizes that
    /// change as the input shrinks).
    pub fn verdict(verdict: Verdict) -> Self {
        Signature::Verdict { verdict, message_class: String::new() }
    }

    /// One line for humans: `/blocks/*/tool/state value-changed` or
    /// `crash: exit status N`.
    pub fn label(&self) -> String {
        match self {
            Signature::Difference { pattern, kind, change } => {
                let pattern = if pattern.is_empty() { "(whole output)" } else { pattern };
                match change {
                    Some(change) => format!("{pattern} {kind} ({change})"),
                    None => format!("{pattern} {kind}"),
                }
            }
            Signature::Rule { rule, .. } => format!("breaks {rule}"),
            Signature::Verdict { verdict, message_class } if message_class.is_empty() => verdict.to_string(),
            Signature::Verdict { verdict, message_class } => format!("{verdict}: {message_class}"),
        }
    }
}
