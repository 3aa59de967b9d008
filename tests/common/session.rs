//! A hand-written 200-message HAPI session, dumped the way a client sees
//! it: overlapping `GET /messages` pages in any order, a duplicated page, an
//! NDJSON stream of some rows, and the session object for agentState. The
//! messages carry the planted secrets of [`super::planted`].

use super::planted::{Planted, planted_members, planted_strings};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const BASE_TIME: u64 = 1_755_000_000_000;

/// Builds the session's messages (in seq order) and its agentState.
pub struct SessionBuilder {
    messages: Vec<Value>,
    tools: usize,
    planted: Vec<Planted>,
    next_plant: usize,
    completed: serde_json::Map<String, Value>,
    requests: serde_json::Map<String, Value>,
}

impl SessionBuilder {
    fn new() -> Self {
        SessionBuilder {
            messages: Vec::new(),
            tools: 0,
            planted: planted_strings(),
            next_plant: 0,
            completed: serde_json::Map::new(),
            requests: serde_json::Map::new(),
        }
    }

    fn seq(&self) -> usize {
        self.messages.len() + 1
    }

    fn push(&mut self, role: &str, content: Value) {
        let seq = self.seq();
        self.messages.push(json!({
            "id": format!("msg-{seq:04}"),
            "seq": seq,
            "localId": null,
            "createdAt": BASE_TIME + seq as u64 * 1500,
            "content": {"role": role, "content": content},
        }));
    }

    fn tool_id(&mut self, prefix: &str) -> String {
        self.tools += 1;
        format!("{prefix}_{:04}", self.tools)
    }

    /// The next planted string (cycling), as it appears in a message.
    fn plant(&mut self) -> String {
        let planted = &self.planted[self.next_plant % self.planted.len()];
        self.next_plant += 1;
        planted.original()
    }

    fn user(&mut self, text: &str) {
        self.push("user", json!({"type": "text", "text": text}));
    }

    fn claude(&mut self, data: Value) {
        let seq = self.seq();
        let mut data = data;
        if let Some(object) = data.as_object_mut() {
            object.insert("uuid".into(), json!(format!("u-{seq:04}")));
        }
        self.push("agent", json!({"type": "output", "data": data}));
    }

    fn assistant(&mut self, blocks: Value) {
        self.claude(json!({"type": "assistant", "message": {"role": "assistant", "model": "claude-opus-4-1-20250805",
            "content": blocks, "usage": {"input_tokens": 1200 + self.seq(), "output_tokens": 40,
            "cache_read_input_tokens": 50_000, "cache_creation_input_tokens": 100}}}));
    }

    fn tool_result(&mut self, tool: &str, content: &str, is_error: bool) {
        self.claude(json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool, "content": content, "is_error": is_error}]}}));
    }

    fn codex(&mut self, data: Value) {
        self.push("agent", json!({"type": "codex", "data": data}));
    }

    fn event(&mut self, data: Value) {
        self.push("agent", json!({"type": "event", "data": data}));
    }

    /// A Bash call whose result (a planted string) arrives two messages later.
    fn bash_turn(&mut self, round: usize) {
        self.user(&format!("Round {round}: check the deployment config."));
        let tool = self.tool_id("toolu");
        self.assistant(json!([
            {"type": "text", "text": "Reading the config."},
            {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": "cat .env && cat ~/.aws/credentials", "description": "Show config"}}
        ]));
        self.event(json!({"type": "message", "message": format!("Checkpoint {round}")}));
        let output = self.plant();
        self.tool_result(&tool, &output, round % 5 == 4);
        self.assistant(json!([{"type": "text", "text": format!("Config checked (round {round}).")}]));
    }

    /// A codex call whose result comes after an interleaved agent message.
    fn codex_turn(&mut self, round: usize) {
        self.user(&format!("Round {round}: run the linter in /home/alice/project."));
        self.codex(json!({"type": "reasoning", "message": "The linter needs the project root."}));
        let call = self.tool_id("call");
        self.codex(json!({"type": "tool-call", "callId": call, "name": "CodexBash",
            "input": {"command": ["bash", "-lc", "npm run lint"], "cwd": "/home/alice/project"}}));
        self.codex(json!({"type": "message", "message": "Linting…"}));
        let stdout = self.plant();
        self.codex(json!({"type": "tool-call-result", "callId": call, "is_error": false,
            "output": {"exit_code": 0, "stdout": stdout}}));
        self.codex(json!({"type": "message", "message": format!("Lint clean (round {round}).")}));
    }

    /// A Task with sidechain messages grouped under it.
    fn task_turn(&mut self, round: usize) {
        self.user(&format!("Round {round}: find who wrote the retry logic."));
        let task = self.tool_id("toolu");
        let prompt = format!("Find the author of the retry logic (round {round}).");
        self.assistant(json!([{"type": "tool_use", "id": task, "name": "Task",
            "input": {"description": "Find author", "prompt": prompt, "subagent_type": "Explore"}}]));
        self.claude(
            json!({"type": "user", "isSidechain": true, "parentToolUseId": task, "message": {"content": prompt}}),
        );
        let grep = self.tool_id("toolu");
        self.claude(json!({"type": "assistant", "isSidechain": true, "parentToolUseId": task,
            "message": {"content": [{"type": "tool_use", "id": grep, "name": "Grep", "input": {"pattern": "withRetry"}}]}}));
        let log = self.plant();
        self.claude(json!({"type": "user", "isSidechain": true, "parentToolUseId": task,
            "message": {"content": [{"type": "tool_result", "tool_use_id": grep, "content": log}]}}));
        self.claude(json!({"type": "assistant", "isSidechain": true, "parentToolUseId": task,
            "message": {"content": [{"type": "text", "text": "Found it in git blame."}]}}));
        self.tool_result(&task, "The retry logic was written by the platform team.", false);
        self.assistant(json!([{"type": "text", "text": "The platform team wrote it."}]));
    }

    /// An approved Edit (its permission in agentState), a thinking block, an
    /// attachment and a couple of events.
    fn misc_turn(&mut self, round: usize) {
        let note = self.plant();
        self.push(
            "user",
            json!({"type": "text", "text": format!("Round {round}: {note}"), "attachments": [
            {"id": format!("att-{round}"), "filename": "notes.txt", "mimeType": "text/plain", "size": 120,
             "path": format!("/uploads/att-{round}/notes.txt")}]}),
        );
        self.assistant(json!([{"type": "thinking", "thinking": "An edit is needed.", "signature": "c2lnbmF0dXJl"}]));
        let edit = self.tool_id("toolu");
        self.assistant(json!([{"type": "tool_use", "id": edit, "name": "Edit",
            "input": {"file_path": "/Users/jdoe/code/app/src/config.ts", "old_string": "a", "new_string": "b"}}]));
        self.completed.insert(
            edit.clone(),
            json!({"tool": "Edit", "arguments": {"file_path": "/Users/jdoe/code/app/src/config.ts"},
            "status": "approved", "decision": "approved", "createdAt": BASE_TIME, "completedAt": BASE_TIME + 1}),
        );
        self.tool_result(&edit, "Applied 1 edit.", false);
        self.claude(json!({"type": "system", "subtype": "turn_duration", "durationMs": 4200 + round}));
        self.event(json!({"type": "title-changed", "title": format!("Config work {round}")}));
    }

    /// The session: 200 messages, the last a tool call still waiting for
    /// permission.
    pub fn build() -> (Vec<Value>, Value) {
        let mut builder = SessionBuilder::new();
        let mut round = 0;
        while builder.messages.len() < 190 {
            match round % 4 {
                0 => builder.bash_turn(round),
                1 => builder.codex_turn(round),
                2 => builder.task_turn(round),
                _ => builder.misc_turn(round),
            }
            round += 1;
        }
        while builder.messages.len() < 198 {
            let text = builder.plant();
            builder.user(&text);
        }
        builder.user("Last step: push the branch.");
        let push = builder.tool_id("toolu");
        let (name, value) = &planted_members()[1];
        builder.assistant(json!([{"type": "tool_use", "id": push, "name": "WebFetch",
            "input": {"url": "https://api.example.com/v1/push", "headers": {*name: value.original()}}}]));
        let (secret_name, secret) = &planted_members()[0];
        builder.requests.insert(
            push,
            json!({"tool": "WebFetch", "arguments": {*secret_name: secret.original()}, "createdAt": BASE_TIME}),
        );
        assert_eq!(builder.messages.len(), 200);
        let state = json!({"requests": builder.requests, "completedRequests": builder.completed});
        (builder.messages, state)
    }
}

/// Writes the session as a client's dump into `folder` and returns the
/// files in a scrambled order: four overlapping pages (newest first, one
/// page's rows reversed), a duplicate of one page, an NDJSON stream
/// repeating some rows, and the session object.
pub fn write_dump(folder: &Path, messages: &[Value], agent_state: &Value) -> Vec<PathBuf> {
    let page = |first: usize, last: usize, direction: &str, has_more: bool| {
        json!({"messages": messages[first - 1..last].to_vec(),
               "page": {"direction": direction, "limit": 60, "epoch": 1, "reset": false, "hasMore": has_more,
                        "nextBeforeSeq": first, "nextBeforeAt": BASE_TIME + first as u64 * 1500,
                        "nextAfterSeq": null, "nextAfterAt": null, "snapshotHeadSeq": 200, "snapshotHeadAt": null}})
    };
    let mut reversed = page(101, 160, "before", true);
    if let Some(Value::Array(rows)) = reversed.get_mut("messages") {
        rows.reverse();
    }
    // The stream repeats rows 96..=130; one of them was consumed by the
    // agent since the pages were fetched, so its copy carries invokedAt.
    let mut stream = messages[95..130].to_vec();
    if let Some(row) = stream.iter_mut().find(|m| m["content"]["role"] == "user") {
        row["invokedAt"] = json!(row["createdAt"].as_u64().unwrap_or(0) + 500);
    }
    let files: Vec<(&str, String)> = vec![
        ("page-2.json", page(51, 110, "before", true).to_string()),
        ("session.json", json!({"session": {"id": "sess-7f3a", "agentState": agent_state}}).to_string()),
        ("page-latest.json", page(141, 200, "latest", true).to_string()),
        ("stream.ndjson", stream.iter().map(Value::to_string).collect::<Vec<_>>().join("\n")),
        ("page-1.json", page(1, 60, "before", false).to_string()),
        ("page-3.json", reversed.to_string()),
        ("page-2-again.json", page(51, 110, "before", true).to_string()),
    ];
    files
        .into_iter()
        .map(|(name, text)| {
            let path = folder.join(name);
            std::fs::write(&path, text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            path
        })
        .collect()
}

/// Tool calls opened, completed and grouped in a list of messages.
#[derive(Debug, Default)]
pub struct ToolLinks {
    /// Tool ids opened (tool_use ids, codex callIds), by message index.
    pub opened: BTreeMap<String, usize>,
    /// Tool ids completed (tool_result, tool-call-result), by message index.
    pub completed: BTreeMap<String, usize>,
    /// Sidechain parents referred to, with the referring message indices.
    pub sidechain: BTreeMap<String, BTreeSet<usize>>,
}

impl ToolLinks {
    pub fn of(messages: &[Value]) -> ToolLinks {
        let mut links = ToolLinks::default();
        for (index, message) in messages.iter().enumerate() {
            visit(message, index, &mut links);
        }
        links
    }
}

fn visit(value: &Value, index: usize, links: &mut ToolLinks) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| visit(item, index, links)),
        Value::Object(object) => {
            let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_owned);
            match text("type").as_deref() {
                Some("tool_use") => {
                    links.opened.extend(text("id").map(|id| (id, index)));
                }
                Some("tool-call") => {
                    links.opened.extend(text("callId").map(|id| (id, index)));
                }
                Some("tool_result") => {
                    links.completed.extend(text("tool_use_id").map(|id| (id, index)));
                }
                Some("tool-call-result") => {
                    links.completed.extend(text("callId").map(|id| (id, index)));
                }
                _ => {}
            }
            if let Some(parent) = text("parentToolUseId") {
                links.sidechain.entry(parent).or_default().insert(index);
            }
            object.values().for_each(|member| visit(member, index, links));
        }
        _ => {}
    }
}
