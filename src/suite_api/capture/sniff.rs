//! Telling a capture's format from its first lines.
//!
//! Every capture format has a sniffer ([`SniffFn`]) that looks at the first
//! lines of a file and says whether they are that format's, are another
//! kind of file (and which line shows it), or tell nothing either way. The
//! capture pipeline asks the sniffer of the format given with `--from`
//! before importing, refuses a file that is plainly of another kind, and
//! names the formats whose sniffers recognize it. Sniffers only look at the
//! first [`SNIFF_LINES`] lines, so a large capture costs nothing more.

use crate::json::{self, parse_json_lines};
use serde_json::Value;

/// How many non-blank lines a sniffer reads at most.
pub const SNIFF_LINES: usize = 20;

/// The longest excerpt of a line a mismatch quotes, in characters.
const EXCERPT_CHARS: usize = 80;

/// What a sniffer makes of the first lines of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sniff {
    /// The lines are this format's.
    Matches,
    /// The file is of another kind; says which line shows it and what it
    /// is (`line 1 is a session-transcript entry, …`).
    Mismatch(String),
    /// The first lines tell nothing either way (the importer decides).
    Unsure,
}

/// A format's sniffer: the text of one capture file in, a verdict out.
pub type SniffFn = fn(&str) -> Sniff;

/// One of the first values of a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct SniffedLine {
    /// 1-based line number.
    pub line: usize,
    /// The parsed value.
    pub value: Value,
    /// The line as written, for messages.
    pub text: String,
}

/// The first values of a capture with their line numbers: the first
/// [`SNIFF_LINES`] non-blank lines that parse as JSON (lines that do not are
/// passed over, so a cut last line does not count). A file that is one JSON
/// document over several lines (a response body written pretty-printed) has
/// no line that parses alone: it gives the whole document as line 1.
pub fn first_values(text: &str) -> Vec<SniffedLine> {
    let head: String = text.split_inclusive('\n').take(SNIFF_LINES * 4).collect();
    let raw_lines: Vec<&str> = head.split('\n').collect();
    let values: Vec<SniffedLine> = parse_json_lines(&head)
        .into_iter()
        .take(SNIFF_LINES)
        .filter_map(|parsed| {
            let text = raw_lines.get(parsed.line - 1).map_or("", |raw| raw.trim()).to_owned();
            parsed.value.ok().map(|value| SniffedLine { line: parsed.line, value, text })
        })
        .collect();
    if !values.is_empty() {
        return values;
    }
    let first_line = text.lines().next().unwrap_or_default().trim().to_owned();
    json::parse_value(text).map(|value| vec![SniffedLine { line: 1, value, text: first_line }]).unwrap_or_default()
}

/// A short excerpt of a line for a mismatch message: cut after
/// [`EXCERPT_CHARS`] characters.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The usual verdict of a JSON Lines format: when any of the first values
/// is one `is_mine` recognizes, the file `Matches` (leading lines of another
/// tool, such as a recorder's header, are the importer's to skip and name);
/// otherwise the first value `is_foreign` names makes it a `Mismatch` with
/// its description; no value either way is `Unsure`.
pub fn by_first_telling_line(
    text: &str,
    is_mine: impl Fn(&Value) -> bool,
    is_foreign: impl Fn(&Value) -> Option<String>,
) -> Sniff {
    let values = first_values(text);
    if values.iter().any(|line| is_mine(&line.value)) {
        return Sniff::Matches;
    }
    for SniffedLine { line, value, text } in values {
        if let Some(what) = is_foreign(&value) {
            return Sniff::Mismatch(format!("line {line} `{}` is {what}", excerpt(&text)));
        }
    }
    Sniff::Unsure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_values_skip_broken_lines_and_read_a_whole_document() {
        let lines = first_values("{\"a\":1}\n\nnot json\n {\"b\":2}\r\n");
        let seen: Vec<(usize, &str)> = lines.iter().map(|l| (l.line, l.text.as_str())).collect();
        assert_eq!(seen, [(1, "{\"a\":1}"), (4, "{\"b\":2}")]);
        assert_eq!(lines[1].value, serde_json::json!({"b": 2}));
        let pretty = first_values("{\n  \"messages\": []\n}\n");
        assert_eq!((pretty[0].line, pretty[0].text.as_str()), (1, "{"));
        assert_eq!(pretty[0].value, serde_json::json!({"messages": []}));
        assert!(first_values("{\"cut").is_empty());
        let many: String = (0..100).map(|n| format!("{{\"n\":{n}}}\n")).collect();
        assert_eq!(first_values(&many).len(), SNIFF_LINES);
    }

    #[test]
    fn excerpts_are_short() {
        let cut = excerpt(&"é".repeat(200));
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt("{\"a\":1}"), "{\"a\":1}");
    }

    #[test]
    fn any_line_of_the_format_decides_else_the_first_foreign_line() {
        let mine = |v: &Value| v.get("mine").is_some();
        let foreign = |v: &Value| v.get("other").map(|_| "another kind".to_owned());
        assert_eq!(by_first_telling_line("{}\n{\"mine\":1}\n{\"other\":1}", mine, foreign), Sniff::Matches);
        // A header line of another tool first: the format's lines after it still tell.
        assert_eq!(by_first_telling_line("{}\n{\"other\":1}\n{\"mine\":1}", mine, foreign), Sniff::Matches);
        assert_eq!(
            by_first_telling_line("{}\n{\"other\":1}\n{\"other\":2}", mine, foreign),
            Sniff::Mismatch("line 2 `{\"other\":1}` is another kind".to_owned())
        );
        assert_eq!(by_first_telling_line("{}\n[]", mine, foreign), Sniff::Unsure);
    }
}
