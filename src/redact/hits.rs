//! Where the rules match in one text: the search both scrubbing and the
//! lint start from.

use super::placeholders::placeholder_spans;
use super::screen::RuleList;
use std::ops::Range;

/// One rule match in a view.
pub(super) struct Hit {
    pub(super) rule: usize,
    pub(super) range: Range<usize>,
}

/// Every non-overlapping secret in `text`: rules in priority order, never
/// overlapping a placeholder or an earlier rule's match. Only the rules the
/// screen lets through search (the others find nothing in `text`).
pub(super) fn find_hits(rules: &RuleList, text: &str) -> Vec<Hit> {
    let mut candidates = rules.candidates(text).peekable();
    if candidates.peek().is_none() {
        return Vec::new();
    }
    let mut taken: Vec<Range<usize>> = placeholder_spans(text);
    let mut hits = Vec::new();
    for (index, rule) in candidates {
        for (range, _) in rule.find_all(text) {
            if taken.iter().any(|t| overlaps(t, &range)) {
                continue;
            }
            taken.push(range.clone());
            hits.push(Hit { rule: index, range });
        }
    }
    hits
}

pub(super) fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}
