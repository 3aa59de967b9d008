//! The `codex-app-server-jsonl` capture format: the verbatim stdout of
//! `codex app-server`, one JSON-RPC message per line, with the client's
//! lines in a `.client.jsonl` companion. Each capture is one input.
//!
//! An app-server connection is one long session with persistent threads, so
//! the whole capture is one input. From the client's lines only the answers
//! to server requests matter (they carry the approval decision); each is
//! placed, as `{"client": line}`, right after the server request it answers.
//! The client's own requests are left out.

use crate::json::to_compact_string;
use crate::suite::capture::lines::{ImportError, parse_capture_lines, parse_companion_lines};
use crate::suite::capture::per_file::{self, FileImport, Stream};
use crate::suite::capture::{ImportFailure, Imported, SourceFile};
use serde_json::{Map, Value};

/// Imports an app-server stdout capture together with the client's lines,
/// if any, as one `codex-app-server-events` input `{frames}`.
pub fn import_app_server(text: &str, client: Option<&str>) -> Result<Vec<Value>, ImportError> {
    let lines = parse_capture_lines(text)?;
    let mut answers: Vec<Value> = client
        .map(parse_companion_lines)
        .transpose()?
        .unwrap_or_default()
        .into_iter()
        .filter(|value| !value.as_object().is_some_and(|o| o.contains_key("method")) && value.get("id").is_some())
        .collect();

    let mut frames = Vec::with_capacity(lines.len() + answers.len());
    for line in lines {
        let frame = line.value;
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
    let mut input = Map::new();
    input.insert("frames".to_owned(), Value::Array(frames));
    Ok(vec![Value::Object(input)])
}

/// `--from codex-app-server-jsonl`: one case per capture file, with its
/// `.client.jsonl` companion.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    let stream = Stream {
        import: |text, client| import_app_server(text, client).map(FileImport::from),
        companion: Some(".client.jsonl"),
        list: "frames",
        noun: "frames",
    };
    per_file::import(files, &stream)
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
    }
}
