//! The chat message model the fold builds: messages with a `blocks` array as
//! the source of truth (text, tool, permission, error and nested sub-agent
//! blocks) and the flat fields derived from it (`syncDerivedFields`).

use super::summary::{tool_category, tool_summary};
use serde_json::{Map, Value};

/// A tool call's lifecycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolStatus {
    /// Started, no result yet.
    #[default]
    Running,
    /// A result arrived.
    Done,
}

/// A tool call block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolBlock {
    /// Pairs the start with its result.
    pub tool_use_id: Option<Value>,
    /// The tool name.
    pub tool: Option<Value>,
    /// The tool input.
    pub input: Option<Value>,
    /// The shell command (Bash, Codex commands).
    pub command: Option<Value>,
    /// The file path (event field, else `input.file_path`).
    pub file_path: Option<Value>,
    /// The search pattern (event field, else `input.pattern`).
    pub pattern: Option<Value>,
    /// The search directory.
    pub search_path: Option<Value>,
    /// Whether the Codex classifier saw a file read.
    pub is_file_read: Option<Value>,
    /// Running or done.
    pub status: ToolStatus,
    /// The result output.
    pub output: Option<Value>,
    /// Whether the result is an error.
    pub is_error: Option<Value>,
    /// The command's exit code.
    pub exit_code: Option<Value>,
}

/// A permission prompt block.
#[derive(Clone, Debug, PartialEq)]
pub struct PermissionBlock {
    /// The tool asking.
    pub tool_name: Option<Value>,
    /// What it wants to do.
    pub tool_input: Option<Value>,
    /// The decision, once known.
    pub allowed: Option<bool>,
    /// Whether it was answered.
    pub resolved: bool,
}

/// A sub-agent's lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubagentStatus {
    /// Spawned and not finished.
    Running,
    /// Its spawn tool returned (or its thread's turn completed).
    Completed,
    /// Its spawn tool returned an error.
    Failed,
}

/// A sub-agent and the blocks of its own event stream.
#[derive(Clone, Debug, PartialEq)]
pub struct SubagentState {
    /// The `subagent_id` its events carry (the spawn's tool_use_id).
    pub id: Value,
    /// Its name or description.
    pub name: Value,
    /// Running, completed or failed.
    pub status: SubagentStatus,
    /// Its nested blocks.
    pub blocks: Vec<Block>,
    /// The spawn's `tool_start` as a tool block (not projected): what the
    /// block becomes when the sub-agent never ran.
    pub spawn: Option<Box<ToolBlock>>,
    /// The `ts` of the event that opened it, as given (`startedAt`).
    pub started_at: Option<Value>,
    /// The `ts` of the event that last completed or failed it, as given
    /// (`completedAt`).
    pub completed_at: Option<Value>,
}

/// One block of a message, in the order things happened.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Accumulated text of one assistant message.
    Text(TextBlock),
    /// A tool call.
    Tool(Box<ToolBlock>),
    /// A permission prompt.
    Permission(PermissionBlock),
    /// An error.
    Error(String),
    /// A sub-agent with its nested blocks.
    Subagent(SubagentState),
}

/// Text accumulated from `delta` events of one assistant message.
#[derive(Clone, Debug, PartialEq)]
pub struct TextBlock {
    /// The text so far.
    pub text: String,
    /// The `message_id` of the deltas that wrote it (the first one given):
    /// a delta of another message starts a new block.
    pub message_id: Option<Value>,
}

impl TextBlock {
    /// A block holding `text`, of message `message_id` when known.
    pub fn new(text: &str, message_id: Option<&Value>) -> Self {
        TextBlock { text: text.to_owned(), message_id: message_id.cloned() }
    }
}

/// A chat message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A user bubble.
    User {
        /// What the user wrote.
        text: String,
    },
    /// An agent bubble.
    Agent(AgentMessage),
}

/// An agent bubble under construction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentMessage {
    /// The source of truth.
    pub blocks: Vec<Block>,
    /// Accumulated thinking text.
    pub thinking: String,
    /// Whether thinking finished.
    pub thinking_done: bool,
    /// Whether the turn completed (the gate for a new bubble).
    pub done: bool,
}

/// `content` as `syncDerivedFields` rebuilds it: the text blocks joined,
/// with `\n\n` before every text block but the first (text separated by a
/// non-text block, or the text of another assistant message) unless the
/// text so far is empty or already ends with a newline.
pub fn derived_content(blocks: &[Block]) -> String {
    let mut content = String::new();
    for block in blocks {
        if let Block::Text(text) = block {
            if !content.is_empty() && !content.ends_with('\n') {
                content.push_str("\n\n");
            }
            content.push_str(&text.text);
        }
    }
    content
}

impl Message {
    /// The projection of the message.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        match self {
            Message::User { text } => {
                object.insert("role".to_owned(), Value::from("user"));
                object.insert("content".to_owned(), Value::from(text.clone()));
                object.insert("done".to_owned(), Value::Bool(true));
            }
            Message::Agent(message) => {
                object.insert("role".to_owned(), Value::from("agent"));
                object.insert("blocks".to_owned(), blocks_value(&message.blocks));
                object.insert("content".to_owned(), Value::from(derived_content(&message.blocks)));
                let mut thinking = Map::new();
                thinking.insert("content".to_owned(), Value::from(message.thinking.clone()));
                thinking.insert("done".to_owned(), Value::Bool(message.thinking_done));
                object.insert("thinking".to_owned(), Value::Object(thinking));
                let tools = message.blocks.iter().filter(|b| matches!(b, Block::Tool(_))).map(block_value).collect();
                object.insert("toolEvents".to_owned(), Value::Array(tools));
                let permission = message
                    .blocks
                    .iter()
                    .find(|b| matches!(b, Block::Permission(p) if !p.resolved))
                    .map_or(Value::Null, block_value);
                object.insert("permissionRequest".to_owned(), permission);
                let error = message.blocks.iter().find_map(|b| match b {
                    Block::Error(message) => Some(Value::from(message.clone())),
                    _ => None,
                });
                object.insert("error".to_owned(), error.unwrap_or(Value::Null));
                object.insert("done".to_owned(), Value::Bool(message.done));
            }
        }
        Value::Object(object)
    }
}

fn blocks_value(blocks: &[Block]) -> Value {
    Value::Array(blocks.iter().map(block_value).collect())
}

fn put(object: &mut Map<String, Value>, key: &str, value: &Option<Value>) {
    if let Some(value) = value {
        object.insert(key.to_owned(), value.clone());
    }
}

fn block_value(block: &Block) -> Value {
    let mut object = Map::new();
    match block {
        Block::Text(text) => {
            object.insert("kind".to_owned(), Value::from("text"));
            object.insert("text".to_owned(), Value::from(text.text.clone()));
        }
        Block::Tool(tool) => {
            object.insert("kind".to_owned(), Value::from("tool"));
            put(&mut object, "toolUseId", &tool.tool_use_id);
            put(&mut object, "tool", &tool.tool);
            put(&mut object, "input", &tool.input);
            put(&mut object, "command", &tool.command);
            put(&mut object, "filePath", &tool.file_path);
            put(&mut object, "pattern", &tool.pattern);
            put(&mut object, "searchPath", &tool.search_path);
            put(&mut object, "isFileRead", &tool.is_file_read);
            let status = if tool.status == ToolStatus::Done { "done" } else { "running" };
            object.insert("status".to_owned(), Value::from(status));
            put(&mut object, "output", &tool.output);
            put(&mut object, "isError", &tool.is_error);
            put(&mut object, "exitCode", &tool.exit_code);
            object.insert("summary".to_owned(), Value::from(tool_summary(tool)));
            object.insert("category".to_owned(), Value::from(tool_category_of(tool)));
        }
        Block::Permission(permission) => {
            object.insert("kind".to_owned(), Value::from("permission"));
            put(&mut object, "toolName", &permission.tool_name);
            put(&mut object, "toolInput", &permission.tool_input);
            object.insert("resolved".to_owned(), Value::Bool(permission.resolved));
            put(&mut object, "allowed", &permission.allowed.map(Value::Bool));
        }
        Block::Error(message) => {
            object.insert("kind".to_owned(), Value::from("error"));
            object.insert("message".to_owned(), Value::from(message.clone()));
        }
        Block::Subagent(subagent) => {
            object.insert("kind".to_owned(), Value::from("subagent"));
            let tools: Vec<&ToolBlock> = subagent
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Tool(tool) => Some(tool.as_ref()),
                    _ => None,
                })
                .collect();
            let file_changes = tools.iter().filter(|tool| tool_category_of(tool) == "code").count();
            let mut state = Map::new();
            state.insert("id".to_owned(), subagent.id.clone());
            state.insert("name".to_owned(), subagent.name.clone());
            let status = match subagent.status {
                SubagentStatus::Running => "running",
                SubagentStatus::Completed => "completed",
                SubagentStatus::Failed => "failed",
            };
            state.insert("status".to_owned(), Value::from(status));
            state.insert("toolCalls".to_owned(), Value::from(tools.len()));
            state.insert("fileChanges".to_owned(), Value::from(file_changes));
            state.insert("blocks".to_owned(), blocks_value(&subagent.blocks));
            if let Some(started_at) = &subagent.started_at {
                state.insert("startedAt".to_owned(), started_at.clone());
            }
            if let Some(completed_at) = &subagent.completed_at {
                state.insert("completedAt".to_owned(), completed_at.clone());
            }
            object.insert("subagent".to_owned(), Value::Object(state));
        }
    }
    Value::Object(object)
}

/// A tool block's category (a non-string tool name counts as empty).
pub fn tool_category_of(tool: &ToolBlock) -> &'static str {
    tool_category(tool.tool.as_ref().and_then(Value::as_str).unwrap_or(""))
}
