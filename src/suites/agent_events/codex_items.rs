//! Codex thread items (app-server `ThreadItem`, `codex exec` items) and how
//! tool-like items become `tool_start` / `tool_result` payloads.
//!
//! The app-server spells item types and fields in camelCase
//! (`commandExecution`, `aggregatedOutput`), `codex exec` in snake_case
//! (`command_execution`, `aggregated_output`), and the seed's examples use
//! both; every spelling is accepted here so both normalizers share one
//! mapping.

use super::bash::classify_bash_command;
use super::event::{EventType, put};
use crate::json::to_compact_string;
use crate::suite_api::RuleTrace;
use crate::suites::js::truthy;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// A thread item's type, whatever its spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// The user's own message.
    UserMessage,
    /// Agent text.
    AgentMessage,
    /// Reasoning summary and content.
    Reasoning,
    /// A shell command.
    CommandExecution,
    /// A function call (seed name; absent from codex-cli 0.171).
    FunctionCall,
    /// A function call's output.
    FunctionCallOutput,
    /// A patch applied to files.
    FileChange,
    /// An MCP tool call.
    McpToolCall,
    /// A client-provided dynamic tool call.
    DynamicToolCall,
    /// A web search.
    WebSearch,
    /// A proposed plan (app-server).
    Plan,
    /// A to-do list (`codex exec`).
    TodoList,
    /// An error item (`codex exec`; warnings in 0.171).
    Error,
    /// Any other known item without a mapping row: hook prompts, image views,
    /// sleeps, image generation, review mode, compaction, sub-agent
    /// coordination.
    Other(&'static str),
    /// A type this normalizer does not know.
    Unknown,
}

const OTHER_ITEMS: [&str; 9] = [
    "hookPrompt",
    "imageView",
    "sleep",
    "imageGeneration",
    "enteredReviewMode",
    "exitedReviewMode",
    "contextCompaction",
    "collabAgentToolCall",
    "subAgentActivity",
];

impl ItemKind {
    /// Parses an item `type` in camelCase or snake_case.
    pub fn parse(raw: &str) -> ItemKind {
        let camel = snake_to_camel(raw);
        match camel.as_str() {
            "userMessage" => ItemKind::UserMessage,
            "agentMessage" => ItemKind::AgentMessage,
            "reasoning" => ItemKind::Reasoning,
            "commandExecution" => ItemKind::CommandExecution,
            "functionCall" => ItemKind::FunctionCall,
            "functionCallOutput" => ItemKind::FunctionCallOutput,
            "fileChange" => ItemKind::FileChange,
            "mcpToolCall" => ItemKind::McpToolCall,
            "dynamicToolCall" => ItemKind::DynamicToolCall,
            "webSearch" => ItemKind::WebSearch,
            "plan" => ItemKind::Plan,
            "todoList" => ItemKind::TodoList,
            "error" => ItemKind::Error,
            other => {
                OTHER_ITEMS.iter().find(|known| **known == other).map_or(ItemKind::Unknown, |k| ItemKind::Other(k))
            }
        }
    }
}

fn snake_to_camel(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut upper = false;
    for c in raw.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// An item's lifecycle status, whatever its spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemStatus {
    /// Still running.
    InProgress,
    /// Finished normally.
    Completed,
    /// Finished with a failure.
    Failed,
    /// Refused by the user (approvals).
    Declined,
    /// Absent or unrecognised.
    Other,
}

impl ItemStatus {
    /// Reads `item.status`.
    pub fn of(item: &Map<String, Value>) -> ItemStatus {
        match item.get("status").and_then(Value::as_str) {
            Some("inProgress" | "in_progress") => ItemStatus::InProgress,
            Some("completed") => ItemStatus::Completed,
            Some("failed") => ItemStatus::Failed,
            Some("declined") => ItemStatus::Declined,
            _ => ItemStatus::Other,
        }
    }

    fn is_failure(self) -> bool {
        matches!(self, ItemStatus::Failed | ItemStatus::Declined)
    }
}

/// The first of `names` present on `item`.
fn field<'a>(item: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names.iter().find_map(|name| item.get(*name))
}

/// The tool name a shell command shows under, and its file-read
/// classification: the semantic name for file reads, `bash` otherwise.
pub fn command_tool_name(command: Option<&Value>) -> (String, Option<super::bash::FileRead>) {
    let classified = command.and_then(Value::as_str).and_then(classify_bash_command);
    let tool = classified.as_ref().map_or_else(|| "bash".to_owned(), |read| read.tool.clone());
    (tool, classified)
}

/// The `tool_start` and `tool_result` payloads of one tool-like item.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolItem {
    /// The item id that pairs start and result.
    pub tool_use_id: Option<Value>,
    /// `tool_start` data, when this item kind starts a tool.
    pub start: Option<Map<String, Value>>,
    /// `tool_result` data, when this item kind completes a tool.
    pub result: Option<Map<String, Value>>,
}

/// Maps a tool-like item to its tool payloads; `None` for items that are not
/// tools (messages, reasoning, plans, …).
pub fn tool_item(kind: ItemKind, item: &Map<String, Value>) -> Option<ToolItem> {
    let id = item.get("id").cloned();
    let call_id = field(item, &["callId", "call_id"]).cloned().or_else(|| id.clone());
    let status = ItemStatus::of(item);
    let tool = match kind {
        ItemKind::CommandExecution => command_item(item, id),
        ItemKind::FunctionCall => {
            let mut start = Map::new();
            put(&mut start, "tool_use_id", call_id.clone());
            put(&mut start, "tool", item.get("name").cloned());
            put(&mut start, "input", item.get("arguments").cloned());
            ToolItem { tool_use_id: call_id, start: Some(start), result: None }
        }
        ItemKind::FunctionCallOutput => {
            let mut result = Map::new();
            put(&mut result, "tool_use_id", call_id.clone());
            put(&mut result, "output", item.get("output").cloned());
            result.insert("is_error".to_owned(), Value::Bool(false));
            ToolItem { tool_use_id: call_id, start: None, result: Some(result) }
        }
        ItemKind::McpToolCall => {
            let error = item.get("error").filter(|e| truthy(Some(e)));
            let output = mcp_output(item, error);
            let failed = status.is_failure() || error.is_some();
            let tool = field(item, &["tool", "toolName"]).cloned();
            generic(id, tool, item.get("arguments").cloned(), output, failed)
        }
        ItemKind::DynamicToolCall => {
            let output = joined_text(item.get("contentItems"), "inputText");
            let failed = status.is_failure() || item.get("success") == Some(&Value::Bool(false));
            generic(id, item.get("tool").cloned(), item.get("arguments").cloned(), output, failed)
        }
        ItemKind::FileChange => {
            let mut input = Map::new();
            put(&mut input, "changes", item.get("changes").cloned());
            let output = change_lines(item.get("changes"));
            generic(id, Some(Value::from("apply_patch")), Some(Value::Object(input)), output, status.is_failure())
        }
        ItemKind::WebSearch => {
            let query = item.get("query").cloned();
            let mut input = Map::new();
            put(&mut input, "query", query.clone());
            let output = query.and_then(|q| q.as_str().map(str::to_owned)).unwrap_or_default();
            generic(id, Some(Value::from("web_search")), Some(Value::Object(input)), output, false)
        }
        _ => return None,
    };
    Some(tool)
}

fn command_item(item: &Map<String, Value>, id: Option<Value>) -> ToolItem {
    let command = item.get("command");
    let (tool, classified) = command_tool_name(command);
    let file_path = classified.as_ref().map(|read| read.file_path.clone()).filter(|path| !path.is_empty());
    let is_file_read = classified.is_some();

    let mut start = Map::new();
    put(&mut start, "tool_use_id", id.clone());
    start.insert("tool".to_owned(), Value::from(tool));
    put(&mut start, "command", command.cloned());

    let mut result = Map::new();
    put(&mut result, "tool_use_id", id.clone());
    let output = field(item, &["aggregatedOutput", "aggregated_output"]).and_then(Value::as_str).unwrap_or("");
    result.insert("output".to_owned(), Value::from(output));
    let exit_code = field(item, &["exitCode", "exit_code"]).filter(|code| code.is_number());
    let nonzero_exit = exit_code.and_then(Value::as_f64).is_some_and(|code| code != 0.0);
    result.insert("is_error".to_owned(), Value::Bool(ItemStatus::of(item).is_failure() || nonzero_exit));
    put(&mut result, "exit_code", exit_code.cloned());

    for data in [&mut start, &mut result] {
        put(data, "file_path", file_path.clone().map(Value::from));
        if is_file_read {
            data.insert("is_file_read".to_owned(), Value::Bool(true));
        }
    }
    ToolItem { tool_use_id: id, start: Some(start), result: Some(result) }
}

fn generic(id: Option<Value>, tool: Option<Value>, input: Option<Value>, output: String, failed: bool) -> ToolItem {
    let mut start = Map::new();
    put(&mut start, "tool_use_id", id.clone());
    put(&mut start, "tool", tool);
    put(&mut start, "input", input);
    let mut result = Map::new();
    put(&mut result, "tool_use_id", id.clone());
    result.insert("output".to_owned(), Value::from(output));
    result.insert("is_error".to_owned(), Value::Bool(failed));
    ToolItem { tool_use_id: id, start: Some(start), result: Some(result) }
}

/// An MCP call's output text: the text parts of `result.content`, else the
/// seed's `output` string, else the error message.
fn mcp_output(item: &Map<String, Value>, error: Option<&Value>) -> String {
    let content = item.get("result").and_then(|result| result.get("content"));
    if content.is_some_and(Value::is_array) {
        return joined_text(content, "text");
    }
    if let Some(output) = item.get("output").and_then(Value::as_str) {
        return output.to_owned();
    }
    error.and_then(|e| e.get("message")).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The `text` of every `{type: text_type, text}` entry, one per line.
fn joined_text(items: Option<&Value>, text_type: &str) -> String {
    let Some(items) = items.and_then(Value::as_array) else {
        return String::new();
    };
    let texts: Vec<&str> = items
        .iter()
        .filter(|entry| entry.get("type").and_then(Value::as_str) == Some(text_type))
        .filter_map(|entry| entry.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

/// `<kind> <path>` per file change, one per line; the kind is a string
/// (`codex exec`) or `{type}` (app-server).
fn change_lines(changes: Option<&Value>) -> String {
    let Some(changes) = changes.and_then(Value::as_array) else {
        return String::new();
    };
    let lines: Vec<String> = changes
        .iter()
        .filter_map(|change| {
            let path = change.get("path").and_then(Value::as_str)?;
            let kind = change.get("kind").and_then(|kind| kind.as_str().or_else(|| kind.get("type")?.as_str()));
            Some(match kind {
                Some(kind) => format!("{kind} {path}"),
                None => path.to_owned(),
            })
        })
        .collect();
    lines.join("\n")
}

/// The reason recorded when a tool item's notification adds nothing (its
/// tool already started and it carries no result).
pub const ALREADY_STARTED: &str = "the tool already started; this notification adds nothing";

/// Remembers which tool items started, so a completion without a start
/// still yields a `tool_start` before its `tool_result`.
#[derive(Clone, Debug, Default)]
pub struct ToolTracker {
    started: HashSet<String>,
}

impl ToolTracker {
    /// The events a tool-like item's `started` (or `completed`)
    /// notification produces, in order; `None` when the item is not a tool
    /// (see [`tool_item`]).
    pub fn item_events(
        &mut self,
        completed: bool,
        kind: ItemKind,
        item: &Map<String, Value>,
        trace: &mut dyn RuleTrace,
    ) -> Option<Vec<(EventType, Map<String, Value>)>> {
        let tool = tool_item(kind, item)?;
        let mut events = Vec::new();
        let key = tool.tool_use_id.as_ref().map(to_compact_string);
        let started = key.as_ref().is_some_and(|key| self.started.contains(key));
        if !started && let Some(start) = tool.start {
            trace.hit(if completed { "codex-item.tool.completed-without-start" } else { "codex-item.tool.start" });
            if let Some(key) = key {
                self.started.insert(key);
            }
            events.push((EventType::ToolStart, start));
        }
        if completed && let Some(result) = tool.result {
            trace.hit("codex-item.tool.result");
            events.push((EventType::ToolResult, result));
        }
        Some(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_spellings_parse() {
        assert_eq!(ItemKind::parse("agent_message"), ItemKind::AgentMessage);
        assert_eq!(ItemKind::parse("agentMessage"), ItemKind::AgentMessage);
        assert_eq!(ItemKind::parse("todo_list"), ItemKind::TodoList);
        assert_eq!(ItemKind::parse("sleep"), ItemKind::Other("sleep"));
        assert_eq!(ItemKind::parse("teleport"), ItemKind::Unknown);
    }

    #[test]
    fn a_failed_command_is_an_error_with_its_exit_code() {
        let item = json!({"id": "c1", "type": "command_execution", "command": "bash -lc 'cat x'",
            "aggregated_output": "no such file", "exit_code": 1, "status": "failed"});
        let tool = tool_item(ItemKind::CommandExecution, item.as_object().unwrap()).unwrap();
        assert_eq!(
            Value::Object(tool.result.unwrap()),
            json!({"tool_use_id": "c1", "output": "no such file", "is_error": true, "exit_code": 1,
                "file_path": "x", "is_file_read": true})
        );
        assert_eq!(tool.start.unwrap()["tool"], "cat");
    }
}
