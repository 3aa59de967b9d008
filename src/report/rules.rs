//! Naming the contract rules behind differences: the reference recomputes
//! the case's expected output with a provenance trace
//! ([`crate::suite_api::provenance`]), and each of the first differences of the
//! case gets the rules that decided the expected value at its pointer.

use super::model::{DifferenceReport, RunReport};
use super::signature::Signature;
use crate::compare::DifferenceKind;
use crate::suite_api::{Provenance, Suite, reference_with_provenance};
use serde_json::Value;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// How many differences of a case are given their rules: every difference
/// a report lists.
pub const NAMED_DIFFERENCES: usize = crate::compare::MAX_DIFFERENCES;

/// Gives the first [`NAMED_DIFFERENCES`] of `differences` the rules that
/// decided the expected value at their pointers, the likeliest cause first
/// (see [`rank_causes`]), when the suite's reference implements `version`
/// and decodes `input`; `expected` is the case's expected part (what the
/// pointers point into). Nothing changes otherwise.
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
    let candidates: Vec<Candidates> =
        differences[..named].iter().map(|difference| candidates(&provenance, expected, difference)).collect();
    let ranked = rank_causes(&provenance, &candidates);
    for (difference, found) in differences.iter_mut().zip(&candidates) {
        let mut rules: Vec<&'static str> = found.rules.clone();
        rules.sort_by_key(|rule| ranked.iter().position(|ranked| ranked == rule).unwrap_or(usize::MAX));
        difference.rules = rules.into_iter().map(str::to_owned).collect();
    }
}

/// The rules that may explain one difference: those of the claims that name
/// the deepest item or member on its pointer's path (`claims`, by index into
/// the provenance), else the case's unclaimed rules (`claims` empty).
struct Candidates {
    claims: Vec<usize>,
    rules: Vec<&'static str>,
}

fn candidates(provenance: &Provenance, expected: &Value, difference: &DifferenceReport) -> Candidates {
    // An unexpected member or element points into the output: the rules of
    // the value that holds it in the expectation decide it.
    let unexpected = matches!(difference.kind, DifferenceKind::UnexpectedMember | DifferenceKind::UnexpectedElements);
    let pointer = if unexpected { parent(&difference.pointer) } else { &difference.pointer };
    let (claims, mut rules) = match provenance.claims_at(expected, pointer) {
        Some(claims) => {
            let rules = claims.iter().flat_map(|&claim| provenance.claim_rules(claim).iter().copied()).collect();
            (claims, rules)
        }
        None if unexpected => {
            // Nothing in the expectation decided the list or object the
            // extra value sits in as a whole: the rules that decided the
            // items it does hold decide which items it has, and a rule that
            // dropped what the implementation kept names an item the
            // output does not have.
            // At most MAX_LIST_ITEMS items are looked at (each lookup walks
            // the claims).
            let items = match expected.pointer(pointer) {
                Some(Value::Array(items)) => items.len().min(MAX_LIST_ITEMS),
                _ => 0,
            };
            let mut claims: Vec<usize> = (0..items)
                .filter_map(|index| provenance.claims_at(expected, &crate::json::pointer::push_index(pointer, index)))
                .flatten()
                .collect();
            claims.extend(provenance.claims_naming_nothing(expected));
            claims.sort_unstable();
            claims.dedup();
            let mut rules: Vec<&'static str> =
                claims.iter().flat_map(|&claim| provenance.claim_rules(claim).iter().copied()).collect();
            rules.extend_from_slice(provenance.case_rules());
            (claims, rules)
        }
        None => (Vec::new(), provenance.case_rules().to_vec()),
    };
    rules.sort_unstable();
    rules.dedup();
    Candidates { claims, rules }
}

/// Ranks the rules that may explain a case's differences so that one cause
/// reads as one finding: every difference of the case is signed by the
/// first rule of this order among its own candidates. The keys, in order:
///
/// 1. a rule that decided the first differing value (the deepest item or
///    member on its pointer's path): the first difference is where the bug
///    shows first, and the others are often its consequences (a dropped
///    event shifts the rest of a list);
/// 2. a rule behind more of the case's differences: one cause explains
///    many pointers (a member in a view and in the view derived from it);
/// 3. a rule that decided fewer of the case's items that agree: a rule
///    whose every item diverges is a likelier cause than one that also
///    decided items the implementation got right (the envelope rule every
///    message passes through);
/// 4. a rule hit closer to where the item was emitted: the reference
///    reaches the generic rules of an item first (which envelope, which
///    payload kind) and the specific decision last;
/// 5. the rule id, so the order never depends on anything else.
fn rank_causes(provenance: &Provenance, candidates: &[Candidates]) -> Vec<&'static str> {
    let mut rules: Vec<&'static str> = candidates.iter().flat_map(|found| found.rules.iter().copied()).collect();
    rules.sort_unstable();
    rules.dedup();
    let diverging: BTreeSet<usize> = candidates.iter().flat_map(|found| found.claims.iter().copied()).collect();
    let first: &[&'static str] = candidates.first().map_or(&[], |found| found.rules.as_slice());
    let key = |rule: &&'static str| {
        let in_first = first.contains(rule);
        let covered = candidates.iter().filter(|found| found.rules.contains(rule)).count();
        let agreeing = (0..provenance.claim_count())
            .filter(|claim| !diverging.contains(claim) && provenance.claim_rules(*claim).contains(rule))
            .count();
        let recency = diverging.iter().filter_map(|&claim| provenance.hit_position(claim, rule)).max();
        (Reverse(in_first), Reverse(covered), agreeing, Reverse(recency), *rule)
    };
    rules.sort_by_cached_key(key);
    rules
}

/// How many items of a list an unexpected element's rules are gathered
/// from (see `candidates`).
const MAX_LIST_ITEMS: usize = 1_000;

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
