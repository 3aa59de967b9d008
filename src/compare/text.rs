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
///
/// Stored compactly (see [`CompactHunk`]): the first line number of each
/// side and one string per line, its first character the marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "CompactHunk", try_from = "CompactHunk")]
pub struct DiffHunk {
    /// The lines, in order.
    pub lines: Vec<DiffLine>,
}

/// How a [`DiffHunk`] is serialized: `{"expected_start": 12, "actual_start":
/// 12, "lines": [" kept", "-removed", "+added"]}`. A side with no line in the
/// hunk has no start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactHunk {
    /// 1-based number of the hunk's first expected line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_start: Option<usize>,
    /// 1-based number of the hunk's first actual line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual_start: Option<usize>,
    /// Each line with its marker (` `, `-` expected only, `+` actual only)
    /// first; reports written before hunks were compact hold one object per
    /// line, which read back too.
    pub lines: Vec<CompactLine>,
}

/// One line of a [`CompactHunk`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompactLine {
    /// The marker and the text: `-    "state": "error"`.
    Marked(String),
    /// The older form: one object per line.
    Object(DiffLine),
}

impl From<DiffHunk> for CompactHunk {
    fn from(hunk: DiffHunk) -> Self {
        CompactHunk {
            expected_start: hunk.lines.iter().find_map(|l| l.expected_line),
            actual_start: hunk.lines.iter().find_map(|l| l.actual_line),
            lines: hunk
                .lines
                .into_iter()
                .map(|line| {
                    let marker = match line.tag {
                        DiffTag::Equal => ' ',
                        DiffTag::Expected => '-',
                        DiffTag::Actual => '+',
                    };
                    CompactLine::Marked(format!("{marker}{}", line.text))
                })
                .collect(),
        }
    }
}

impl TryFrom<CompactHunk> for DiffHunk {
    type Error = String;

    fn try_from(compact: CompactHunk) -> Result<Self, String> {
        let (mut expected, mut actual) = (compact.expected_start, compact.actual_start);
        let mut lines = Vec::with_capacity(compact.lines.len());
        for line in compact.lines {
            let text = match line {
                CompactLine::Marked(text) => text,
                CompactLine::Object(line) => {
                    lines.push(line);
                    continue;
                }
            };
            let mut chars = text.chars();
            let tag = match chars.next() {
                Some(' ') => DiffTag::Equal,
                Some('-') => DiffTag::Expected,
                Some('+') => DiffTag::Actual,
                _ => return Err(format!("a diff line must start with ' ', '-' or '+': {text:?}")),
            };
            let take = |side: &mut Option<usize>| {
                let number = *side;
                *side = side.map(|n| n + 1);
                number
            };
            let expected_line = if tag == DiffTag::Actual { None } else { take(&mut expected) };
            let actual_line = if tag == DiffTag::Expected { None } else { take(&mut actual) };
            lines.push(DiffLine { tag, expected_line, actual_line, text: chars.as_str().to_owned() });
        }
        Ok(DiffHunk { lines })
    }
}

/// How much of a line diff a report keeps per case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffBudget {
    /// Bytes of each canonical text compared (the rest is not diffed).
    pub input_bytes: usize,
    /// Diff lines kept (context included).
    pub lines: usize,
    /// Bytes of diff line text kept.
    pub bytes: usize,
}

/// The budget every run uses: 4 MiB of each text, 2,000 lines, 256 KiB.
pub const DIFF_BUDGET: DiffBudget = DiffBudget { input_bytes: 4 << 20, lines: 2_000, bytes: 256 << 10 };

/// A line diff kept within a [`DiffBudget`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundedDiff {
    /// The hunks kept.
    pub hunks: Vec<DiffHunk>,
    /// What was cut, when anything was: one line for humans.
    pub note: Option<String>,
}

/// Diffs the first `budget.input_bytes` of each text (`complete` says
/// whether each was whole) and keeps at most `budget.lines` lines and
/// `budget.bytes` bytes of hunks, saying what was cut.
pub fn bounded_text_diff(
    (expected, expected_complete): (&str, bool),
    (actual, actual_complete): (&str, bool),
    context: usize,
    budget: DiffBudget,
) -> BoundedDiff {
    let (expected_head, actual_head) = (text_head(expected, budget.input_bytes), text_head(actual, budget.input_bytes));
    let texts_cut = !expected_complete
        || !actual_complete
        || expected_head.len() < expected.len()
        || actual_head.len() < actual.len();
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(DIFF_DEADLINE)
        .diff_lines(expected_head, actual_head);
    let mut hunks = Vec::new();
    let (mut kept_lines, mut kept_bytes, mut cut_lines) = (0usize, 0usize, 0usize);
    for group in diff.grouped_ops(context) {
        let mut lines = Vec::new();
        for change in group.iter().flat_map(|op| diff.iter_changes(op)) {
            let text = change.value().trim_end_matches(['\n', '\r']);
            if kept_lines >= budget.lines || kept_bytes + text.len() > budget.bytes {
                cut_lines += 1;
                continue;
            }
            kept_lines += 1;
            kept_bytes += text.len();
            lines.push(DiffLine {
                tag: match change.tag() {
                    ChangeTag::Equal => DiffTag::Equal,
                    ChangeTag::Delete => DiffTag::Expected,
                    ChangeTag::Insert => DiffTag::Actual,
                },
                expected_line: change.old_index().map(|i| i + 1),
                actual_line: change.new_index().map(|i| i + 1),
                text: text.to_owned(),
            });
        }
        if !lines.is_empty() {
            hunks.push(DiffHunk { lines });
        }
    }
    let mut notes = Vec::new();
    if texts_cut {
        notes.push(format!("only the first {} of each canonical text were diffed", bytes(budget.input_bytes)));
    }
    if cut_lines > 0 {
        notes.push(format!(
            "{cut_lines} more diff lines cut (the report keeps {} lines, {} per case)",
            budget.lines,
            bytes(budget.bytes)
        ));
    }
    BoundedDiff { hunks, note: (!notes.is_empty()).then(|| notes.join("; ")) }
}

/// The first `max` bytes of `text`, cut after its last whole line.
fn text_head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..text[..end].rfind('\n').map_or(end, |newline| newline + 1)]
}

/// `4 MiB`, `256 KiB`, `900 bytes`.
pub fn bytes(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
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
    fn hunks_serialize_compactly_and_read_back() {
        let hunks = text_diff("a\nb\nc\n", "a\nB\nc\nd\n", 1);
        let json = serde_json::to_string(&hunks).unwrap();
        assert_eq!(json, r#"[{"expected_start":1,"actual_start":1,"lines":[" a","-b","+B"," c","+d"]}]"#);
        let back: Vec<DiffHunk> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, hunks);
        let older = r#"[{"lines":[{"tag":"equal","expected_line":1,"actual_line":1,"text":"a"},{"tag":"actual","actual_line":2,"text":"B"}]}]"#;
        let read: Vec<DiffHunk> = serde_json::from_str(older).unwrap();
        assert_eq!(
            read[0].lines[1],
            DiffLine { tag: DiffTag::Actual, expected_line: None, actual_line: Some(2), text: "B".into() }
        );
    }

    #[test]
    fn a_diff_over_its_budget_is_cut_with_a_note() {
        let expected = "x\n".repeat(10);
        let actual: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
        let budget = DiffBudget { input_bytes: 64 << 10, lines: 100, bytes: 1 << 10 };
        let diff = bounded_text_diff((&expected, true), (&actual, true), 3, budget);
        let kept: usize = diff.hunks.iter().map(|h| h.lines.len()).sum();
        let kept_bytes: usize = diff.hunks.iter().flat_map(|h| &h.lines).map(|l| l.text.len()).sum();
        assert!(kept <= 100 && kept_bytes <= 1 << 10, "{kept} lines, {kept_bytes} bytes");
        let note = diff.note.expect("a note");
        assert!(note.starts_with("only the first 64 KiB of each canonical text were diffed; "), "{note}");
        assert!(note.contains("more diff lines cut (the report keeps 100 lines, 1 KiB per case)"), "{note}");
        let small = bounded_text_diff(("a\n", true), ("b\n", true), 3, DIFF_BUDGET);
        assert_eq!((small.hunks, small.note), (text_diff("a\n", "b\n", 3), None));
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        assert!(text_diff("x\n", "x\n", 3).is_empty());
    }
}
