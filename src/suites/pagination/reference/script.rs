//! Replaying an op script: reading each op, serving the scripted responses
//! in order, and recording what each op must report.
//!
//! Every request the store issues is recorded, whether or not a scripted
//! response is left for it. A request with no response left is a failed
//! request for the store (as a transport error is for the client), so a
//! script that under-supplies responses shows up as an extra recorded
//! request, and one that over-supplies them as a missing one, in the op's
//! `expectedRequests`.

use super::page::{FetchError, MessagesServer, Page, Request};
use super::row::Row;
use super::store::{Store, ViewMode};
use crate::suite_api::RuleTrace;
use serde_json::{Map, Number, Value};

/// The op kinds a script may contain.
pub const OP_KINDS: [&str; 10] = [
    "sync-tail",
    "fetch-older",
    "sse-messages",
    "append-optimistic",
    "update-status",
    "messages-consumed",
    "message-cancelled",
    "cancel-invoked",
    "set-view-mode",
    "queued-state",
];

/// Decides whether the chat pipeline's first stage renders a wire row.
pub type RendersFn<'r> = &'r dyn Fn(&Value) -> bool;

/// Serves the op's scripted responses first in, first out.
struct ScriptedServer<'a, 'r> {
    responses: &'a [Value],
    served: usize,
    requests: Vec<Value>,
    renders: RendersFn<'r>,
}

impl MessagesServer for ScriptedServer<'_, '_> {
    fn get_messages(&mut self, request: Request) -> Result<Page, FetchError> {
        self.requests.push(request.to_json());
        let Some(response) = self.responses.get(self.served) else { return Err(FetchError::Failed) };
        let index = self.served;
        self.served += 1;
        Page::from_wire(response, self.renders)
            .map_err(|problem| FetchError::Malformed(format!("responses[{index}]: {problem}")))
    }
}

/// Runs one op against `store` and returns its expectations object
/// (`{expectedRequests}`, `{expectedRequests, expectedOutcome}`,
/// `{expectedCandidates}` or `{}`).
pub fn run_op(
    store: &mut Store,
    op: &Value,
    renders: RendersFn<'_>,
    trace: &mut dyn RuleTrace,
) -> Result<Map<String, Value>, String> {
    let op = op.as_object().ok_or("an op must be a JSON object")?;
    let kind = op.get("op").and_then(Value::as_str).ok_or("an op needs a string `op` kind")?;
    let mut expected = Map::new();
    match kind {
        "sync-tail" => {
            let mut server = scripted(op, renders)?;
            store.sync_tail(&mut server, trace)?;
            expected.insert("expectedRequests".to_owned(), Value::Array(server.requests));
        }
        "fetch-older" => {
            let mut server = scripted(op, renders)?;
            let outcome = store.fetch_older(&mut server, trace)?;
            expected.insert("expectedRequests".to_owned(), Value::Array(server.requests));
            expected.insert("expectedOutcome".to_owned(), outcome.to_json());
        }
        "sse-messages" => {
            let messages = member(op, "messages")?.as_array().ok_or("`messages` must be an array")?;
            let rows = messages
                .iter()
                .enumerate()
                .map(|(index, message)| {
                    Row::from_wire(message, renders).map_err(|problem| format!("messages[{index}]: {problem}"))
                })
                .collect::<Result<Vec<Row>, String>>()?;
            store.ingest_live(rows, trace);
        }
        "append-optimistic" => store.append_optimistic(message(op, renders)?, trace),
        "update-status" => store.update_status(string(op, "localId")?, string(op, "status")?, trace),
        "messages-consumed" => store.mark_consumed(&strings(op, "localIds")?, number(op, "invokedAt")?, trace),
        "message-cancelled" => store.remove(string(op, "localId")?, trace),
        "cancel-invoked" => store.cancel_invoked(string(op, "localId")?, message(op, renders)?, trace),
        "set-view-mode" => {
            let mode = match string(op, "mode")? {
                "tail" => ViewMode::Tail,
                "history" => ViewMode::History,
                other => return Err(format!("unknown view mode `{other}` (tail or history)")),
            };
            store.set_view_mode(mode, trace);
        }
        "queued-state" => {
            let invoked = member(op, "invoked")?
                .as_array()
                .ok_or("`invoked` must be an array")?
                .iter()
                .map(|entry| {
                    let entry = entry.as_object().ok_or("each `invoked` entry must be an object")?;
                    Ok((string(entry, "localId")?.to_owned(), number(entry, "invokedAt")?.clone()))
                })
                .collect::<Result<Vec<(String, Number)>, String>>()?;
            let candidates = store.reconcile_queued(&strings(op, "queuedLocalIds")?, &invoked, trace);
            expected.insert(
                "expectedCandidates".to_owned(),
                Value::Array(candidates.into_iter().map(Value::String).collect()),
            );
        }
        other => return Err(format!("unknown op kind `{other}` (known: {})", OP_KINDS.join(", "))),
    }
    Ok(expected)
}

fn scripted<'a, 'r>(op: &'a Map<String, Value>, renders: RendersFn<'r>) -> Result<ScriptedServer<'a, 'r>, String> {
    let responses = member(op, "responses")?.as_array().ok_or("`responses` must be an array")?;
    Ok(ScriptedServer { responses, served: 0, requests: Vec::new(), renders })
}

fn member<'a>(op: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    op.get(key).ok_or_else(|| format!("missing `{key}`"))
}

fn string<'a>(op: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    member(op, key)?.as_str().ok_or_else(|| format!("`{key}` must be a string"))
}

fn number<'a>(op: &'a Map<String, Value>, key: &str) -> Result<&'a Number, String> {
    match member(op, key)? {
        Value::Number(number) => Ok(number),
        _ => Err(format!("`{key}` must be a number")),
    }
}

fn strings(op: &Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    let items = member(op, key)?.as_array().ok_or_else(|| format!("`{key}` must be an array of strings"))?;
    items
        .iter()
        .map(|item| item.as_str().map(str::to_owned).ok_or_else(|| format!("`{key}` must be an array of strings")))
        .collect()
}

fn message(op: &Map<String, Value>, renders: RendersFn<'_>) -> Result<Row, String> {
    Row::from_wire(member(op, "message")?, renders).map_err(|problem| format!("message: {problem}"))
}
