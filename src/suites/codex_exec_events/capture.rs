//! The `codex-exec-jsonl` capture format: the stdout of `codex exec --json`.
//! Each capture is one `codex-exec-events` input `{lines}`.
//!
//! `codex exec` lines are decoded with `JSON.parse` semantics: the duplicate
//! `id` key of 0.171's web_search items keeps its first position and its
//! last value. Fixtures that must show the raw duplicate key keep that line
//! as text.

use crate::suite::capture::lines::{ImportError, parse_capture_lines};
use crate::suite::capture::per_file::{self, FileImport, Stream};
use crate::suite::capture::{ImportFailure, Imported, SourceFile};
use serde_json::{Map, Value};

/// Imports a `codex exec --json` capture as one `codex-exec-events` input
/// `{lines}`.
pub fn import_exec(text: &str) -> Result<Vec<Value>, ImportError> {
    let lines = parse_capture_lines(text)?;
    let mut input = Map::new();
    input.insert("lines".to_owned(), lines.into_iter().map(|line| line.value).collect());
    Ok(vec![Value::Object(input)])
}

/// `--from codex-exec-jsonl`: one case per capture file.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    let stream = Stream {
        import: |text, _| import_exec(text).map(FileImport::from),
        companion: None,
        list: "lines",
        noun: "lines",
    };
    per_file::import(files, &stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_keep_the_last_value_of_a_duplicate_key() {
        let inputs = import_exec("{\"id\":\"item_0\",\"type\":\"web_search\",\"id\":\"ws_1\"}\n").unwrap();
        assert_eq!(inputs[0]["lines"][0]["id"], "ws_1");
    }

    #[test]
    fn exec_logs_become_one_case_per_file() -> Result<(), ImportFailure> {
        let file = |name: &str, text: &str| SourceFile { path: name.into(), text: text.to_owned() };
        let imported = import(&[
            file("a.jsonl", "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n"),
            file("b.jsonl", "{\"type\":\"turn.started\"}\n"),
        ])?;
        let labels: Vec<(&str, usize)> =
            imported.cases.iter().map(|c| (c.label.as_str(), c.provenance.items)).collect();
        assert_eq!(labels, [("a", 2), ("b", 1)]);
        Ok(())
    }
}
