//! JSON Lines (newline-delimited JSON): one value per line, with 1-based line
//! numbers kept for error messages. Captured streams and the subprocess
//! protocol both use this framing.

use super::parse::{JsonError, parse_value};
use serde_json::Value;

/// One non-blank line of a JSON Lines text.
#[derive(Debug)]
pub struct JsonLine {
    /// 1-based line number in the text.
    pub line: usize,
    /// The parsed value, or why the line is not JSON (positions in the error
    /// are relative to the whole text).
    pub value: Result<Value, JsonError>,
}

/// Splits a JSON Lines text into parsed lines. Blank lines are skipped, a
/// trailing `\r` is ignored, and a leading byte order mark is dropped. A line
/// that fails to parse is returned as an error; the other lines still parse.
pub fn parse_json_lines(text: &str) -> Vec<JsonLine> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.split('\n')
        .enumerate()
        .filter_map(|(index, raw)| {
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            if raw.trim().is_empty() {
                return None;
            }
            let line = index + 1;
            let value = parse_value(raw).map_err(|err| JsonError { line, ..err });
            Some(JsonLine { line, value })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_numbers_and_bad_lines_do_not_stop_the_rest() {
        let lines = parse_json_lines("{\"a\":1}\r\n\n  \nnot json\n[2]");
        let numbers: Vec<usize> = lines.iter().map(|l| l.line).collect();
        assert_eq!(numbers, [1, 4, 5]);
        assert_eq!(lines[0].value.as_ref().ok(), Some(&serde_json::json!({"a": 1})));
        let err = lines[1].value.as_ref().unwrap_err();
        // serde_json reports the column after reading the offending character.
        assert_eq!((err.line, err.column), (4, 2));
        assert!(lines[2].value.is_ok());
    }
}
