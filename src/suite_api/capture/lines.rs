//! JSON Lines capture files: the line-numbered objects every stream importer
//! reads, and the typed error that names the line.
//!
//! A capture is read strictly (every line must be a JSON object, and there
//! must be at least one); a client-side companion file is read the same way
//! except that it may be empty, and its errors say they are about the
//! companion.

use crate::json::{JsonLine, parse_json_lines};
use serde_json::Value;
use thiserror::Error;

/// Why a capture file could not be imported.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ImportError {
    /// A line is not valid JSON.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// 1-based line number.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A line holds JSON that is not an object.
    #[error("line {line}: expected a JSON object, found {found}")]
    NotAnObject {
        /// 1-based line number.
        line: usize,
        /// The JSON type found instead.
        found: &'static str,
    },
    /// The client-side companion file (`.stdin.jsonl`, `.client.jsonl`)
    /// is broken.
    #[error("client lines: {0}")]
    Client(Box<ImportError>),
    /// The capture holds no JSON lines at all.
    #[error("the capture holds no JSON lines")]
    Empty,
    /// Every line of a session transcript was one without an SDK
    /// counterpart, so no frame is left.
    #[error("the capture holds no messages ({skipped} transcript lines skipped)")]
    NoFrames {
        /// How many transcript lines were skipped.
        skipped: usize,
    },
}

/// One parsed line of a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureLine {
    /// 1-based line number in the capture.
    pub line: usize,
    /// The parsed object.
    pub value: Value,
}

/// Parses a JSON Lines capture into objects, failing on the first line that
/// is not a JSON object, or when there is no line at all. Blank lines are
/// skipped.
pub fn parse_capture_lines(text: &str) -> Result<Vec<CaptureLine>, ImportError> {
    let lines = objects(text)?;
    if lines.is_empty() { Err(ImportError::Empty) } else { Ok(lines) }
}

/// Parses a client-side companion: like [`parse_capture_lines`], but an
/// empty companion adds nothing instead of failing, and errors are
/// [`ImportError::Client`].
pub fn parse_companion_lines(text: &str) -> Result<Vec<Value>, ImportError> {
    let lines = objects(text).map_err(|err| ImportError::Client(Box::new(err)))?;
    Ok(lines.into_iter().map(|line| line.value).collect())
}

/// The last line of a capture, dropped because it is not JSON: the writer
/// was stopped in the middle of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutLine {
    /// 1-based line number.
    pub line: usize,
    /// What the parser said about it.
    pub message: String,
}

impl CutLine {
    /// The notice `conform capture` prints for the dropped line.
    pub fn notice(&self) -> String {
        format!("line {} was cut mid-write ({}); it is dropped and the case ends cut off", self.line, self.message)
    }
}

/// Like [`parse_capture_lines`], except that a last line which is not JSON
/// (the capture was stopped while the line was being written) is dropped and
/// returned beside the lines instead of failing the import. Only the last
/// non-blank line gets this leniency: a broken line before it still fails.
pub fn parse_capture_lines_cut_tail(text: &str) -> Result<(Vec<CaptureLine>, Option<CutLine>), ImportError> {
    let mut parsed = parse_json_lines(text);
    let cut = match parsed.last() {
        Some(JsonLine { line, value: Err(err) }) => Some(CutLine { line: *line, message: err.message.clone() }),
        _ => None,
    };
    if cut.is_some() {
        parsed.pop();
    }
    let lines = checked(parsed)?;
    if lines.is_empty() && cut.is_none() {
        return Err(ImportError::Empty);
    }
    Ok((lines, cut))
}

/// Leading lines a capture's format does not read: another tool's header
/// (a recorder's `{"shipyard_fixture":{…}}` metadata line) before the
/// runtime's own lines. They are left out and named in a notice; lines of
/// the format's kind that follow are all kept, whatever comes between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkippedHeader {
    /// The 1-based numbers of the lines left out, with their first key.
    pub lines: Vec<(usize, String)>,
}

impl SkippedHeader {
    /// The notice `conform capture` prints, or `None` when nothing was left
    /// out.
    pub fn notice(&self, format: &str) -> Option<String> {
        let named: Vec<String> = self
            .lines
            .iter()
            .map(|(line, key)| if key.is_empty() { format!("line {line}") } else { format!("line {line} ({key})") })
            .collect();
        (!named.is_empty())
            .then(|| format!("{} before the first {format} line skipped: no known capture format", named.join(", ")))
    }
}

/// Drops the lines before the first one `is_mine` recognizes (all of them
/// when none is recognized: the importer then says the file holds nothing of
/// its format the way it always did, from what is left).
pub fn skip_leading_foreign(
    lines: Vec<CaptureLine>,
    is_mine: impl Fn(&Value) -> bool,
) -> (Vec<CaptureLine>, SkippedHeader) {
    let Some(first) = lines.iter().position(|line| is_mine(&line.value)) else {
        return (lines, SkippedHeader::default());
    };
    let mut lines = lines;
    let kept = lines.split_off(first);
    let skipped = lines
        .into_iter()
        .map(|line| {
            let key = line.value.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
            (line.line, key)
        })
        .collect();
    (kept, SkippedHeader { lines: skipped })
}

fn objects(text: &str) -> Result<Vec<CaptureLine>, ImportError> {
    checked(parse_json_lines(text))
}

fn checked(parsed: Vec<JsonLine>) -> Result<Vec<CaptureLine>, ImportError> {
    parsed
        .into_iter()
        .map(|parsed| {
            let value = parsed.value.map_err(|err| ImportError::Json {
                line: parsed.line,
                column: err.column,
                message: err.message,
            })?;
            if value.is_object() {
                Ok(CaptureLine { line: parsed.line, value })
            } else {
                Err(ImportError::NotAnObject { line: parsed.line, found: type_name(&value) })
            }
        })
        .collect()
}

/// The JSON type of a value, with its article, for messages
/// (`expected a JSON object, found an array`).
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_lines_of_another_tool_are_skipped_and_named() {
        let lines = parse_capture_lines("{\"shipyard_fixture\":{\"v\":1}}\n{\"type\":\"a\"}\n{\"other\":1}\n").unwrap();
        let (kept, skipped) = skip_leading_foreign(lines.clone(), |v| v.get("type").is_some());
        assert_eq!(kept.iter().map(|l| l.line).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(
            skipped.notice("codex exec").as_deref(),
            Some("line 1 (shipyard_fixture) before the first codex exec line skipped: no known capture format")
        );
        let (kept, skipped) = skip_leading_foreign(lines, |_| false);
        assert_eq!((kept.len(), skipped.notice("x")), (3, None));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            parse_capture_lines("{}\n\n[1]").unwrap_err(),
            ImportError::NotAnObject { line: 3, found: "an array" }
        );
        assert!(matches!(parse_capture_lines("{}\n{oops").unwrap_err(), ImportError::Json { line: 2, .. }));
        assert_eq!(parse_capture_lines("\n \n").unwrap_err(), ImportError::Empty);
    }

    #[test]
    fn a_last_line_cut_mid_write_is_dropped_and_named() {
        let (lines, cut) = parse_capture_lines_cut_tail("{\"a\":1}\n{\"b\":").unwrap();
        assert_eq!(lines.len(), 1);
        let cut = cut.unwrap();
        assert_eq!(cut.line, 2);
        assert!(cut.notice().starts_with("line 2 was cut mid-write (EOF while parsing"), "{}", cut.notice());
        assert!(matches!(parse_capture_lines_cut_tail("{oops\n{}").unwrap_err(), ImportError::Json { line: 1, .. }));
        assert_eq!(
            parse_capture_lines_cut_tail("{}\n").unwrap(),
            (vec![CaptureLine { line: 1, value: serde_json::json!({}) }], None)
        );
        assert_eq!(parse_capture_lines_cut_tail("\n").unwrap_err(), ImportError::Empty);
    }

    #[test]
    fn an_empty_companion_adds_nothing_and_a_broken_one_says_so() {
        assert_eq!(parse_companion_lines("\n"), Ok(Vec::new()));
        let err = parse_companion_lines("{}\nnope").unwrap_err();
        assert!(err.to_string().starts_with("client lines: line 2"), "{err}");
    }
}
