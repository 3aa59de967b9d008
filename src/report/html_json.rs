//! HTML renderings of JSON values and line diffs for the HTML report:
//! expected and actual side by side with the differing paths marked.
//!
//! Values are written with 2-space indentation in canonical key order (the
//! order the line diff uses) and every piece of text is HTML-escaped: fixture
//! content and adapter output are untrusted.

use super::escape::escape_html as escape;
use super::model::DifferenceReport;
use crate::compare::{DiffHunk, DiffTag, DifferenceKind};
use crate::json::{KeyOrder, ordered_keys, pointer, write_string};
use serde_json::Value;
use std::collections::BTreeMap;

/// Rendered text beyond this many bytes is cut (a report must stay openable).
const MAX_RENDERED_BYTES: usize = 512 * 1024;

/// Which side of the comparison a rendering shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The fixture's expected part.
    Expected,
    /// The implementation's output.
    Actual,
}

/// How a marked path differs, as a CSS class.
fn mark_class(kind: DifferenceKind) -> &'static str {
    match kind {
        DifferenceKind::ValueChanged | DifferenceKind::TypeChanged => "hl-changed",
        DifferenceKind::MissingMember | DifferenceKind::MissingElements => "hl-missing",
        DifferenceKind::UnexpectedMember | DifferenceKind::UnexpectedElements => "hl-extra",
    }
}

/// The pointers to mark on one side, with their CSS class.
fn marks(differences: &[DifferenceReport], side: Side) -> BTreeMap<String, &'static str> {
    let mut marks = BTreeMap::new();
    for difference in differences {
        let on_this_side = match difference.kind {
            DifferenceKind::ValueChanged | DifferenceKind::TypeChanged => true,
            DifferenceKind::MissingMember | DifferenceKind::MissingElements => side == Side::Expected,
            DifferenceKind::UnexpectedMember | DifferenceKind::UnexpectedElements => side == Side::Actual,
        };
        if !on_this_side {
            continue;
        }
        let class = mark_class(difference.kind);
        match (difference.kind, difference.count) {
            (DifferenceKind::MissingElements | DifferenceKind::UnexpectedElements, Some(count)) => {
                // An element run: mark each element of it.
                let mut tokens = pointer::tokens(&difference.pointer);
                let first = tokens.pop().and_then(|t| t.parse::<usize>().ok());
                let parent = tokens.iter().fold(String::new(), |acc, t| pointer::push(&acc, t));
                match first {
                    Some(first) => {
                        for index in first..first.saturating_add(count.min(10_000)) {
                            marks.insert(pointer::push_index(&parent, index), class);
                        }
                    }
                    None => {
                        marks.insert(difference.pointer.clone(), class);
                    }
                }
            }
            _ => {
                marks.insert(difference.pointer.clone(), class);
            }
        }
    }
    marks
}

/// Renders `value` as indented JSON with the paths of `differences` that
/// belong to `side` wrapped in `<span class="hl …">`.
pub fn render_marked(value: &Value, differences: &[DifferenceReport], side: Side) -> String {
    let marks = marks(differences, side);
    let mut out = String::new();
    write_node(&mut out, value, "", &marks, 0);
    cut(out)
}

/// Renders `value` as indented JSON with nothing marked.
pub fn render_plain_json(value: &Value) -> String {
    let mut out = String::new();
    write_node(&mut out, value, "", &BTreeMap::new(), 0);
    cut(out)
}

fn cut(mut out: String) -> String {
    if out.len() > MAX_RENDERED_BYTES {
        let mut end = MAX_RENDERED_BYTES;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        // Never cut inside an entity or a tag: back up to the last newline.
        if let Some(newline) = out[..end].rfind('\n') {
            end = newline;
        }
        out.truncate(end);
        // Close any marks left open by the cut.
        let open = out.matches("<span").count().saturating_sub(out.matches("</span>").count());
        out.push_str(&"</span>".repeat(open));
        out.push_str("\n<span class=\"cut\">… (cut: the value is too large to show here; see the JSON report)</span>");
    }
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_node(out: &mut String, value: &Value, at: &str, marks: &BTreeMap<String, &'static str>, depth: usize) {
    if out.len() > MAX_RENDERED_BYTES {
        return;
    }
    // Reports may hold values nested thousands of levels deep.
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                out.push('\n');
                indent(out, depth + 1);
                let here = pointer::push_index(at, index);
                write_marked(out, marks, &here, |out| write_node(out, item, &here, marks, depth + 1));
                if index + 1 < items.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            indent(out, depth);
            out.push(']');
        }
        Value::Object(members) if !members.is_empty() => {
            out.push('{');
            let keys = ordered_keys(members.keys(), KeyOrder::Canonical);
            for (position, key) in keys.iter().enumerate() {
                out.push('\n');
                indent(out, depth + 1);
                let here = pointer::push(at, key);
                write_marked(out, marks, &here, |out| {
                    let mut quoted = String::new();
                    write_string(&mut quoted, key);
                    out.push_str(&format!("<span class=\"k\">{}</span>: ", escape(&quoted)));
                    if let Some(member) = members.get(*key) {
                        write_node(out, member, &here, marks, depth + 1);
                    }
                });
                if position + 1 < keys.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            indent(out, depth);
            out.push('}');
        }
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
        Value::String(text) => {
            let mut quoted = String::new();
            write_string(&mut quoted, text);
            out.push_str(&format!("<span class=\"s\">{}</span>", escape(&quoted)));
        }
        scalar => {
            out.push_str(&format!("<span class=\"n\">{}</span>", escape(&crate::json::to_compact_string(scalar))))
        }
    });
}

/// Writes what `body` writes, inside a highlight when the value at `here`
/// is marked.
fn write_marked(out: &mut String, marks: &BTreeMap<String, &'static str>, here: &str, body: impl FnOnce(&mut String)) {
    let mark = marks.get(here);
    if let Some(class) = mark {
        out.push_str(&format!("<span class=\"hl {class}\" title=\"{}\">", escape(here)));
    }
    body(out);
    if mark.is_some() {
        out.push_str("</span>");
    }
}

/// Renders line-diff hunks as a table: both line numbers, the marker and the
/// text, with removed and added lines colored.
pub fn render_diff(hunks: &[DiffHunk]) -> String {
    let mut out = String::from("<table class=\"diff\">");
    for (i, hunk) in hunks.iter().enumerate() {
        if i > 0 {
            out.push_str("<tr class=\"gap\"><td></td><td></td><td></td><td>⋯</td></tr>");
        }
        for line in &hunk.lines {
            let (class, marker) = match line.tag {
                DiffTag::Equal => ("eq", " "),
                DiffTag::Expected => ("del", "-"),
                DiffTag::Actual => ("ins", "+"),
            };
            let number = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "<tr class=\"{class}\"><td class=\"ln\">{}</td><td class=\"ln\">{}</td><td class=\"mk\">{marker}</td><td>{}</td></tr>",
                number(line.expected_line),
                number(line.actual_line),
                escape(&line.text)
            ));
        }
    }
    out.push_str("</table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn difference(pointer: &str, kind: DifferenceKind, count: Option<usize>) -> DifferenceReport {
        DifferenceReport {
            pointer: pointer.to_owned(),
            pattern: String::new(),
            kind,
            message: String::new(),
            expected: None,
            actual: None,
            count,
            rules: Vec::new(),
        }
    }

    #[test]
    fn differing_paths_are_marked_on_their_side() {
        let value = json!({"blocks": [{"state": "completed"}, {"text": "<b>"}], "b": 1});
        let differences = vec![
            difference("/blocks/0/state", DifferenceKind::ValueChanged, None),
            difference("/blocks/1", DifferenceKind::MissingElements, Some(1)),
        ];
        let expected = render_marked(&value, &differences, Side::Expected);
        assert!(expected.contains("<span class=\"hl hl-changed\" title=\"/blocks/0/state\"><span class=\"k\">&quot;state&quot;</span>: <span class=\"s\">&quot;completed&quot;</span></span>"), "{expected}");
        assert!(expected.contains("<span class=\"hl hl-missing\" title=\"/blocks/1\">"));
        assert!(expected.contains("&quot;&lt;b&gt;&quot;"), "text is escaped");
        // Canonical key order: "b" before "blocks".
        assert!(expected.find("&quot;b&quot;") < expected.find("&quot;blocks&quot;"));
        let actual = render_marked(&value, &differences, Side::Actual);
        assert!(actual.contains("hl-changed") && !actual.contains("hl-missing"));
    }

    #[test]
    fn deep_values_render_without_overflowing_the_stack() {
        let mut value = json!(1);
        for _ in 0..5000 {
            value = Value::Array(vec![value]);
        }
        let text = render_plain_json(&value);
        assert!(text.ends_with(']') || text.contains("class=\"cut\""));
        // Dropping a deeply nested value recurses too.
        std::mem::forget(value);
    }
}
