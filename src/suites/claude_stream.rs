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
//! * [`import_events`]: one `claude-events` input per SDK `query()` run (a
//!   session transcript is one input, see below). A
//!   `system/init` that follows a `result` frame starts the next input
//!   (that is how stream-json input mode runs several turns in one process;
//!   a background sub-agent's second init before the first result stays in
//!   the same run). The adapter session id is not in the capture, so every
//!   input uses [`IMPORTED_SESSION_ID`]; `end` is `"completed"` because
//!   stream-json shows no generator exception, except for a cut-off run
//!   (below).
//! * [`import_display`]: one `claude-display` input `{messages}` per
//!   capture, control frames included (the display model gives each its
//!   disposition).
//!
//! Both read Claude session transcripts (`~/.claude/projects/…/<session>.jsonl`)
//! the same way: `user` and `assistant` entries become the SDK frames the
//! SDK would have yielded for them (`isMeta`/`isVisibleInTranscriptOnly`
//! become `isSynthetic`, `toolUseResult` becomes `tool_use_result`, and a
//! sub-agent's inline entry keeps `isSidechain` and `parentUuid`, which
//! `claude-display` uses to nest it under its `Task` call); lines with no SDK
//! counterpart (`summary`, `file-history-snapshot`, `queue-operation`,
//! `progress`, `system/local_command`, …) are skipped and reported with
//! their line numbers.
//!
//! **Cut-off captures.** A capture whose last `system/init` is followed by
//! no `result` frame stopped before the runtime finished its turn, and a
//! capture whose last line was cut mid-write (a recording killed while
//! writing) loses that line, named in a notice: either way the input (the
//! last run's, for `claude-events`) says `end: "cut-off"` (see the
//! agent-runtime README, "Cut-off streams"). A session transcript holds no
//! `system/init` or `result` frames, so only a cut last line cuts it off.
//!
//! **Sniffing.** [`sniff_stream`] and [`sniff_stream_or_transcript`] tell
//! from the first lines whether a file is what the suite reads: a Claude
//! frame (a kind the display model routes, or any `type` with a
//! `session_id`) or a transcript entry. Both suites take both.
//!
//! **Transcripts for `claude-events`.** A transcript has neither the
//! `system/init` nor the `result` that open and close a `query()` run: its
//! input says `source: "transcript"` (the first entry starts the session,
//! the user prompts are user events) and `end: "cut-off"` (no `done` that no
//! runtime sent).

use crate::suite_api::capture::lines::{
    CaptureLine, CutLine, ImportError, SkippedHeader, parse_capture_lines, parse_capture_lines_cut_tail,
    parse_companion_lines, skip_leading_foreign,
};
use crate::suite_api::capture::sniff::{Sniff, by_first_telling_line};
use crate::suites::claude_display::reference::kinds::{kind_of, route};
use serde_json::{Map, Value};

/// The `sessionId` given to imported `claude-events` inputs.
pub const IMPORTED_SESSION_ID: &str = "session-1";

/// What an importer made of one capture.
#[derive(Clone, Debug)]
pub struct ClaudeImport {
    /// The case inputs.
    pub inputs: Vec<Value>,
    /// Transcript lines that were left out, for the fixture's provenance.
    pub skipped: Vec<SkippedLine>,
    /// The last line, when it was cut mid-write (and left out).
    pub cut: Option<CutLine>,
    /// Leading lines of no Claude kind (another tool's header), left out.
    pub header: SkippedHeader,
}

impl ClaudeImport {
    /// What the user is told about the capture: the transcript lines left
    /// out (by kind) and the line cut mid-write.
    pub fn note(&self) -> Option<String> {
        let mut notes: Vec<String> = self.header.notice("Claude frame or transcript entry").into_iter().collect();
        if !self.skipped.is_empty() {
            let mut kinds: Vec<(&str, usize)> = Vec::new();
            for line in &self.skipped {
                match kinds.iter_mut().find(|(kind, _)| *kind == line.kind) {
                    Some((_, count)) => *count += 1,
                    None => kinds.push((&line.kind, 1)),
                }
            }
            let kinds: Vec<String> = kinds.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
            notes.push(format!(
                "{} transcript lines without an SDK counterpart skipped ({})",
                self.skipped.len(),
                kinds.join(", ")
            ));
        }
        notes.extend(self.cut.as_ref().map(CutLine::notice));
        (!notes.is_empty()).then(|| notes.join("; "))
    }
}

/// A transcript line that has no SDK counterpart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based line number.
    pub line: usize,
    /// Its `type` (and `/subtype`).
    pub kind: String,
}

/// A capture read into SDK frames.
struct Frames {
    frames: Vec<Value>,
    header: SkippedHeader,
    /// Some line was a session-transcript entry.
    transcript: bool,
    skipped: Vec<SkippedLine>,
    cut: Option<CutLine>,
}

/// Reads a capture: stream-json frames as they are, transcript entries as
/// the SDK frames they stand for, transcript-only lines skipped. A last line
/// that is not JSON was cut mid-write: it is left out and named.
fn read_frames(text: &str) -> Result<Frames, ImportError> {
    let (lines, cut) = parse_capture_lines_cut_tail(text)?;
    if lines.is_empty() {
        // Nothing but the cut line: the parse error says what is wrong.
        parse_capture_lines(text)?;
    }
    let (lines, header) = skip_leading_foreign(lines, |value| is_claude_frame(value) || is_transcript_entry(value));
    let mut frames = Vec::new();
    let mut skipped = Vec::new();
    let mut transcript = false;
    for CaptureLine { line, value: entry } in lines {
        if !is_transcript_entry(&entry) {
            frames.push(entry);
            continue;
        }
        transcript = true;
        match from_transcript(&entry) {
            Some(frame) => frames.push(frame),
            None => skipped.push(SkippedLine { line, kind: kind_of(&entry) }),
        }
    }
    if frames.is_empty() {
        return Err(ImportError::NoFrames { skipped: skipped.len() });
    }
    Ok(Frames { frames, header, transcript, skipped, cut })
}

/// Whether the stream stops before the runtime finished: its last
/// `system/init` is followed by no `result` frame.
fn ends_before_result(frames: &[Value]) -> bool {
    let is = |frame: &Value, ty: &str| frame.get("type").and_then(Value::as_str) == Some(ty);
    let last_init = frames
        .iter()
        .rposition(|frame| is(frame, "system") && frame.get("subtype").and_then(Value::as_str) == Some("init"));
    last_init.is_some_and(|init| !frames.iter().skip(init).any(|frame| is(frame, "result")))
}

/// Imports a stream-json capture, with its stdin companion when there is
/// one, as `claude-events` inputs. See the module docs.
pub fn import_events(text: &str, stdin: Option<&str>) -> Result<ClaudeImport, ImportError> {
    let Frames { frames, header, transcript, skipped, cut } = read_frames(text)?;
    if transcript {
        return Ok(ClaudeImport { inputs: vec![transcript_input(frames)], skipped, cut, header });
    }
    let mut client = ClientLines::read(stdin, false)?;
    let mut runs: Vec<Vec<Value>> = vec![Vec::new()];
    let mut seen_result = false;
    for frame in frames {
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
    runs.retain(|run| !run.is_empty());
    let last = runs.len().saturating_sub(1);
    let inputs = runs
        .into_iter()
        .enumerate()
        .map(|(index, run)| {
            let cut_off = index == last && (cut.is_some() || ends_before_result(&run));
            events_input(run, cut_off)
        })
        .collect();
    Ok(ClaudeImport { inputs, skipped, cut, header })
}

/// A session transcript as one `claude-events` input: `source:
/// "transcript"` (its first entry starts the session, its prompts are user
/// events) and `end: "cut-off"`, because a transcript never holds the
/// `result` that ends a run: nothing says the agent finished.
fn transcript_input(messages: Vec<Value>) -> Value {
    let mut input = events_input(messages, true);
    if let Some(object) = input.as_object_mut() {
        object.insert("source".to_owned(), Value::from("transcript"));
    }
    input
}

fn events_input(messages: Vec<Value>, cut_off: bool) -> Value {
    let mut object = Map::new();
    object.insert("sessionId".to_owned(), Value::from(IMPORTED_SESSION_ID));
    object.insert("messages".to_owned(), Value::Array(messages));
    object.insert("end".to_owned(), Value::from(if cut_off { "cut-off" } else { "completed" }));
    Value::Object(object)
}

/// Imports a stream-json capture (with its stdin companion when there is
/// one) or a session transcript as `claude-display` inputs. See the module
/// docs.
pub fn import_display(text: &str, stdin: Option<&str>) -> Result<ClaudeImport, ImportError> {
    let Frames { frames, header, skipped, cut, .. } = read_frames(text)?;
    let mut client = ClientLines::read(stdin, true)?;
    let mut messages = Vec::new();
    for frame in frames {
        let follow = client.following(&frame);
        messages.push(frame);
        messages.extend(follow);
    }
    let cut_off = cut.is_some() || ends_before_result(&messages);
    messages.splice(0..0, std::mem::take(&mut client.users));
    let mut input = Map::new();
    input.insert("messages".to_owned(), Value::from(messages));
    if cut_off {
        input.insert("end".to_owned(), Value::from("cut-off"));
    }
    Ok(ClaudeImport { inputs: vec![Value::Object(input)], skipped, cut, header })
}

/// Sniffs a `claude-events` capture: the stdout of `claude -p
/// --output-format stream-json`, or a session transcript (read as one, see
/// [`import_events`]). A file whose first telling line is no Claude frame
/// is refused.
pub fn sniff_stream(text: &str) -> Sniff {
    sniff_stream_or_transcript(text)
}

/// Sniffs a `claude-display` capture: stream-json stdout or a session
/// transcript.
pub fn sniff_stream_or_transcript(text: &str) -> Sniff {
    by_first_telling_line(text, |value| is_claude_frame(value) || is_transcript_entry(value), not_claude)
}

/// Whether a line is a frame the Claude CLI prints: a kind the display
/// model routes (`system/init`, `assistant`, `control_request/…`), or any
/// string `type` with a `session_id` (a kind newer than the reference).
fn is_claude_frame(value: &Value) -> bool {
    let typed = value.get("type").and_then(Value::as_str).is_some();
    let session = value.get("session_id").and_then(Value::as_str).is_some();
    value.get("method").is_none() && typed && (session || route(&kind_of(value)).is_some())
}

/// What a line that is no Claude frame is, for the mismatch message.
fn not_claude(value: &Value) -> Option<String> {
    value.is_object().then(|| "not a Claude stream-json frame or session-transcript entry".to_owned())
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

/// Lines only a session transcript holds: the session title (`summary`),
/// file-history snapshots, the prompt queue and tool progress.
const TRANSCRIPT_ONLY: [&str; 4] = ["summary", "file-history-snapshot", "queue-operation", "progress"];

/// Transcript entries use camelCase envelope keys the SDK frames do not, and
/// some transcript-only lines carry none of them (a `summary` line has only
/// `summary` and `leafUuid`).
fn is_transcript_entry(entry: &Value) -> bool {
    let ty = entry.get("type").and_then(Value::as_str).unwrap_or_default();
    TRANSCRIPT_ONLY.contains(&ty)
        || ["parentUuid", "isSidechain", "sessionId"].iter().any(|key| entry.get(key).is_some())
}

/// The SDK frame for a transcript entry, if it has one. A sub-agent's entry
/// written inline (`isSidechain: true`) keeps `isSidechain` and `parentUuid`
/// so that `claude-display` can nest it under its `Task` call; a sidechain
/// file (a sub-agent's own transcript) has no such call and stays the main
/// thread.
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
    if entry.get("isSidechain") == Some(&Value::Bool(true)) {
        frame.insert("isSidechain".to_owned(), Value::Bool(true));
        frame.insert("parentUuid".to_owned(), entry.get("parentUuid").cloned().unwrap_or(Value::Null));
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
        let inputs = import_events(stdout, Some(stdin)).unwrap().inputs;
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
        let events = import_events(stdout, Some(stdin)).expect("imports").inputs;
        assert_eq!(
            frame_labels(&events[0]["messages"]),
            ["command_lifecycle:", "command_lifecycle:", "control_request:", "control_response:", "result:"]
        );
        assert!(matches!(import_display(stdout, Some("[]")), Err(ImportError::Client(_))));
    }

    #[test]
    fn a_run_without_a_result_after_its_init_is_cut_off() {
        let stdout = concat!(
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"p\"}\n",
            "{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"a\"}\n",
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"p\"}\n",
            "{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n",
        );
        let events = import_events(stdout, None).expect("imports").inputs;
        assert_eq!([&events[0]["end"], &events[1]["end"]], ["completed", "cut-off"]);
        let display = import_display(stdout, None).expect("imports");
        assert_eq!(display.inputs[0]["end"], "cut-off");
        assert_eq!(display.note(), None);
        let one_run = concat!("{\"type\":\"system\",\"subtype\":\"init\"}\n", "{\"type\":\"result\"}\n");
        assert_eq!(import_display(one_run, None).expect("imports").inputs[0].get("end"), None);
    }

    #[test]
    fn a_last_line_cut_mid_write_is_left_out_and_named() {
        let text = "{\"type\":\"system\",\"subtype\":\"init\"}\n{\"type\":\"result\"}\n{\"type\":\"assi\n\n";
        let display = import_display(text, None).expect("imports");
        assert_eq!(display.cut.as_ref().map(|cut| cut.line), Some(3));
        assert_eq!(display.inputs[0]["messages"].as_array().map(Vec::len), Some(2));
        assert_eq!(display.inputs[0]["end"], "cut-off");
        let note = display.note().unwrap_or_default();
        assert!(note.starts_with("line 3 was cut mid-write ("), "{note}");
        assert!(note.ends_with("); it is dropped and the case ends cut off"), "{note}");
        let events = import_events(text, None).expect("imports");
        assert_eq!(events.inputs[0]["end"], "cut-off");
        // Only the last line may be cut: a broken line before others is an error.
        assert!(matches!(import_display("{\"a\":\n{}\n", None), Err(ImportError::Json { line: 1, .. })));
        assert!(matches!(import_display("{\"a\":", None), Err(ImportError::Json { line: 1, .. })));
    }

    #[test]
    fn transcript_only_lines_are_skipped_by_both_importers() {
        let text = concat!(
            "{\"type\":\"summary\",\"summary\":\"A title\",\"leafUuid\":\"u2\"}\n",
            "{\"type\":\"file-history-snapshot\",\"messageId\":\"m\",\"snapshot\":{}}\n",
            "{\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"sessionId\":\"s\"}\n",
            "{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u1\",\"parentUuid\":null,\"isSidechain\":true,\"message\":{\"role\":\"user\",\"content\":\"go\"}}\n",
        );
        for import in [import_display(text, None).expect("imports"), import_events(text, None).expect("imports")] {
            let kinds: Vec<&str> = import.skipped.iter().map(|line| line.kind.as_str()).collect();
            assert_eq!(kinds, ["summary", "file-history-snapshot", "queue-operation"]);
            let messages = import.inputs[0]["messages"].as_array().expect("messages");
            assert_eq!(messages.len(), 1);
            assert_eq!(messages[0]["isSidechain"], Value::Bool(true));
            assert_eq!(messages[0]["parentUuid"], Value::Null);
            assert_eq!(
                import.note().as_deref(),
                Some(
                    "3 transcript lines without an SDK counterpart skipped (1 summary, 1 file-history-snapshot, 1 queue-operation)"
                )
            );
        }
    }

    #[test]
    fn bad_lines_are_typed_errors_with_line_numbers() {
        assert!(matches!(
            import_display("{}\n[1]\n", None),
            Err(ImportError::NotAnObject { line: 2, found: "an array" })
        ));
        assert!(matches!(import_display("{}\n{\"a\":\n[]\n", None), Err(ImportError::Json { line: 2, .. })));
        assert!(matches!(
            import_display("{\"type\":\"progress\",\"sessionId\":\"s\"}", None),
            Err(ImportError::NoFrames { skipped: 1 })
        ));
        assert!(matches!(import_display("\n", None), Err(ImportError::Empty)));
    }
}
