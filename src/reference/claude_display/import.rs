//! Captures to `claude-display` inputs. Two formats are read, line by line:
//!
//! * Claude stream-json (`claude -p --output-format stream-json`): every
//!   line is an SDK frame and is kept as is, control frames included (the
//!   display model gives each its disposition);
//! * Claude session transcripts (`~/.claude/projects/…/<session>.jsonl`):
//!   `user` and `assistant` entries become the SDK frames the SDK would have
//!   yielded for them (`isMeta`/`isVisibleInTranscriptOnly` become
//!   `isSynthetic`, `toolUseResult` becomes `tool_use_result`); entries with
//!   no SDK counterpart (progress, file-history snapshots, queue operations,
//!   `system/local_command`, …) are skipped and reported.
//!
//! A capture becomes one input `{messages: […]}`.

use crate::json::{JsonError, parse_json_lines};
use serde_json::{Map, Value};
use thiserror::Error;

/// Why a capture could not be imported.
#[derive(Debug, Error)]
pub enum ImportError {
    /// A line is not JSON.
    #[error("line {line}: not JSON ({source})")]
    Json {
        /// 1-based line number.
        line: usize,
        /// The parse error.
        #[source]
        source: JsonError,
    },
    /// A line is JSON but not an object.
    #[error("line {line}: expected a JSON object, found {found}")]
    NotAnObject {
        /// 1-based line number.
        line: usize,
        /// What the line holds instead.
        found: &'static str,
    },
    /// No line yielded an SDK frame.
    #[error("the capture holds no messages ({skipped} lines skipped)")]
    Empty {
        /// How many transcript lines were skipped.
        skipped: usize,
    },
}

/// A transcript line that has no SDK counterpart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line number.
    pub line: usize,
    /// Its `type` (and `/subtype`).
    pub kind: String,
}

/// The result of importing one capture.
#[derive(Clone, Debug)]
pub struct Import {
    /// The inputs (one per capture).
    pub inputs: Vec<Value>,
    /// Transcript lines that were left out, for the fixture's provenance.
    pub skipped: Vec<Skipped>,
}

/// Imports a Claude stream-json capture or session transcript as
/// `claude-display` inputs.
pub fn import(text: &str) -> Result<Vec<Value>, ImportError> {
    import_capture(text).map(|import| import.inputs)
}

/// Like [`import`], also reporting the transcript lines that were skipped.
pub fn import_capture(text: &str) -> Result<Import, ImportError> {
    let mut messages = Vec::new();
    let mut skipped = Vec::new();
    for parsed in parse_json_lines(text) {
        let line = parsed.line;
        let value = parsed.value.map_err(|source| ImportError::Json { line, source })?;
        let Value::Object(entry) = value else {
            return Err(ImportError::NotAnObject { line, found: json_kind(&value) });
        };
        if !is_transcript_entry(&entry) {
            messages.push(Value::Object(entry));
            continue;
        }
        match from_transcript(&entry) {
            Some(frame) => messages.push(frame),
            None => skipped.push(Skipped { line, kind: super::kinds::kind_of(&Value::Object(entry)) }),
        }
    }
    if messages.is_empty() {
        return Err(ImportError::Empty { skipped: skipped.len() });
    }
    let mut input = Map::new();
    input.insert("messages".to_owned(), Value::from(messages));
    Ok(Import { inputs: vec![Value::Object(input)], skipped })
}

/// Transcript entries use camelCase envelope keys the SDK frames do not.
fn is_transcript_entry(entry: &Map<String, Value>) -> bool {
    ["parentUuid", "isSidechain", "sessionId"].iter().any(|key| entry.contains_key(*key))
}

/// The SDK frame for a transcript entry, if it has one. Sidechain files
/// hold a sub-agent's own transcript without the parent's tool use id, so
/// their entries become main-thread frames.
fn from_transcript(entry: &Map<String, Value>) -> Option<Value> {
    let ty = entry.get("type")?.as_str()?;
    if ty != "user" && ty != "assistant" {
        return None;
    }
    let mut frame = Map::new();
    frame.insert("type".to_owned(), Value::from(ty));
    frame.insert("message".to_owned(), entry.get("message")?.clone());
    frame.insert("parent_tool_use_id".to_owned(), Value::Null);
    for (from, to) in [("uuid", "uuid"), ("sessionId", "session_id"), ("timestamp", "timestamp")] {
        if let Some(value) = entry.get(from) {
            frame.insert(to.to_owned(), value.clone());
        }
    }
    if ty == "user" {
        let flag = |key: &str| entry.get(key) == Some(&Value::Bool(true));
        if flag("isMeta") || flag("isVisibleInTranscriptOnly") {
            frame.insert("isSynthetic".to_owned(), Value::Bool(true));
        }
        if let Some(result) = entry.get("toolUseResult") {
            frame.insert("tool_use_result".to_owned(), result.clone());
        }
    }
    Some(Value::Object(frame))
}

fn json_kind(value: &Value) -> &'static str {
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
    fn stream_frames_pass_through_and_transcripts_convert() {
        let text = concat!(
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n",
            "{\"type\":\"user\",\"isMeta\":true,\"sessionId\":\"s\",\"uuid\":\"u\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n",
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
        );
        let import = import_capture(text).expect("imports");
        let messages = import.inputs[0]["messages"].as_array().expect("messages");
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[1]["isSynthetic"], Value::Bool(true));
        assert_eq!(messages[1]["session_id"], Value::from("s"));
        assert_eq!(import.skipped, vec![Skipped { line: 3, kind: "progress".to_owned() }]);
    }

    #[test]
    fn bad_lines_are_typed_errors_with_line_numbers() {
        assert!(matches!(import("{}\n[1]\n"), Err(ImportError::NotAnObject { line: 2, found: "an array" })));
        assert!(matches!(import("{}\n{\"a\":\n"), Err(ImportError::Json { line: 2, .. })));
        assert!(matches!(
            import("{\"type\":\"progress\",\"sessionId\":\"s\"}"),
            Err(ImportError::Empty { skipped: 1 })
        ));
    }
}
