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
//! A stream-json capture of a `--input-format stream-json` run can come
//! with the client's stdin lines (the `.stdin.jsonl` companion): what the
//! user typed and how the client answered permission prompts, which a UI
//! shows but stdout does not carry. Each client `user` line is placed right
//! after the `command_lifecycle` frame that reports it `started` (matched by
//! `command_uuid`; lines never reported go first, in order), each client
//! `control_response` right after the `can_use_tool` prompt it answers;
//! client control requests (initialize, interrupt) are not frames a display
//! sees and are left out.
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
    /// A line of the client's stdin companion is broken.
    #[error("client lines: {0}")]
    Client(Box<ImportError>),
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
    import_with_client(text, None)
}

/// Imports a capture together with the client's stdin lines, if any (see
/// the module docs for where they are placed).
pub fn import_with_client(text: &str, client: Option<&str>) -> Result<Import, ImportError> {
    let mut client = match client {
        Some(client) => ClientLines::parse(client).map_err(|err| ImportError::Client(Box::new(err)))?,
        None => ClientLines::default(),
    };
    let mut messages = Vec::new();
    let mut skipped = Vec::new();
    for (line, entry) in objects(text)? {
        if is_transcript_entry(&entry) {
            match from_transcript(&entry) {
                Some(frame) => messages.push(frame),
                None => skipped.push(Skipped { line, kind: super::kinds::kind_of(&Value::Object(entry)) }),
            }
            continue;
        }
        let frame = Value::Object(entry);
        let follow = client.following(&frame);
        messages.push(frame);
        messages.extend(follow);
    }
    if messages.is_empty() {
        return Err(ImportError::Empty { skipped: skipped.len() });
    }
    let unplaced = std::mem::take(&mut client.users);
    messages.splice(0..0, unplaced);
    let mut input = Map::new();
    input.insert("messages".to_owned(), Value::from(messages));
    Ok(Import { inputs: vec![Value::Object(input)], skipped })
}

/// A JSON object and the 1-based line it was on.
type NumberedObject = (usize, Map<String, Value>);

/// The JSON objects of a JSON Lines text, with their line numbers.
fn objects(text: &str) -> Result<Vec<NumberedObject>, ImportError> {
    parse_json_lines(text)
        .into_iter()
        .map(|parsed| {
            let line = parsed.line;
            match parsed.value.map_err(|source| ImportError::Json { line, source })? {
                Value::Object(entry) => Ok((line, entry)),
                other => Err(ImportError::NotAnObject { line, found: json_kind(&other) }),
            }
        })
        .collect()
}

/// The client's stdin lines still waiting for their place in the stream.
#[derive(Default)]
struct ClientLines {
    users: Vec<Value>,
    answers: Vec<Value>,
}

impl ClientLines {
    fn parse(text: &str) -> Result<Self, ImportError> {
        let mut lines = ClientLines::default();
        for (_, entry) in objects(text)? {
            match entry.get("type").and_then(Value::as_str) {
                Some("user") => lines.users.push(Value::Object(entry)),
                Some("control_response") => lines.answers.push(Value::Object(entry)),
                _ => {}
            }
        }
        Ok(lines)
    }

    /// The client lines that belong right after `frame`.
    fn following(&mut self, frame: &Value) -> Vec<Value> {
        let str_at = |pointer: &str| frame.pointer(pointer).and_then(Value::as_str);
        match str_at("/type") {
            Some("command_lifecycle") if str_at("/state") == Some("started") => {
                let uuid = str_at("/command_uuid");
                take_where(&mut self.users, |user| uuid.is_some() && user.get("uuid").and_then(Value::as_str) == uuid)
            }
            Some("control_request") if str_at("/request/subtype") == Some("can_use_tool") => {
                let id = str_at("/request_id");
                take_where(&mut self.answers, |answer| {
                    id.is_some() && answer.pointer("/response/request_id").and_then(Value::as_str) == id
                })
            }
            _ => Vec::new(),
        }
    }
}

fn take_where(values: &mut Vec<Value>, wanted: impl Fn(&Value) -> bool) -> Vec<Value> {
    let (taken, kept) = std::mem::take(values).into_iter().partition(|value| wanted(value));
    *values = kept;
    taken
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
    fn client_lines_join_the_stream_where_they_happened() {
        let stdout = concat!(
            "{\"type\":\"command_lifecycle\",\"command_uuid\":\"c1\",\"state\":\"queued\"}\n",
            "{\"type\":\"command_lifecycle\",\"command_uuid\":\"c1\",\"state\":\"started\"}\n",
            "{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":{\"subtype\":\"can_use_tool\"}}\n",
            "{\"type\":\"result\",\"subtype\":\"success\"}\n",
        );
        let stdin = concat!(
            "{\"type\":\"control_request\",\"request_id\":\"init\",\"request\":{\"subtype\":\"initialize\"}}\n",
            "{\"type\":\"user\",\"uuid\":\"c0\",\"message\":{\"role\":\"user\",\"content\":\"never started\"}}\n",
            "{\"type\":\"user\",\"uuid\":\"c1\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n",
            "{\"type\":\"control_response\",\"response\":{\"request_id\":\"r1\",\"response\":{\"behavior\":\"allow\"}}}\n",
        );
        let import = import_with_client(stdout, Some(stdin)).expect("imports");
        let kinds: Vec<String> = import.inputs[0]["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| format!("{}:{}", m["type"].as_str().unwrap_or_default(), m["uuid"].as_str().unwrap_or_default()))
            .collect();
        assert_eq!(
            kinds,
            [
                "user:c0",
                "command_lifecycle:",
                "command_lifecycle:",
                "user:c1",
                "control_request:",
                "control_response:",
                "result:"
            ]
        );
        assert!(matches!(import_with_client(stdout, Some("[]")), Err(ImportError::Client(_))));
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
