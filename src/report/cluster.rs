//! Failure clustering: cases that fail for the same reason share a
//! [`Signature`], so a report can say "31 failures, 2 causes".
//!
//! A failed comparison contributes one signature per distinct cause it
//! shows: `/blocks/3/tool/state` and `/blocks/7/tool/state` both become
//! `/blocks/*/tool/state`, which is what one decoder bug produces across
//! fixtures; the same member seen through a derived view
//! (`/visibleBlocks/*/tools/*/tool/state`) or at another depth folds into
//! it too (see [`super::cause`]), and an enum-like value change
//! (`"error" → "completed"`) is part of the cause, so one cluster never
//! mixes two. A case with two unrelated bugs belongs to both clusters. Cases without differences (errors, crashes,
//! timeouts, …) are grouped by verdict plus a *message class*: the first line
//! of the message with numbers and quoted text blanked out, so "exit status
//! 101 after 3 cases" and "exit status 134 after 9 cases" land together.

use super::baseline_summary::BaselineSummary;
use super::cause::{cause_pattern, derived_views, value_change};
use super::model::{CaseReport, DifferenceReport, Tally, Verdict};
use super::signature::Signature;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Longest message class kept, in characters.
const MAX_CLASS_CHARS: usize = 120;

/// Cases that share one signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    /// What the cases have in common.
    pub signature: Signature,
    /// [`Signature::label`], stored so readers of the JSON need not rebuild it.
    pub label: String,
    /// Ids of the cases, in report order.
    pub cases: Vec<String>,
    /// How many of those cases are expected failures (`xfail`).
    pub known_failures: usize,
}

impl Cluster {
    /// Up to `max` of the cluster's case ids, each rendered by `render`,
    /// joined by `, `, with ` and N more` when there are more.
    pub fn examples(&self, max: usize, render: impl Fn(&str) -> String) -> String {
        let mut examples = self.cases.iter().take(max).map(|id| render(id)).collect::<Vec<_>>().join(", ");
        let more = self.cases.len().saturating_sub(max);
        if more > 0 {
            examples.push_str(&format!(" and {more} more"));
        }
        examples
    }

    /// `(N known)` when some of the cases are expected failures.
    pub fn known_note(&self) -> Option<String> {
        (self.known_failures > 0).then(|| format!("({} known)", self.known_failures))
    }
}

/// Groups the failing cases (those that fail the run, plus expected failures)
/// by signature. Largest clusters first; ties by label.
pub fn cluster(cases: &[CaseReport], baseline: Option<&BaselineSummary>) -> Vec<Cluster> {
    let mut clusters: Vec<Cluster> = Vec::new();
    // Looked up once per case, not searched: a large run with a large
    // baseline would be quadratic.
    let expected_verdicts = baseline.map(BaselineSummary::expected_verdicts).unwrap_or_default();
    let mut positions: HashMap<Signature, usize> = HashMap::new();
    for case in cases.iter().filter(|c| is_failure(c)) {
        for signature in signatures(case, &expected_verdicts) {
            let index = match positions.get(&signature) {
                Some(&index) => index,
                None => {
                    positions.insert(signature.clone(), clusters.len());
                    clusters.push(Cluster {
                        label: signature.label(),
                        signature,
                        cases: Vec::new(),
                        known_failures: 0,
                    });
                    clusters.len() - 1
                }
            };
            if let Some(entry) = clusters.get_mut(index) {
                entry.cases.push(case.id.clone());
                if case.verdict == Verdict::Xfail {
                    entry.known_failures += 1;
                }
            }
        }
    }
    clusters.sort_by(|a, b| b.cases.len().cmp(&a.cases.len()).then_with(|| a.label.cmp(&b.label)));
    clusters
}

/// Whether a case counts as a failure for clustering.
pub fn is_failure(case: &CaseReport) -> bool {
    matches!(case.verdict.tally(), Tally::Failed | Tally::KnownFailure)
}

/// `31 failures, 2 causes` (with `(3 known)` when some are expected
/// failures), or `3 causes in 2 failing cases` when cases fail for several
/// causes each; `None` when nothing failed.
pub fn headline(cases: &[CaseReport], clusters: &[Cluster]) -> Option<String> {
    let failures: Vec<&CaseReport> = cases.iter().filter(|c| is_failure(c)).collect();
    if failures.is_empty() {
        return None;
    }
    let known = failures.iter().filter(|c| c.verdict == Verdict::Xfail).count();
    let known = if known > 0 { format!(" ({known} known)") } else { String::new() };
    let causes = format!("{} {}", clusters.len(), plural(clusters.len(), "cause", "causes"));
    Some(if clusters.len() > failures.len() {
        // "2 failures, 3 causes" reads as a miscount: say where the causes are.
        format!("{causes} in {} {}{known}", failures.len(), plural(failures.len(), "failing case", "failing cases"))
    } else {
        format!("{} {}{known}, {causes}", failures.len(), plural(failures.len(), "failure", "failures"))
    })
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

fn signatures(case: &CaseReport, expected_verdicts: &HashMap<&str, Verdict>) -> Vec<Signature> {
    if !case.differences.is_empty() {
        return difference_signatures(&case.suite, &case.differences);
    }
    let verdict = match case.verdict {
        Verdict::Xfail => expected_verdicts.get(case.id.as_str()).copied().unwrap_or(Verdict::Xfail),
        other => other,
    };
    let message_class = match verdict {
        // The message names the entry; what they share is that they passed.
        Verdict::Xpass => "listed as a known failure but passed".to_owned(),
        _ => {
            // Problems with fixture documents start with the file's own path
            // and position, which every file has differently.
            let message = case.message.as_deref().unwrap_or("");
            let message = match message.strip_prefix(case.path.as_str()) {
                Some(rest) => rest.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit()).trim_start(),
                None => message,
            };
            message_class(message)
        }
    };
    vec![Signature::Verdict { verdict, message_class }]
}

/// The distinct causes behind a case's differences in `suite`, in the order
/// the differences appear (not the set's order): differences that name rules
/// are signed by their likeliest rule; the others by pointer pattern, where
/// differences of one cause seen through derived views, or at several
/// depths, share one signature.
pub fn difference_signatures(suite: &str, differences: &[DifferenceReport]) -> Vec<Signature> {
    let views = derived_views(suite);
    let mut seen = BTreeSet::new();
    differences
        .iter()
        .map(|d| match d.rules.first() {
            // The likeliest rule comes first (see `report::rules`).
            Some(rule) => Signature::Rule { suite: suite.to_owned(), rule: rule.clone() },
            None => Signature::Difference {
                pattern: cause_pattern(&d.pattern, views),
                kind: d.kind,
                change: value_change(d.expected.as_ref(), d.actual.as_ref()),
            },
        })
        .filter(|signature| seen.insert(signature.clone()))
        .collect()
}

/// The first line of `message` with digit runs replaced by `N` and the text
/// inside quotes and backticks replaced by `…`.
pub fn message_class(message: &str) -> String {
    let line = message.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut last_digit = false;
    for c in line.chars() {
        if let Some(open) = quote {
            if c == open {
                out.push('…');
                out.push(c);
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '`' => {
                out.push(c);
                quote = Some(c);
                last_digit = false;
            }
            c if c.is_ascii_digit() => {
                if !last_digit {
                    out.push('N');
                }
                last_digit = true;
            }
            c => {
                out.push(c);
                last_digit = false;
            }
        }
    }
    if quote.is_some() {
        out.push('…');
    }
    if out.chars().count() > MAX_CLASS_CHARS {
        out = out.chars().take(MAX_CLASS_CHARS).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::DifferenceKind;
    use crate::report::DifferenceReport;

    fn case(id: &str, verdict: Verdict, message: &str, patterns: &[(&str, DifferenceKind)]) -> CaseReport {
        let suite = id.split('/').next().unwrap_or("");
        CaseReport {
            fixture_version: Some(1),
            message: Some(message.to_owned()),
            differences: patterns
                .iter()
                .map(|(pointer, kind)| DifferenceReport {
                    pointer: pointer.to_string(),
                    pattern: pointer.replace(|c: char| c.is_ascii_digit(), "*"),
                    kind: *kind,
                    message: String::new(),
                    expected: None,
                    actual: None,
                    count: None,
                    rules: Vec::new(),
                })
                .collect(),
            ..CaseReport::new(id.to_owned(), suite, id.to_owned(), format!("{id}.json"), verdict)
        }
    }

    #[test]
    fn failures_with_the_same_pattern_and_kind_form_one_cluster() {
        let state = DifferenceKind::ValueChanged;
        let cases = vec![
            case("chat/a", Verdict::Fail, "", &[("/blocks/1/tool/state", state), ("/blocks/4/tool/state", state)]),
            case("chat/b", Verdict::Fail, "", &[("/blocks/2/tool/state", state)]),
            case("chat/c", Verdict::Pass, "", &[]),
            case("chat/d", Verdict::Crash, "exit status 101 after 3 cases", &[]),
            case("chat/e", Verdict::Crash, "exit status 134 after 12 cases", &[]),
            case("chat/f", Verdict::Fail, "", &[("/blocks/0/text", DifferenceKind::MissingMember)]),
        ];
        let clusters = cluster(&cases, None);
        assert_eq!(clusters.len(), 3);
        assert_eq!(clusters[0].label, "/blocks/*/tool/state value-changed");
        assert_eq!(clusters[0].cases, ["chat/a", "chat/b"]);
        assert_eq!(clusters[1].label, "crash: exit status N after N cases");
        assert_eq!(clusters[1].cases, ["chat/d", "chat/e"]);
        assert_eq!(clusters[2].cases, ["chat/f"]);
        assert_eq!(headline(&cases, &clusters).as_deref(), Some("5 failures, 3 causes"));
    }

    #[test]
    fn a_case_with_two_bugs_is_in_both_clusters() {
        let cases = vec![case(
            "chat/a",
            Verdict::Fail,
            "",
            &[("/blocks/0/text", DifferenceKind::ValueChanged), ("/meta", DifferenceKind::UnexpectedMember)],
        )];
        let clusters = cluster(&cases, None);
        assert_eq!(clusters.len(), 2);
        assert_eq!(headline(&cases, &clusters).as_deref(), Some("2 causes in 1 failing case"));
    }

    #[test]
    fn message_classes_blank_numbers_and_quoted_text() {
        assert_eq!(message_class("unknown event `foo.bar` at line 12"), "unknown event `…` at line N");
        assert_eq!(message_class("\n  bad \"x\" and \"unterminated"), "bad \"…\" and \"…");
        assert_eq!(message_class(""), "");
    }

    #[test]
    fn examples_are_cut_and_counted() {
        let cases: Vec<CaseReport> =
            (0..5).map(|i| case(&format!("chat/c{i}"), Verdict::Crash, "exit status 1", &[])).collect();
        let clusters = cluster(&cases, None);
        assert_eq!(clusters[0].examples(2, |id| format!("<{id}>")), "<chat/c0>, <chat/c1> and 3 more");
        assert_eq!(clusters[0].examples(5, str::to_owned), "chat/c0, chat/c1, chat/c2, chat/c3, chat/c4");
        assert_eq!(clusters[0].known_note(), None);
    }

    #[test]
    fn nothing_failed_means_no_headline() {
        let cases = vec![case("chat/a", Verdict::Pass, "", &[])];
        assert_eq!(headline(&cases, &cluster(&cases, None)), None);
    }

    /// A chat output whose tool block `t1` is in `state` and whose text
    /// block says `text`, nested one level down in an agent run's children,
    /// seen in `blocks` and in `visibleBlocks` (a tool group).
    fn chat_output(state: &str, text: &str) -> serde_json::Value {
        let tool = serde_json::json!({"kind": "tool-call", "id": "t1", "tool": {"name": "Bash", "state": state}});
        let nested = serde_json::json!({"kind": "agent-run", "children": [{"kind": "text", "text": text}]});
        serde_json::json!({
            "blocks": [tool.clone(), nested.clone()],
            "visibleBlocks": [{"kind": "tool-group", "tools": [tool]}, nested]
        })
    }

    #[test]
    fn one_cause_seen_through_derived_views_is_one_cluster_and_two_causes_are_two() {
        use crate::report::sample::failing;
        let input = serde_json::json!({});
        let right = chat_output("error", "done");
        let cases = vec![
            // Cause A (tool errors shown as completed) in blocks, visibleBlocks and a tool group.
            failing("chat", "a1", input.clone(), right.clone(), chat_output("completed", "done")),
            failing("chat", "a2", input.clone(), right.clone(), chat_output("completed", "done")),
            // Cause B (tool errors shown as running): same member, another wrong value.
            failing("chat", "b1", input.clone(), right.clone(), chat_output("running", "done")),
            // Cause C (nested text dropped to empty) alone, then with cause A.
            failing("chat", "c1", input.clone(), right.clone(), chat_output("error", "")),
            failing("chat", "ac", input.clone(), right.clone(), chat_output("completed", "")),
        ];
        assert!(cases.iter().all(|c| c.differences.len() >= 2), "each cause shows in blocks and visibleBlocks");
        let clusters = cluster(&cases, None);
        let labels: Vec<(&str, Vec<&str>)> =
            clusters.iter().map(|c| (c.label.as_str(), c.cases.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            labels,
            [
                (
                    "/blocks/*/tool/state value-changed (\"error\" → \"completed\")",
                    vec!["chat/a1", "chat/a2", "chat/ac"]
                ),
                ("/blocks/*/text value-changed", vec!["chat/c1", "chat/ac"]),
                ("/blocks/*/tool/state value-changed (\"error\" → \"running\")", vec!["chat/b1"]),
            ]
        );
        assert_eq!(headline(&cases, &clusters).as_deref(), Some("5 failures, 3 causes"));
    }
}
