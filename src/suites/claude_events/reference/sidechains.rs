//! Sub-agent entries of session transcripts. Outside SDK mode, Claude Code
//! 1.x writes a `Task` sub-agent's entries inline, flagged
//! `isSidechain: true` and without `parent_tool_use_id`; their events get
//! the `subagent_id` of the spawn they belong to, found the way
//! `claude-display` nests them: the chain of `parentUuid`, else the spawn
//! (a `Task` / `Agent` `tool_start` whose result has not arrived and whose
//! sidechain has not started) whose `prompt` is the entry's text, else the
//! oldest such spawn, else none (a sidechain file is its own main thread).

use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// A sub-agent spawn seen in the stream.
#[derive(Debug)]
struct Spawn {
    tool_use_id: String,
    prompt: Option<String>,
    returned: bool,
    sidechain_started: bool,
}

/// The spawns and the sidechain entries attributed so far.
#[derive(Debug, Default)]
pub struct Sidechains {
    spawns: Vec<Spawn>,
    /// Sidechain entry `uuid` → the spawn it belongs to (`None`: no spawn).
    hosts: HashMap<String, Option<String>>,
}

impl Sidechains {
    /// A `Task` / `Agent` call started.
    pub fn spawned(&mut self, tool_use_id: &str, input: Option<&Value>) {
        let prompt = input.and_then(|input| input.get("prompt")).and_then(Value::as_str).map(|p| p.trim().to_owned());
        self.spawns.push(Spawn {
            tool_use_id: tool_use_id.to_owned(),
            prompt,
            returned: false,
            sidechain_started: false,
        });
    }

    /// A call's result arrived: a spawn's sidechain is over.
    pub fn returned(&mut self, tool_use_id: &str) {
        for spawn in self.spawns.iter_mut().filter(|spawn| spawn.tool_use_id == tool_use_id) {
            spawn.returned = true;
        }
    }

    /// The sub-agent an inline sidechain entry belongs to, if any; other
    /// messages give `None` and change nothing.
    pub fn attribute(&mut self, message: &Map<String, Value>, trace: &mut dyn RuleTrace) -> Option<String> {
        let inline = message.get("isSidechain") == Some(&Value::Bool(true))
            && message.get("parent_tool_use_id").is_none_or(Value::is_null);
        if !inline {
            return None;
        }
        let parent = message.get("parentUuid").and_then(Value::as_str);
        let host = match parent.and_then(|parent| self.hosts.get(parent)) {
            Some(host) => host.clone(),
            None => self.root(message),
        };
        if host.is_some() {
            trace.hit("claude.sidechain.subagent-id");
        }
        if let Some(uuid) = message.get("uuid").and_then(Value::as_str) {
            self.hosts.insert(uuid.to_owned(), host.clone());
        }
        host
    }

    fn root(&mut self, message: &Map<String, Value>) -> Option<String> {
        let text =
            (message.get("type").and_then(Value::as_str) == Some("user")).then(|| prompt_text(message)).flatten();
        let open = |spawn: &&mut Spawn| !spawn.returned && !spawn.sidechain_started;
        let mut candidates: Vec<&mut Spawn> = self.spawns.iter_mut().filter(|spawn| open(spawn)).collect();
        let position = text
            .and_then(|text| candidates.iter().position(|spawn| spawn.prompt.as_deref() == Some(text.as_str())))
            .or((!candidates.is_empty()).then_some(0))?;
        let spawn = candidates.swap_remove(position);
        spawn.sidechain_started = true;
        Some(spawn.tool_use_id.clone())
    }
}

/// The text of a user message (a string, or its text blocks joined by
/// newlines), trimmed.
fn prompt_text(message: &Map<String, Value>) -> Option<String> {
    match message.get("message")?.get("content")? {
        Value::String(text) => Some(text.trim().to_owned()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|block| block.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n").trim().to_owned())
        }
        _ => None,
    }
}
