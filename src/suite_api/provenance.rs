//! Provenance: which rules decided each part of a reference's expected
//! output, so a difference at a JSON pointer can name the rules of the
//! contract behind the expected value there.
//!
//! References keep their `trace.hit(rule)` calls as they are; a
//! [`ProvenanceTrace`] records the hits in order, and the emission points a
//! reference marks ([`RuleTrace::emitted`], where it has finished one output
//! item: a message's blocks, a wire line's events, a window row) say which
//! items the hits since the previous point decided. Hits no point claims
//! concern the case as a whole. The resulting [`Provenance`] answers
//! [`Provenance::rules_at`] for any pointer into the expected output, at the
//! granularity of the deepest item (or member) a claim names.
//!
//! A trace that does not keep provenance ignores emission points (they are
//! provided methods with empty bodies), so the normal path pays one empty
//! call per point; `benches/provenance.rs` measures both side by side.

use super::reference_fn::{ReferenceFailure, ReferenceFn, call_reference};
use super::trace::{RuleTrace, Scope};
use serde_json::Value;

/// An owned [`Scope`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Claim {
    Case,
    Id(String),
    IdMember(String, &'static str),
    Items { member: &'static str, start: usize, end: usize },
    Pointer(String),
}

impl Claim {
    fn of(scope: Scope<'_>) -> Self {
        match scope {
            Scope::Case => Claim::Case,
            Scope::Id(id) => Claim::Id(id.to_owned()),
            Scope::IdMember(id, member) => Claim::IdMember(id.to_owned(), member),
            Scope::Items { member, start, end } => Claim::Items { member, start, end },
            Scope::Pointer(pointer) => Claim::Pointer(pointer.to_owned()),
        }
    }
}

/// A trace that records every hit in order and the emission points that
/// claim them; [`ProvenanceTrace::finish`] turns it into a [`Provenance`].
#[derive(Debug, Default)]
pub struct ProvenanceTrace {
    /// Every hit, in order.
    hits: Vec<&'static str>,
    /// Claims and the end (exclusive) of the hits they claim; each claims
    /// the hits from the previous claim's end.
    claims: Vec<(Claim, usize)>,
    /// Where the hits not yet claimed start.
    unclaimed_from: usize,
    /// Extra claims sharing the hits of the claim at an index of `claims`.
    shared: Vec<(usize, Claim)>,
    /// Whether the latest emission point claimed hits (what
    /// [`RuleTrace::also`] extends).
    last_point_claimed: bool,
}

impl RuleTrace for ProvenanceTrace {
    fn hit(&mut self, rule: &'static str) {
        self.hits.push(rule);
    }

    fn keeps_provenance(&self) -> bool {
        true
    }

    fn emitted(&mut self, scope: Scope<'_>) {
        // A point with nothing to claim costs nothing (most items are
        // decided by the default path and hit no rule).
        self.last_point_claimed = self.hits.len() > self.unclaimed_from;
        if self.last_point_claimed {
            self.claims.push((Claim::of(scope), self.hits.len()));
            self.unclaimed_from = self.hits.len();
        }
    }

    fn also(&mut self, scope: Scope<'_>) {
        if self.last_point_claimed {
            self.shared.push((self.claims.len() - 1, Claim::of(scope)));
        }
    }
}

impl ProvenanceTrace {
    /// The provenance the recorded hits and points give.
    pub fn finish(self) -> Provenance {
        let mut start = 0;
        let mut claims = Vec::with_capacity(self.claims.len());
        let mut claimed = vec![false; self.hits.len()];
        let mut orders = Vec::with_capacity(self.claims.len());
        for (claim, end) in self.claims {
            let hits = &self.hits[start..end];
            let mut rules: Vec<&'static str> = hits.to_vec();
            claimed[start..end].iter_mut().for_each(|flag| *flag = true);
            rules.sort_unstable();
            rules.dedup();
            // Each rule once, where it was last hit.
            let mut order: Vec<&'static str> = Vec::with_capacity(rules.len());
            for (at, rule) in hits.iter().enumerate() {
                if !hits[at + 1..].contains(rule) {
                    order.push(rule);
                }
            }
            claims.push((claim, rules));
            orders.push(order);
            start = end;
        }
        for (index, claim) in self.shared {
            let rules = claims[index].1.clone();
            orders.push(orders[index].clone());
            claims.push((claim, rules));
        }
        let mut case: Vec<&'static str> =
            self.hits.iter().zip(&claimed).filter(|(_, claimed)| !**claimed).map(|(rule, _)| *rule).collect();
        case.extend(
            claims.iter().filter(|(claim, _)| *claim == Claim::Case).flat_map(|(_, rules)| rules.iter().copied()),
        );
        case.sort_unstable();
        case.dedup();
        let mut all = self.hits;
        all.sort_unstable();
        all.dedup();
        Provenance { claims, orders, case, all }
    }
}

/// Which rules decided which part of one expected output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    claims: Vec<(Claim, Vec<&'static str>)>,
    /// The rules of each claim in the order they were last hit before its
    /// emission point (the specific decision of an item is usually last).
    orders: Vec<Vec<&'static str>>,
    case: Vec<&'static str>,
    all: Vec<&'static str>,
}

impl Provenance {
    /// Every rule the reference hit for the case, sorted.
    pub fn rules(&self) -> &[&'static str] {
        &self.all
    }

    /// The rules no emission point claimed (they decided the case as a
    /// whole), sorted.
    pub fn case_rules(&self) -> &[&'static str] {
        &self.case
    }

    /// The rules that produced or changed the value at `pointer` in
    /// `expected` (the output the trace was recorded for): those claimed
    /// for the deepest item or member on the pointer's path that any claim
    /// names, else the case's unclaimed rules. A pointer that leaves the
    /// expected value (an unexpected member or element) is answered for
    /// the deepest part of its path that exists. Sorted, without repeats.
    pub fn rules_at(&self, expected: &Value, pointer: &str) -> Vec<&'static str> {
        match self.claims_at(expected, pointer) {
            Some(claims) => {
                let mut rules: Vec<&'static str> =
                    claims.iter().flat_map(|&claim| self.claims[claim].1.iter().copied()).collect();
                rules.sort_unstable();
                rules.dedup();
                rules
            }
            None => self.case.clone(),
        }
    }

    /// The claims (by index) that name the deepest item or member on the
    /// path of `pointer` that any claim names; `None` when no claim names
    /// any part of it (the case's unclaimed rules decide it).
    pub fn claims_at(&self, expected: &Value, pointer: &str) -> Option<Vec<usize>> {
        let tokens: Vec<String> = crate::json::pointer::tokens(pointer);
        let mut deepest: Option<Vec<usize>> = None;
        let mut value = Some(expected);
        let mut parent: Option<&Value> = None;
        let mut prefix = String::new();
        for depth in 0..=tokens.len() {
            let Some(here) = value else { break };
            let found: Vec<usize> = (0..self.claims.len())
                .filter(|&index| {
                    !self.claims[index].1.is_empty()
                        && self.claim_matches(&self.claims[index].0, here, parent, &tokens, depth, &prefix)
                })
                .collect();
            if !found.is_empty() {
                deepest = Some(self.narrowest(found));
            }
            let Some(token) = tokens.get(depth) else { break };
            prefix = crate::json::pointer::push(&prefix, token);
            parent = Some(here);
            value = match here {
                Value::Object(members) => members.get(token.as_str()),
                Value::Array(items) => token.parse::<usize>().ok().and_then(|index| items.get(index)),
                _ => None,
            };
        }
        deepest
    }

    /// Of claims naming the same value, the ranges of items narrowed to the
    /// narrowest: a rule that claimed one event of a wire line is more
    /// specific than the rules that claimed the line's events together.
    fn narrowest(&self, found: Vec<usize>) -> Vec<usize> {
        let span = |index: usize| match self.claims[index].0 {
            Claim::Items { start, end, .. } => Some(end - start),
            _ => None,
        };
        let Some(narrowest) = found.iter().filter_map(|&index| span(index)).min() else { return found };
        found.into_iter().filter(|&index| span(index).is_none_or(|span| span == narrowest)).collect()
    }

    /// The rules of the claim at `index`.
    pub fn claim_rules(&self, index: usize) -> &[&'static str] {
        self.claims.get(index).map_or(&[], |(_, rules)| rules.as_slice())
    }

    /// How many claims there are (indexes for [`Provenance::claim_rules`]).
    pub fn claim_count(&self) -> usize {
        self.claims.len()
    }

    /// Where `rule` was last hit among the rules of the claim at `index`
    /// (0 first; the highest was hit closest to the emission point), or
    /// `None` when the claim does not hold it.
    pub fn hit_position(&self, index: usize, rule: &str) -> Option<usize> {
        self.orders.get(index)?.iter().position(|held| *held == rule)
    }

    /// The claims (by index) holding rules that name no value of
    /// `expected`: items the reference decided to leave out (a dropped
    /// message's id, an empty range of events).
    pub fn claims_naming_nothing(&self, expected: &Value) -> Vec<usize> {
        (0..self.claims.len())
            .filter(|&index| !self.claims[index].1.is_empty() && !names_a_value(&self.claims[index].0, expected))
            .collect()
    }

    /// How many claims name `rule` (how many items it decided, counting
    /// each emission point once).
    pub fn claims_with(&self, rule: &str) -> usize {
        self.claims.iter().filter(|(_, rules)| rules.contains(&rule)).count()
    }

    /// Whether `claim` names the value `here` at `depth` tokens of the
    /// pointer (`prefix` is the pointer of those tokens, `parent` the value
    /// one level up).
    fn claim_matches(
        &self,
        claim: &Claim,
        here: &Value,
        parent: Option<&Value>,
        tokens: &[String],
        depth: usize,
        prefix: &str,
    ) -> bool {
        match claim {
            Claim::Case => false,
            Claim::Id(id) => id_matches(here, id),
            Claim::IdMember(id, member) => {
                depth > 0 && tokens[depth - 1] == *member && parent.is_some_and(|parent| id_matches(parent, id))
            }
            Claim::Items { member, start, end } => {
                depth == 2
                    && tokens[0] == *member
                    && tokens[1].parse::<usize>().is_ok_and(|index| (*start..*end).contains(&index))
            }
            Claim::Pointer(pointer) => pointer == prefix,
        }
    }
}

/// Whether `claim` names some value of `expected` (the case is no value).
fn names_a_value(claim: &Claim, expected: &Value) -> bool {
    fn any_object(value: &Value, test: &dyn Fn(&Value) -> bool) -> bool {
        // Depth first over a stack: expected outputs can nest deeply.
        let mut stack = vec![value];
        while let Some(node) = stack.pop() {
            if test(node) {
                return true;
            }
            match node {
                Value::Object(members) => stack.extend(members.values()),
                Value::Array(items) => stack.extend(items.iter()),
                _ => {}
            }
        }
        false
    }
    match claim {
        Claim::Case => true,
        Claim::Id(id) => any_object(expected, &|node| id_matches(node, id)),
        Claim::IdMember(id, member) => {
            any_object(expected, &|node| id_matches(node, id) && node.get(*member).is_some())
        }
        Claim::Items { member, start, end } => {
            start < end && expected.get(*member).and_then(Value::as_array).is_some_and(|items| *start < items.len())
        }
        Claim::Pointer(pointer) => expected.pointer(pointer).is_some(),
    }
}

/// Whether `value` is an object whose `id` is `id` or `id:<suffix>`.
fn id_matches(value: &Value, id: &str) -> bool {
    match value.get("id").and_then(Value::as_str) {
        Some(item) => {
            item == id || (item.len() > id.len() && item.starts_with(id) && item[id.len()..].starts_with(':'))
        }
        None => false,
    }
}

/// Calls `reference` on `input` with a [`ProvenanceTrace`]: the expected
/// output and which rules decided each part of it.
pub fn reference_with_provenance(
    reference: ReferenceFn,
    input: &Value,
) -> Result<(Value, Provenance), ReferenceFailure> {
    let mut trace = ProvenanceTrace::default();
    let output = call_reference(reference, input, &mut trace)?;
    Ok((output, trace.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hits_belong_to_the_next_emission_point_and_the_rest_to_the_case() {
        let mut trace = ProvenanceTrace::default();
        trace.hit("case.early");
        trace.emitted(Scope::Pointer("/title"));
        trace.hit("message.a");
        trace.hit("message.b");
        trace.emitted(Scope::Id("m1"));
        trace.also(Scope::Id("tool-1"));
        trace.emitted(Scope::Id("m2"));
        trace.also(Scope::Id("not-claimed"));
        trace.hit("card.created-at");
        trace.emitted(Scope::IdMember("m2", "createdAt"));
        trace.hit("event.x");
        trace.emitted(Scope::Items { member: "events", start: 1, end: 3 });
        trace.hit("case.late");
        let provenance = trace.finish();
        let expected = json!({
            "title": "t",
            "blocks": [{"id": "m1", "text": "a"}, {"id": "m1:0", "children": [{"id": "m2", "createdAt": 1, "text": "x"}]}],
            "events": [0, 1, 2, 3],
            "cards": [{"id": "tool-1"}, {"id": "not-claimed"}]
        });
        assert_eq!(provenance.rules_at(&expected, "/cards/0/state"), ["message.a", "message.b"]);
        assert_eq!(provenance.rules_at(&expected, "/cards/1"), ["case.late"]);
        assert_eq!(provenance.rules_at(&expected, "/title"), ["case.early"]);
        assert_eq!(provenance.rules_at(&expected, "/blocks/0/text"), ["message.a", "message.b"]);
        assert_eq!(provenance.rules_at(&expected, "/blocks/1"), ["message.a", "message.b"]);
        assert_eq!(provenance.rules_at(&expected, "/blocks/1/children/0/text"), ["message.a", "message.b"]);
        assert_eq!(provenance.rules_at(&expected, "/blocks/1/children/0/createdAt"), ["card.created-at"]);
        assert_eq!(provenance.rules_at(&expected, "/blocks/1/children/0/missing/deeper"), ["message.a", "message.b"]);
        assert_eq!(provenance.rules_at(&expected, "/events/2"), ["event.x"]);
        assert_eq!(provenance.rules_at(&expected, "/events/0"), ["case.late"]);
        assert_eq!(provenance.rules_at(&expected, ""), ["case.late"]);
        assert_eq!(provenance.case_rules(), ["case.late"]);
        assert_eq!(provenance.rules().len(), 6);
    }

    #[test]
    fn an_id_prefix_needs_the_colon() {
        assert!(id_matches(&json!({"id": "u1:3"}), "u1"));
        assert!(id_matches(&json!({"id": "u1"}), "u1"));
        assert!(!id_matches(&json!({"id": "u10"}), "u1"));
        assert!(!id_matches(&json!({"id": 1}), "1"));
    }
}
