//! Line diffs of canonical texts, with line numbers of both sides.

use serde::{Deserialize, Serialize};
use similar::{Algorithm, ChangeTag, TextDiff};
use std::time::Duration;

/// Longest time spent finding a minimal diff before settling for a coarser one.
const DIFF_DEADLINE: Duration = Duration::from_millis(500);

/// Lines of context around each change, in every diff the harness shows.
pub const DIFF_CONTEXT: usize = 3;

/// What hunk headers call the two sides of a comparison of an output with
/// its expectation.
pub const EXPECTED_ACTUAL: (&str, &str) = ("expected", "actual");

/// Whether a diff line is shared, only expected, or only actual.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffTag {
    /// Present on both sides (context).
    Equal,
    /// Only in the expected text.
    Expected,
    /// Only in the actual text.
    Actual,
}

/// One line of a diff hunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffLine {
    /// Which side(s) the line is on.
    pub tag: DiffTag,
    /// 1-based line number in the expected text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_line: Option<usize>,
    /// 1-based line number in the actual text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_line: Option<usize>,
    /// The line, without its newline.
    pub text: String,
}

/// A group of changed lines with their context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffHunk {
    /// The lines, in order.
    pub lines: Vec<DiffLine>,
}

/// Diffs two texts line by line (Patience algorithm) and groups the changes
/// into hunks with `context` lines around them.
pub fn text_diff(expected: &str, actual: &str, context: usize) -> Vec<DiffHunk> {
    let diff = TextDiff::configure().algorithm(Algorithm::Patience).timeout(DIFF_DEADLINE).diff_lines(expected, actual);
    diff.grouped_ops(context)
        .iter()
        .map(|group| DiffHunk {
            lines: group
                .iter()
                .flat_map(|op| diff.iter_changes(op))
                .map(|change| DiffLine {
                    tag: match change.tag() {
                        ChangeTag::Equal => DiffTag::Equal,
                        ChangeTag::Delete => DiffTag::Expected,
                        ChangeTag::Insert => DiffTag::Actual,
                    },
                    expected_line: change.old_index().map(|i| i + 1),
                    actual_line: change.new_index().map(|i| i + 1),
                    text: change.value().trim_end_matches(['\n', '\r']).to_owned(),
                })
                .collect(),
        })
        .collect()
}

/// Renders hunks as plain text:
///
/// ```text
/// @@ expected 12-14, actual 12-13 @@
///    12    12 |             "kind": "tool-call",
///    13       |-            "state": "completed"
///          13 |+            "state": "running"
/// ```
pub fn render_plain(hunks: &[DiffHunk]) -> String {
    render_labeled(hunks, EXPECTED_ACTUAL)
}

/// Renders hunks as [`render_plain`] does, with the two sides named
/// `labels` (the side of `-` lines first) in the hunk headers.
pub fn render_labeled(hunks: &[DiffHunk], labels: (&str, &str)) -> String {
    let mut out = String::new();
    for hunk in hunks {
        out.push_str(&labeled_hunk_header(hunk, labels));
        out.push('\n');
        for line in &hunk.lines {
            out.push_str(&format_line(line));
            out.push('\n');
        }
    }
    out
}

/// `@@ expected A-B, actual C-D @@` for a hunk.
pub fn hunk_header(hunk: &DiffHunk) -> String {
    labeled_hunk_header(hunk, EXPECTED_ACTUAL)
}

fn labeled_hunk_header(hunk: &DiffHunk, (old, new): (&str, &str)) -> String {
    let range = |numbers: Vec<usize>| match (numbers.first(), numbers.last()) {
        (Some(first), Some(last)) => format!("{first}-{last}"),
        _ => "none".to_owned(),
    };
    let old_lines = range(hunk.lines.iter().filter_map(|l| l.expected_line).collect());
    let new_lines = range(hunk.lines.iter().filter_map(|l| l.actual_line).collect());
    format!("@@ {old} {old_lines}, {new} {new_lines} @@")
}

/// One diff line with both line numbers and a `-`/`+`/` ` marker.
pub fn format_line(line: &DiffLine) -> String {
    let number = |n: Option<usize>| n.map_or_else(|| " ".repeat(5), |n| format!("{n:>5}"));
    let marker = match line.tag {
        DiffTag::Equal => ' ',
        DiffTag::Expected => '-',
        DiffTag::Actual => '+',
    };
    format!("{} {} |{marker}{}", number(line.expected_line), number(line.actual_line), line.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_carry_both_line_numbers_and_context() {
        let expected = "a\nb\nc\nd\ne\nf\ng\n";
        let actual = "a\nb\nc\nD\ne\nf\ng\n";
        let hunks = text_diff(expected, actual, 1);
        assert_eq!(hunks.len(), 1);
        let rendered = render_plain(&hunks);
        assert_eq!(
            rendered,
            "@@ expected 3-5, actual 3-5 @@\n    3     3 | c\n    4       |-d\n          4 |+D\n    5     5 | e\n"
        );
    }

    #[test]
    fn labels_name_the_sides_in_hunk_headers() {
        let hunks = text_diff("a\nb\n", "a\nc\n", 1);
        let rendered = render_labeled(&hunks, ("current", "proposed"));
        assert!(rendered.starts_with("@@ current 1-2, proposed 1-2 @@\n"), "{rendered}");
        assert_eq!(
            rendered.lines().skip(1).collect::<Vec<_>>(),
            render_plain(&hunks).lines().skip(1).collect::<Vec<_>>()
        );
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        assert!(text_diff("x\n", "x\n", 3).is_empty());
    }
}
