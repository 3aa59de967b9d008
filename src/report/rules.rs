//! Naming the contract rules behind differences: the reference recomputes
//! the case's expected output with a provenance trace
//! ([`crate::suite_api::provenance`]), and each of the first differences of the
//! case gets the rules that decided the expected value at its pointer.

use super::model::{DifferenceReport, RunReport};
use super::signature::Signature;
use crate::compare::DifferenceKind;
use crate::suite_api::{Suite, reference_with_provenance};
use serde_json::Value;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// How many differences of a case are given their rules: every difference
/// a report lists.
pub const NAMED_DIFFERENCES: usize = crate::compare::MAX_DIFFERENCES;

/// Gives the first [`NAMED_DIFFERENCES`] of `differences` the rules that
/// decided the expected value at their pointers, the likeliest cause first, when the suite's reference
/// implements `version` and decodes `input`; `expected` is the case's
/// expected part (what the pointers point into). Nothing changes otherwise.
pub fn name_rules(
    suite: &dyn Suite,
    version: u32,
    input: &Value,
    expected: &Value,
    differences: &mut [DifferenceReport],
) {
    let Some(reference) = suite.reference_for(version) else { return };
    let Ok((_, provenance)) = reference_with_provenance(reference, input) else { return };
    let named = differences.len().min(NAMED_DIFFERENCES);
    let resolved: Vec<Option<Vec<usize>>> = differences[..named]
        .iter()
        .map(|difference| {
            // An unexpected member or element points into the output: the
            // rules of the value that holds it in the expectation decide it.
            let pointer = match difference.kind {
                DifferenceKind::UnexpectedMember | DifferenceKind::UnexpectedElements => parent(&difference.pointer),
                _ => &difference.pointer,
            };
            provenance.claims_at(expected, pointer)
        })
        .collect();
    let diverging: BTreeSet<usize> = resolved.iter().flatten().flatten().copied().collect();
    // A rule every one of whose items diverges is the likelier cause than
    // one that also decided items that agree; then the one behind more of
    // the diverging items.
    let rank = |rule: &str| {
        let decided = provenance.claims_with(rule).max(1);
        let diverged = diverging.iter().filter(|&&claim| provenance.claim_rules(claim).contains(&rule)).count();
        (Reverse(diverged * 1000 / decided), Reverse(diverged))
    };
    for (difference, claims) in differences.iter_mut().zip(resolved) {
        let mut rules: Vec<&'static str> = match claims {
            Some(claims) => claims.iter().flat_map(|&claim| provenance.claim_rules(claim).iter().copied()).collect(),
            None => provenance.case_rules().to_vec(),
        };
        rules.sort_unstable();
        rules.dedup();
        rules.sort_by_cached_key(|rule| (rank(rule), *rule));
        difference.rules = rules.into_iter().map(str::to_owned).collect();
    }
}

/// How many rules of one difference the reports show (the likeliest cause
/// first); the rest are counted.
pub const SHOWN_RULES: usize = 3;

/// The rules a report shows for a difference, each with its link (the
/// anchor of its sentence in the suite's README), and how many are left out.
pub fn shown_rules<'r>(suite: &str, rules: &'r [String]) -> (Vec<(&'r str, String)>, usize) {
    let shown = rules
        .iter()
        .take(SHOWN_RULES)
        .map(|rule| (rule.as_str(), crate::suites::rule_doc(suite, rule).map(|doc| doc.link).unwrap_or_default()))
        .collect();
    (shown, rules.len().saturating_sub(SHOWN_RULES))
}

/// One line naming the rules of a difference, for the plain-text formats:
/// `rules: a (src/suites/chat/README.md#rule-a), b (…)` and `… and N more`.
pub fn rules_line(suite: &str, rules: &[String]) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    let (shown, more) = shown_rules(suite, rules);
    let mut line = String::from("rules: ");
    for (at, (rule, link)) in shown.iter().enumerate() {
        if at > 0 {
            line.push_str(", ");
        }
        line.push_str(rule);
        if !link.is_empty() {
            line.push_str(&format!(" ({link})"));
        }
    }
    if more > 0 {
        line.push_str(&format!(" and {more} more"));
    }
    Some(line)
}

/// A rule a run's failures break, for the reports that lead with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenRule {
    /// The suite whose contract states it.
    pub suite: String,
    /// The rule id.
    pub rule: String,
    /// Its anchor in the suite's README.
    pub link: String,
    /// Its sentence there.
    pub sentence: String,
    /// How many failing cases break it.
    pub cases: usize,
    /// The failing case with the smallest input that breaks it.
    pub smallest: String,
}

/// The rules the failures of `report` break (its rule clusters), most
/// cases first, each with its smallest example.
pub fn broken_rules(report: &RunReport) -> Vec<BrokenRule> {
    report
        .clusters
        .iter()
        .filter_map(|cluster| match &cluster.signature {
            Signature::Rule { suite, rule } => {
                let size = |id: &String| {
                    let case = report.cases.iter().find(|case| &case.id == id);
                    case.and_then(|case| case.input.as_ref())
                        .map_or(usize::MAX, |input| crate::json::to_compact_string(input).len())
                };
                let smallest = cluster.cases.iter().min_by_key(|id| (size(id), (*id).clone())).cloned();
                let doc = crate::suites::rule_doc(suite, rule);
                Some(BrokenRule {
                    suite: suite.clone(),
                    rule: rule.clone(),
                    link: doc.as_ref().map(|doc| doc.link.clone()).unwrap_or_default(),
                    sentence: doc.map(|doc| doc.sentence).unwrap_or_default(),
                    cases: cluster.cases.len(),
                    smallest: smallest.unwrap_or_default(),
                })
            }
            _ => None,
        })
        .collect()
}

/// The pointer one level up (`""` for the root and its members).
fn parent(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |at| &pointer[..at])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::differences;
    use serde_json::json;

    #[test]
    fn a_chat_difference_names_the_rule_of_its_block() {
        let chat = crate::suites::find("chat").unwrap();
        let input = json!({"messages": [
            {"id": "u1", "localId": null, "createdAt": 1, "content": {"role": "user", "content": "hi"}},
            {"id": "a1", "localId": null, "createdAt": 2, "content": {"role": "agent", "content": {"type": "output", "data": 7}}}
        ], "agentState": null});
        let reference = chat.reference_for(1).unwrap();
        let expected = crate::suite_api::call_reference(reference, &input, &mut crate::suite_api::NoTrace).unwrap();
        let mut actual = expected.clone();
        actual["blocks"][0]["text"] = json!("changed");
        actual["blocks"][1]["text"] = json!("changed too");
        let mut found: Vec<DifferenceReport> =
            differences(&expected, &actual).0.iter().map(DifferenceReport::from).collect();
        name_rules(chat, 1, &input, &expected, &mut found);
        let user = found.iter().find(|d| d.pointer == "/blocks/0/text").unwrap();
        assert!(user.rules.contains(&"user.text.string".to_owned()), "{:?}", user.rules);
        let agent = found.iter().find(|d| d.pointer == "/blocks/1/text").unwrap();
        assert!(!agent.rules.contains(&"user.text.string".to_owned()), "{:?}", agent.rules);
        assert!(!agent.rules.is_empty());
    }
}
