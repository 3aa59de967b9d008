//! The `codex-app-server-jsonl` capture format: the verbatim stdout of
//! `codex app-server`, one JSON-RPC message per line, with the client's
//! lines in a `.client.jsonl` companion. Each capture is one input.
//!
//! An app-server connection is one long session with persistent threads, so
//! the whole capture is one input. From the client's lines only the answers
//! to server requests matter (they carry the approval decision); each is
//! placed, as `{"client": line}`, right after the server request it answers.
//! The client's own requests are left out.
//!
//! A capture that stops before the runtime finished gets `end: "cut-off"`:
//! when a `turn/started` has no `turn/completed` (matched by thread and turn
//! id), or when its last line was cut mid-write (that line is dropped and
//! named in a notice).
//!
//! [`sniff`] knows the file by its JSON-RPC shape: a `method`, or an `id`
//! with a `result` or an `error`, and no `type`.

use crate::json::to_compact_string;
use crate::suite_api::capture::lines::{
    ImportError, parse_capture_lines_cut_tail, parse_companion_lines, skip_leading_foreign,
};
use crate::suite_api::capture::per_file::{self, FileImport, Stream};
use crate::suite_api::capture::sniff::{Sniff, by_first_telling_line};
use crate::suite_api::capture::{ImportFailure, Imported, NamesFn, Opened, SourceFile};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Imports an app-server stdout capture together with the client's lines,
/// if any, as one `codex-app-server-events` input `{frames, end?}`.
pub fn import_app_server(text: &str, client: Option<&str>) -> Result<Vec<Value>, ImportError> {
    import_app_server_file(text, client).map(|file| file.inputs)
}

/// [`import_app_server`] with the notices of a cut-off capture.
fn import_app_server_file(text: &str, client: Option<&str>) -> Result<FileImport, ImportError> {
    let (lines, cut) = parse_capture_lines_cut_tail(text)?;
    let (lines, header) = skip_leading_foreign(lines, is_json_rpc);
    let mut answers: Vec<Value> = client
        .map(parse_companion_lines)
        .transpose()?
        .unwrap_or_default()
        .into_iter()
        .filter(|value| !value.as_object().is_some_and(|o| o.contains_key("method")) && value.get("id").is_some())
        .collect();

    let mut open_turns = BTreeSet::new();
    let mut frames = Vec::with_capacity(lines.len() + answers.len());
    for line in lines {
        let frame = line.value;
        track_turn(&frame, &mut open_turns);
        let request_id = frame.get("method").and(frame.get("id")).filter(|id| !id.is_null()).map(to_compact_string);
        frames.push(frame);
        let answer = request_id.and_then(|request_id| {
            let position = answers
                .iter()
                .position(|answer| answer.get("id").map(to_compact_string).as_ref() == Some(&request_id))?;
            Some(answers.remove(position))
        });
        if let Some(answer) = answer {
            let mut wrapped = Map::new();
            wrapped.insert("client".to_owned(), answer);
            frames.push(Value::Object(wrapped));
        }
    }
    let mut notes: Vec<String> = header.notice("JSON-RPC").into_iter().collect();
    notes.extend(cut.iter().map(|cut| cut.notice()));
    if !open_turns.is_empty() {
        notes.push(format!(
            "{} turn/started without its turn/completed: the case ends cut off",
            match open_turns.len() {
                1 => "a".to_owned(),
                n => n.to_string(),
            }
        ));
    }
    let mut input = Map::new();
    input.insert("frames".to_owned(), Value::Array(frames));
    if cut.is_some() || !open_turns.is_empty() {
        input.insert("end".to_owned(), Value::from("cut-off"));
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(FileImport { inputs: vec![Value::Object(input)], note })
}

/// Keeps the set of turns started and not yet completed, keyed by thread and
/// turn id (compact JSON; a missing id is `null`).
fn track_turn(frame: &Value, open: &mut BTreeSet<(String, String)>) {
    let method = frame.get("method").and_then(Value::as_str);
    let params = frame.get("params");
    let key = || {
        let id = |value: Option<&Value>| to_compact_string(value.unwrap_or(&Value::Null));
        let params = params.unwrap_or(&Value::Null);
        (id(params.get("threadId")), id(params.get("turn").and_then(|turn| turn.get("id"))))
    };
    match method {
        Some("turn/started") => {
            open.insert(key());
        }
        Some("turn/completed") => {
            open.remove(&key());
        }
        _ => {}
    }
}

/// Sniffs a `codex app-server` capture (or its `.client.jsonl` companion):
/// its first telling line is a JSON-RPC message; any other JSON object first
/// is another kind of file.
pub fn sniff(text: &str) -> Sniff {
    by_first_telling_line(text, is_json_rpc, |value| {
        value
            .is_object()
            .then(|| "not a JSON-RPC message (no `method`, nor an `id` with `result` or `error`)".to_owned())
    })
}

fn is_json_rpc(value: &Value) -> bool {
    let Some(object) = value.as_object() else { return false };
    let request = object.get("method").is_some_and(Value::is_string);
    let response = object.contains_key("id") && (object.contains_key("result") || object.contains_key("error"));
    !object.contains_key("type") && (request || response)
}

/// `--from codex-app-server-jsonl`: one case per capture file, with its
/// `.client.jsonl` companion.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    per_file::import(files, &STREAM)
}

/// How the files are read.
const STREAM: Stream =
    Stream { import: import_app_server_file, companion: Some(".client.jsonl"), list: "frames", noun: "frames" };

/// Opens the captures file by file (see [`per_file::open`]).
pub fn open(paths: &[PathBuf], names_in: NamesFn<'_>) -> Result<Opened, ImportFailure> {
    per_file::open(paths, &STREAM, names_in)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_follow_the_request_they_answer() {
        let server = concat!(
            "{\"id\":0,\"result\":{}}\n",
            "{\"method\":\"item/commandExecution/requestApproval\",\"id\":0,\"params\":{}}\n",
            "{\"method\":\"serverRequest/resolved\",\"params\":{\"requestId\":0}}\n",
        );
        let client = "{\"method\":\"initialize\",\"id\":0}\n{\"id\":0,\"result\":{\"decision\":\"accept\"}}\n";
        let inputs = import_app_server(server, Some(client)).unwrap();
        let frames = inputs[0]["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[2]["client"]["result"]["decision"], "accept");
        assert_eq!(frames[3]["method"], "serverRequest/resolved");
        assert_eq!(inputs[0].get("end"), None);
    }

    #[test]
    fn the_first_line_tells_an_app_server_log() {
        assert_eq!(sniff("{\"id\":1,\"result\":{}}\n"), Sniff::Matches);
        assert_eq!(sniff("{\"method\":\"initialized\"}\n"), Sniff::Matches);
        let exec = sniff("{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n");
        assert!(matches!(&exec, Sniff::Mismatch(why) if why.contains("is not a JSON-RPC message")), "{exec:?}");
    }

    #[test]
    fn a_turn_without_its_completion_or_a_cut_line_ends_cut_off() {
        let started = "{\"method\":\"turn/started\",\"params\":{\"threadId\":\"t\",\"turn\":{\"id\":\"u1\"}}}\n";
        let completed = "{\"method\":\"turn/completed\",\"params\":{\"threadId\":\"t\",\"turn\":{\"id\":\"u1\"}}}\n";
        let whole = import_app_server_file(&format!("{started}{completed}"), None).unwrap();
        assert_eq!((whole.inputs[0].get("end"), whole.note), (None, None));
        let open = import_app_server_file(started, None).unwrap();
        assert_eq!(open.inputs[0]["end"], "cut-off");
        assert_eq!(open.note.as_deref(), Some("a turn/started without its turn/completed: the case ends cut off"));
        let cut = import_app_server_file(&format!("{started}{completed}{{\"method\":\"item/sta"), None).unwrap();
        assert_eq!(cut.inputs[0]["end"], "cut-off");
        assert_eq!(cut.inputs[0]["frames"].as_array().map(Vec::len), Some(2));
    }
}
