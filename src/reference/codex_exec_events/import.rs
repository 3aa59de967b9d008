//! Importer for the `codex-exec-jsonl` capture format: the stdout of
//! `codex exec --json` → one `codex-exec-events` input holding the decoded
//! lines.
//!
//! Lines are decoded with `JSON.parse` semantics: the duplicate `id` key of
//! 0.171's web_search items keeps its first position and its last value.
//! Fixtures that must show the raw duplicate key keep that line as text.

use crate::reference::agent_events::{ImportError, parse_capture_lines};
use serde_json::{Map, Value};

/// Imports a `codex exec --json` capture. See the module docs.
pub fn import(text: &str) -> Result<Vec<Value>, ImportError> {
    let lines = parse_capture_lines(text)?;
    let mut input = Map::new();
    input.insert("lines".to_owned(), lines.into_iter().map(|line| line.value).collect());
    Ok(vec![Value::Object(input)])
}
