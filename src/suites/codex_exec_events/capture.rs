//! The `codex-exec-jsonl` capture format: the stdout of `codex exec --json`.
//! Each capture is one `codex-exec-events` input `{lines}`.
//!
//! `codex exec` lines are decoded with `JSON.parse` semantics: the duplicate
//! `id` key of 0.171's web_search items keeps its first position and its
//! last value. Fixtures that must show the raw duplicate key keep that line
//! as text.
//!
//! A capture that stops before the runtime finished gets `end: "cut-off"`:
//! when its last `turn.started` has no `turn.completed` or `turn.failed`
//! after it, or when its last line was cut mid-write (that line is dropped
//! and named in a notice).
//!
//! [`sniff`] knows the file by its event types (`thread.started`,
//! `turn.*`, `item.*`, `error`).

use crate::suite_api::capture::lines::{ImportError, parse_capture_lines_cut_tail, skip_leading_foreign};
use crate::suite_api::capture::per_file::{self, FileImport, Stream};
use crate::suite_api::capture::sniff::{Sniff, by_first_telling_line};
use crate::suite_api::capture::{ImportFailure, Imported, NamesFn, Opened, SourceFile};
use serde_json::{Map, Value};
use std::path::PathBuf;

/// Imports a `codex exec --json` capture as one `codex-exec-events` input
/// `{lines, end?}`.
pub fn import_exec(text: &str) -> Result<Vec<Value>, ImportError> {
    import_exec_file(text).map(|file| file.inputs)
}

/// [`import_exec`] with the notices of a cut-off capture.
fn import_exec_file(text: &str) -> Result<FileImport, ImportError> {
    let (lines, cut) = parse_capture_lines_cut_tail(text)?;
    let (lines, header) = skip_leading_foreign(lines, is_exec_event);
    let lines: Vec<Value> = lines.into_iter().map(|line| line.value).collect();
    let position = |types: &[&str]| {
        lines.iter().rposition(|line| line.get("type").and_then(Value::as_str).is_some_and(|t| types.contains(&t)))
    };
    let open_turn = match (position(&["turn.started"]), position(&["turn.completed", "turn.failed"])) {
        (Some(started), Some(ended)) => started > ended,
        (started, _) => started.is_some(),
    };
    let mut notes: Vec<String> = header.notice("codex exec event").into_iter().collect();
    notes.extend(cut.iter().map(|cut| cut.notice()));
    if open_turn {
        notes.push("the last turn.started has no turn.completed or turn.failed: the case ends cut off".to_owned());
    }
    let mut input = Map::new();
    input.insert("lines".to_owned(), Value::Array(lines));
    if open_turn || cut.is_some() {
        input.insert("end".to_owned(), Value::from("cut-off"));
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(FileImport { inputs: vec![Value::Object(input)], note })
}

/// The event types `codex exec --json` prints.
const EXEC_EVENT_TYPES: [&str; 8] = [
    "thread.started",
    "turn.started",
    "turn.completed",
    "turn.failed",
    "item.started",
    "item.updated",
    "item.completed",
    "error",
];

fn is_exec_event(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str).is_some_and(|ty| EXEC_EVENT_TYPES.contains(&ty))
}

/// Sniffs a `codex exec --json` capture: one of its first lines is one of
/// its events; with none, the first other JSON object says what the file is.
pub fn sniff(text: &str) -> Sniff {
    by_first_telling_line(text, is_exec_event, |value| {
        value.is_object().then(|| "not a `codex exec --json` event (thread.*, turn.*, item.*, error)".to_owned())
    })
}

/// `--from codex-exec-jsonl`: one case per capture file.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    per_file::import(files, &STREAM)
}

/// How the files are read.
const STREAM: Stream =
    Stream { import: |text, _| import_exec_file(text), companion: None, list: "lines", noun: "lines" };

/// Opens the captures file by file (see [`per_file::open`]).
pub fn open(paths: &[PathBuf], names_in: NamesFn<'_>) -> Result<Opened, ImportFailure> {
    per_file::open(paths, &STREAM, names_in)
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
    fn a_run_without_its_terminal_frame_or_with_a_cut_line_ends_cut_off() {
        let complete = import_exec("{\"type\":\"turn.started\"}\n{\"type\":\"turn.completed\"}\n").unwrap();
        assert_eq!(complete[0].get("end"), None);
        let open = import_exec_file("{\"type\":\"turn.completed\"}\n{\"type\":\"turn.started\"}\n").unwrap();
        assert_eq!(open.inputs[0]["end"], "cut-off");
        let cut = import_exec_file("{\"type\":\"turn.started\"}\n{\"type\":\"turn.comp").unwrap();
        assert_eq!(cut.inputs[0]["lines"].as_array().map(Vec::len), Some(1));
        assert_eq!(cut.inputs[0]["end"], "cut-off");
        assert!(cut.note.unwrap_or_default().starts_with("line 2 was cut mid-write"));
    }

    #[test]
    fn an_exec_event_among_the_first_lines_tells_an_exec_log() {
        assert_eq!(sniff("\n{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n"), Sniff::Matches);
        let Sniff::Mismatch(why) = sniff("{\"type\":\"system\",\"subtype\":\"init\"}\n{\"type\":\"assistant\"}\n")
        else {
            panic!("Claude frames and no exec event are another kind of file")
        };
        assert!(
            why.starts_with("line 1 `{\"type\":\"system\",\"subtype\":\"init\"}` is not a `codex exec --json` event"),
            "{why}"
        );
        assert_eq!(sniff("[1]\n"), Sniff::Unsure);
    }

    #[test]
    fn a_recorders_header_line_is_skipped_and_named() {
        let text = "{\"shipyard_fixture\":{\"name\":\"ls\",\"recorded\":\"2026-09-30\"}}\n{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n{\"type\":\"turn.completed\"}\n";
        assert_eq!(sniff(text), Sniff::Matches);
        let file = import_exec_file(text).unwrap();
        assert_eq!(file.inputs[0]["lines"].as_array().map(Vec::len), Some(3));
        assert_eq!(file.inputs[0].get("end"), None);
        assert_eq!(
            file.note.as_deref(),
            Some("line 1 (shipyard_fixture) before the first codex exec event line skipped: no known capture format")
        );
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
