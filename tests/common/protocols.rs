//! The protocol inventories of ../shared/protocols, read in place.

use super::{read_document, shared};
use serde_json::Value;
use std::path::PathBuf;

/// The protocol inventories folder, or `None` with the skip recorded.
pub fn protocols() -> Option<PathBuf> {
    shared("protocols")
}

/// The Claude Agent SDK 0.3.332 message inventory, or `None` with the skip recorded.
pub fn claude_sdk_inventory() -> Option<Value> {
    shared("protocols/claude-agent-sdk/sdk-message-inventory-0.3.332.json").map(|path| read_document(&path))
}

/// The values of an inventory `{enum: [...]}` field (none when the field is not one).
pub fn enum_values(field: Option<&Value>) -> Vec<String> {
    field
        .and_then(|f| f.get("enum"))
        .and_then(Value::as_array)
        .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}
