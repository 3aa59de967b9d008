//! Capture import plumbing shared by the per-format importers: JSON Lines
//! text in, parsed objects with their line numbers out, and a typed error
//! that names the line.

use crate::json::parse_json_lines;
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
    /// could not be read.
    #[error("client lines: {0}")]
    Client(Box<ImportError>),
    /// The capture holds no frames at all.
    #[error("the capture holds no JSON lines")]
    Empty,
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
/// is not a JSON object. Blank lines are skipped.
pub fn parse_capture_lines(text: &str) -> Result<Vec<CaptureLine>, ImportError> {
    let mut lines = Vec::new();
    for parsed in parse_json_lines(text) {
        let value = parsed.value.map_err(|err| ImportError::Json {
            line: parsed.line,
            column: err.column,
            message: err.message,
        })?;
        if !value.is_object() {
            return Err(ImportError::NotAnObject { line: parsed.line, found: json_type(&value) });
        }
        lines.push(CaptureLine { line: parsed.line, value });
    }
    if lines.is_empty() { Err(ImportError::Empty) } else { Ok(lines) }
}

fn json_type(value: &Value) -> &'static str {
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
    fn errors_name_the_line() {
        assert_eq!(
            parse_capture_lines("{}\n\n[1]").unwrap_err(),
            ImportError::NotAnObject { line: 3, found: "an array" }
        );
        assert!(matches!(parse_capture_lines("{}\n{oops").unwrap_err(), ImportError::Json { line: 2, .. }));
        assert_eq!(parse_capture_lines("\n \n").unwrap_err(), ImportError::Empty);
    }
}
