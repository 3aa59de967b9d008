//! The session snapshot: the inventory panel (model, cwd, permission mode,
//! tools, MCP servers, plugins, skills, slash commands, agents). Every
//! `system/init` replaces it; `system/status` updates the permission mode
//! and `system/commands_changed` the slash commands.

use super::model::Snapshot;
use serde_json::Value;

/// A snapshot from a `system/init` frame (`updated_at`: the frame's time).
/// Missing strings are empty and missing lists empty; list entries of the
/// wrong shape are skipped.
pub fn from_init(message: &Value, updated_at: Option<String>) -> Snapshot {
    let string = |key: &str| message.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    Snapshot {
        id: string("uuid"),
        session_id: string("session_id"),
        model: string("model"),
        cwd: string("cwd"),
        permission_mode: string("permissionMode"),
        tools: strings(message.get("tools")),
        mcp_servers: pairs(message.get("mcp_servers"), "status"),
        plugins: pairs(message.get("plugins"), "path"),
        skills: strings(message.get("skills")),
        slash_commands: strings(message.get("slash_commands")),
        agents: strings(message.get("agents")),
        updated_at,
    }
}

/// The names of `system/commands_changed` commands (objects with a `name`,
/// or bare strings). `None` when the frame has no command list.
pub fn command_names(message: &Value) -> Option<Vec<String>> {
    let commands = message.get("commands")?.as_array()?;
    Some(
        commands
            .iter()
            .filter_map(|command| command.as_str().or_else(|| command.get("name").and_then(Value::as_str)))
            .map(str::to_owned)
            .collect(),
    )
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// `{name, <second>}` objects as pairs; entries without a string name are
/// skipped, a missing second field is empty.
fn pairs(value: Option<&Value>, second: &str) -> Vec<(String, String)> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let name = entry.get("name")?.as_str()?;
            let other = entry.get(second).and_then(Value::as_str).unwrap_or_default();
            Some((name.to_owned(), other.to_owned()))
        })
        .collect()
}
