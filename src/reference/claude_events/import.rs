//! Importer for the `claude-stream-json` capture format: the stdout of
//! `claude -p --output-format stream-json --verbose`, optionally with the
//! client's stdin lines (`--input-format stream-json` runs), → one or more
//! `claude-events` inputs.
//!
//! A capture is cut into one input per SDK `query()` run: a `system/init`
//! that follows a `result` frame starts the next input (that is how
//! stream-json input mode runs several turns in one process; a background
//! sub-agent's second init before the first result stays in the same run).
//! The client's answers to permission prompts (`control_response` lines of
//! the stdin file) are placed right after the prompt they answer. The
//! adapter session id is not in the capture, so every input uses
//! [`IMPORTED_SESSION_ID`]; `end` is `"completed"` because stream-json shows
//! no generator exception.

use crate::reference::agent_events::{ImportError, parse_capture_lines};
use serde_json::{Map, Value};

/// The `sessionId` given to imported inputs.
pub const IMPORTED_SESSION_ID: &str = "session-1";

/// Imports a stream-json stdout capture. See the module docs.
pub fn import(text: &str) -> Result<Vec<Value>, ImportError> {
    import_with_client(text, None)
}

/// Imports a stream-json stdout capture together with the client's stdin
/// lines (the `.stdin.jsonl` companion), whose permission answers are merged
/// in after the prompts they answer.
pub fn import_with_client(text: &str, client: Option<&str>) -> Result<Vec<Value>, ImportError> {
    let lines = parse_capture_lines(text)?;
    let answers = match client {
        Some(client) => parse_capture_lines(client).map_err(|err| ImportError::Client(Box::new(err)))?,
        None => Vec::new(),
    };
    let answers: Vec<Value> = answers
        .into_iter()
        .map(|line| line.value)
        .filter(|value| value.get("type").and_then(Value::as_str) == Some("control_response"))
        .collect();

    let mut runs: Vec<Vec<Value>> = vec![Vec::new()];
    let mut seen_result = false;
    for line in lines {
        let message = line.value;
        let message_type = message.get("type").and_then(Value::as_str);
        let is_init = message_type == Some("system") && message.get("subtype").and_then(Value::as_str) == Some("init");
        if is_init && seen_result {
            runs.push(Vec::new());
            seen_result = false;
        }
        seen_result |= message_type == Some("result");
        let answer = prompt_request_id(&message).and_then(|id| answers.iter().find(|a| answers_request(a, id)));
        let answer = answer.cloned();
        if let Some(run) = runs.last_mut() {
            run.push(message);
            run.extend(answer);
        }
    }
    Ok(runs.into_iter().filter(|run| !run.is_empty()).map(input).collect())
}

fn input(messages: Vec<Value>) -> Value {
    let mut object = Map::new();
    object.insert("sessionId".to_owned(), Value::from(IMPORTED_SESSION_ID));
    object.insert("messages".to_owned(), Value::Array(messages));
    object.insert("end".to_owned(), Value::from("completed"));
    Value::Object(object)
}

/// The request id of a `can_use_tool` control request.
fn prompt_request_id(message: &Value) -> Option<&str> {
    let is_prompt = message.get("type").and_then(Value::as_str) == Some("control_request")
        && message.get("request").and_then(|r| r.get("subtype")).and_then(Value::as_str) == Some("can_use_tool");
    if is_prompt { message.get("request_id").and_then(Value::as_str) } else { None }
}

fn answers_request(answer: &Value, request_id: &str) -> bool {
    answer.get("response").and_then(|r| r.get("request_id")).and_then(Value::as_str) == Some(request_id)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let inputs = import_with_client(stdout, Some(stdin)).unwrap();
        assert_eq!(inputs.len(), 2);
        let first = inputs[0]["messages"].as_array().unwrap();
        let types: Vec<&str> = first.iter().map(|m| m["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["system", "control_request", "control_response", "result", "command_lifecycle"]);
        assert_eq!(inputs[1]["messages"].as_array().unwrap().len(), 2);
        assert_eq!(inputs[1]["end"], "completed");
    }

    #[test]
    fn errors_in_the_client_file_say_so() {
        let err = import_with_client("{\"type\":\"result\"}", Some("nope")).unwrap_err();
        assert!(matches!(err, ImportError::Client(_)));
        assert!(err.to_string().starts_with("client lines: line 1"));
    }
}
