//! Fills the `expected` part of chat fixtures from the reference and writes
//! each document in canonical bytes.
//!
//! ```sh
//! cargo run --example bless_chat                  # every fixtures/chat/*.json
//! cargo run --example bless_chat -- FILE…         # selected files
//! ```
//!
//! An authoring aid, never part of a run: every expectation it writes must be
//! read against the specification before it is committed.

use conform::json::{parse_value, to_canonical_string};
use conform::reference::NoTrace;
use conform::reference::chat::run;
use serde_json::Value;
use std::path::PathBuf;

fn main() -> Result<(), String> {
    let mut files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let entries = std::fs::read_dir("fixtures/chat").map_err(|err| format!("fixtures/chat: {err}"))?;
        files = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
    }
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let mut document = parse_value(&text).map_err(|err| format!("{}: {err}", path.display()))?;
        let input = document.get("input").cloned().ok_or_else(|| format!("{}: no input", path.display()))?;
        let expected = run(&input, &mut NoTrace).map_err(|err| format!("{}: {err}", path.display()))?;
        if let Value::Object(object) = &mut document {
            object.insert("expected".to_owned(), expected);
        }
        let canonical = to_canonical_string(&document);
        if canonical != text {
            std::fs::write(&path, canonical).map_err(|err| format!("{}: {err}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
