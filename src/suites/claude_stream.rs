//! The `claude-stream-json` capture format: the stdout of
//! `claude -p --output-format stream-json --verbose`, one SDK frame per
//! line, read for the `claude-events` and the `claude-display` suites.
//!
//! A capture of a `--input-format stream-json` run can come with the
//! client's stdin lines (the `.stdin.jsonl` companion): how the client
//! answered permission prompts and what the user typed, which stdout does
//! not carry. Each client `control_response` is placed right after the
//! `can_use_tool` prompt it answers (matched by request id). For
//! `claude-display`, each typed `user` line is also placed right after the
//! `command_lifecycle` frame that reports it `started` (matched by
//! `command_uuid`; lines never reported go first, in order), because a UI
//! shows what the user typed; normalized events do not, so `claude-events`
//! leaves them out. Client control requests (initialize, interrupt) are
//! frames neither suite sees and are always left out.
//!
//! * [`import_events`]: one `claude-events` input per SDK `query()` run. A
//!   `system/init` that follows a `result` frame starts the next input
//!   (that is how stream-json input mode runs several turns in one process;
//!   a background sub-agent's second init before the first result stays in
//!   the same run). The adapter session id is not in the capture, so every
//!   input uses [`IMPORTED_SESSION_ID`]; `end` is `"completed"` because
//!   stream-json shows no generator exception.
//! * [`import_display`]: one `claude-display` input `{messages}` per
//!   capture, control frames included (the display model gives each its
//!   disposition). It also reads Claude session transcripts
//!   (`~/.claude/projects/…/<session>.jsonl`): `user` and `assistant`
//!   entries become the SDK frames the SDK would have yielded for them
//!   (`isMeta`/`isVisibleInTranscriptOnly` become `isSynthetic`,
//!   `toolUseResult` becomes `tool_use_result`); entries with no SDK
//!   counterpart (progress, file-history snapshots, queue operations,
//!   `system/local_command`, …) are skipped and reported.

use crate::suite::capture::lines::{CaptureLine, ImportError, parse_capture_lines, parse_companion_lines};
use crate::suites::claude_display::reference::kinds::kind_of;
use serde_json::{Map, Value};

/// The `sessionId` given to imported `claude-events` inputs.
pub const IMPORTED_SESSION_ID: &str = "session-1";

/// Imports a stream-json capture, with its stdin companion when there is
/// one, as `claude-events` inputs. See the module docs.
pub fn import_events(text: &str, stdin: Option<&str>) -> Result<Vec<Value>, ImportError> {
    let lines = parse_capture_lines(text)?;
    let mut client = ClientLines::read(stdin, false)?;
    let mut runs: Vec<Vec<Value>> = vec![Vec::new()];
    let mut seen_result = false;
    for CaptureLine { value: frame, .. } in lines {
        let frame_type = frame.get("type").and_then(Value::as_str);
        let is_init = frame_type == Some("system") && frame.get("subtype").and_then(Value::as_str) == Some("init");
        if is_init && seen_result {
            runs.push(Vec::new());
            seen_result = false;
        }
        seen_result |= frame_type == Some("result");
        let follow = client.following(&frame);
        if let Some(run) = runs.last_mut() {
            run.push(frame);
            run.extend(follow);
        }
    }
    Ok(runs.into_iter().filter(|run| !run.is_empty()).map(events_input).collect())
}

fn events_input(messages: Vec<Value>) -> Value {
    let mut object = Map::new();
    object.insert("sessionId".to_owned(), Value::from(IMPORTED_SESSION_ID));
    object.insert("messages".to_owned(), Value::Array(messages));
    object.insert("end".to_owned(), Value::from("completed"));
    Value::Object(object)
}

/// A transcript line that has no SDK counterpart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based line number.
    pub line: usize,
    /// Its `type` (and `/subtype`).
    pub kind: String,
}

/// What [`import_display`] made of one capture.
#[derive(Clone, Debug)]
pub struct DisplayImport {
    /// The inputs (one per capture).
    pub inputs: Vec<Value>,
    /// Transcript lines that were left out, for the fixture's provenance.
    pub skipped: Vec<SkippedLine>,
}

/// Imports a stream-json capture (with its stdin companion when there is
/// one) or a session transcript as `claude-display` inputs. See the module
/// docs.
pub fn import_display(text: &str, stdin: Option<&str>) -> Result<DisplayImport, ImportError> {
    let lines = parse_capture_lines(text)?;
    let mut client = ClientLines::read(stdin, true)?;
    let mut messages = Vec::new();
    let mut skipped = Vec::new();
    for CaptureLine { line, value: entry } in lines {
        if is_transcript_entry(&entry) {
            match from_transcript(&entry) {
                Some(frame) => messages.push(frame),
                None => skipped.push(SkippedLine { line, kind: kind_of(&entry) }),
            }
            continue;
        }
        let follow = client.following(&entry);
        messages.push(entry);
        messages.extend(follow);
    }
    if messages.is_empty() {
        return Err(ImportError::NoFrames { skipped: skipped.len() });
    }
    messages.splice(0..0, std::mem::take(&mut client.users));
    let mut input = Map::new();
    input.insert("messages".to_owned(), Value::from(messages));
    Ok(DisplayImport { inputs: vec![Value::Object(input)], skipped })
}

/// The client's stdin lines still waiting for their place in the stream.
#[derive(Default)]
struct ClientLines {
    users: Vec<Value>,
    answers: Vec<Value>,
}

impl ClientLines {
    /// Reads the companion, if any; typed `user` lines are kept only when
    /// `with_users`.
    fn read(stdin: Option<&str>, with_users: bool) -> Result<Self, ImportError> {
        let mut lines = ClientLines::default();
        for entry in stdin.map(parse_companion_lines).transpose()?.unwrap_or_default() {
            match entry.get("type").and_then(Value::as_str) {
                Some("user") if with_users => lines.users.push(entry),
                Some("control_response") => lines.answers.push(entry),
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
fn is_transcript_entry(entry: &Value) -> bool {
    ["parentUuid", "isSidechain", "sessionId"].iter().any(|key| entry.get(key).is_some())
}

/// The SDK frame for a transcript entry, if it has one. Sidechain files
/// hold a sub-agent's own transcript without the parent's tool use id, so
/// their entries become main-thread frames.
fn from_transcript(entry: &Value) -> Option<Value> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn frame_labels(messages: &Value) -> Vec<String> {
        let messages = messages.as_array().map(Vec::as_slice).unwrap_or_default();
        messages
            .iter()
            .map(|m| format!("{}:{}", m["type"].as_str().unwrap_or_default(), m["uuid"].as_str().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn a_result_followed_by_init_starts_the_next_run_and_answers_follow_prompts() {
        let stdout = concat!(
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"p\"}\n",
            "{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":{\"subtype\":\"can_use_tool\",\"tool_name\":\"Write\"}}\n",
            "{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"a\"}\n",
            "{\"type\":\"command_lifecycle\",\"state\":\"completed\"}\n",
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"p\"}\n",
            "{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"b\"}\n",
        );
        let stdin = "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"r1\",\"response\":{\"behavior\":\"allow\"}}}\n";
        let inputs = import_events(stdout, Some(stdin)).unwrap();
        assert_eq!(inputs.len(), 2);
        let first = inputs[0]["messages"].as_array().unwrap();
        let types: Vec<&str> = first.iter().map(|m| m["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["system", "control_request", "control_response", "result", "command_lifecycle"]);
        assert_eq!(inputs[1]["messages"].as_array().unwrap().len(), 2);
        assert_eq!(inputs[1]["end"], "completed");
        assert_eq!(inputs[1]["sessionId"], IMPORTED_SESSION_ID);
    }

    #[test]
    fn errors_in_the_client_file_say_so() {
        let err = import_events("{\"type\":\"result\"}", Some("nope")).unwrap_err();
        assert!(matches!(err, ImportError::Client(_)));
        assert!(err.to_string().starts_with("client lines: line 1"));
    }

    #[test]
    fn stream_frames_pass_through_and_transcripts_convert() {
        let text = concat!(
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n",
            "{\"type\":\"user\",\"isMeta\":true,\"sessionId\":\"s\",\"uuid\":\"u\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n",
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
        );
        let import = import_display(text, None).expect("imports");
        let messages = import.inputs[0]["messages"].as_array().expect("messages");
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[1]["isSynthetic"], Value::Bool(true));
        assert_eq!(messages[1]["session_id"], Value::from("s"));
        assert_eq!(import.skipped, vec![SkippedLine { line: 3, kind: "progress".to_owned() }]);
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
        let import = import_display(stdout, Some(stdin)).expect("imports");
        assert_eq!(
            frame_labels(&import.inputs[0]["messages"]),
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
        // The same companion gives claude-events the answer, not the typed lines.
        let events = import_events(stdout, Some(stdin)).expect("imports");
        assert_eq!(
            frame_labels(&events[0]["messages"]),
            ["command_lifecycle:", "command_lifecycle:", "control_request:", "control_response:", "result:"]
        );
        assert!(matches!(import_display(stdout, Some("[]")), Err(ImportError::Client(_))));
    }

    #[test]
    fn bad_lines_are_typed_errors_with_line_numbers() {
        assert!(matches!(
            import_display("{}\n[1]\n", None),
            Err(ImportError::NotAnObject { line: 2, found: "an array" })
        ));
        assert!(matches!(import_display("{}\n{\"a\":\n", None), Err(ImportError::Json { line: 2, .. })));
        assert!(matches!(
            import_display("{\"type\":\"progress\",\"sessionId\":\"s\"}", None),
            Err(ImportError::NoFrames { skipped: 1 })
        ));
        assert!(matches!(import_display("\n", None), Err(ImportError::Empty)));
    }
}
