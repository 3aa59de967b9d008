//! Reading the per-file stream formats: Claude stream-json logs and session
//! transcripts ([`super::claude_stream`]), Codex app-server and
//! `codex exec --json` logs ([`super::codex_logs`]).
//!
//! Each capture file is read on its own; its importer turns it into one or
//! more case inputs. A run driven over stdin has a client-side companion
//! file (`NAME.stdin.jsonl` for Claude, `NAME.client.jsonl` for the Codex
//! app-server) holding what the client sent, such as permission answers.
//! It is used when given on the command line or found beside the capture,
//! and is never a capture of its own.

use super::jsonl::ImportError;
use super::{CaptureError, CapturedCase, Imported, Provenance, SourceFile, claude_stream, codex_logs};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// An importer taking a capture's text and its companion's, if any.
type WithClient = fn(&str, Option<&str>) -> Result<Vec<Value>, ImportError>;

/// How one stream format reads its files.
struct Stream {
    import: WithClient,
    /// Suffix of the client-side companion (replacing `.jsonl`).
    companion: Option<&'static str>,
    /// The input member that lists the items.
    list: &'static str,
    /// What the items are called.
    noun: &'static str,
}

/// `--from claude-stream-json` for `claude-events`.
pub fn claude_events(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream = Stream {
        import: claude_stream::import_events,
        companion: Some(".stdin.jsonl"),
        list: "messages",
        noun: "messages",
    };
    import(files, &stream)
}

/// `--from claude-stream-json` for `claude-display` (also reads session
/// transcripts).
pub fn claude_display(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream = Stream {
        import: |text, client| claude_stream::import_display(text, client).map(|import| import.inputs),
        companion: Some(".stdin.jsonl"),
        list: "messages",
        noun: "messages",
    };
    import(files, &stream)
}

/// `--from codex-app-server-jsonl` for `codex-app-server-events`.
pub fn codex_app_server(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream = Stream {
        import: codex_logs::import_app_server,
        companion: Some(".client.jsonl"),
        list: "frames",
        noun: "frames",
    };
    import(files, &stream)
}

/// `--from codex-exec-jsonl` for `codex-exec-events`.
pub fn codex_exec(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream =
        Stream { import: |text, _| codex_logs::import_exec(text), companion: None, list: "lines", noun: "lines" };
    import(files, &stream)
}

fn import(files: &[SourceFile], stream: &Stream) -> Result<Imported, CaptureError> {
    let is_companion = |file: &SourceFile| stream.companion.is_some_and(|suffix| file.file_name().ends_with(suffix));
    let mut imported = Imported::default();
    for file in files.iter().filter(|file| !is_companion(file)) {
        let companion = stream.companion.and_then(|suffix| companion_of(file, suffix, files));
        if let Some((path, _)) = &companion {
            imported.notices.push(format!("{}: client lines from {}", file.file_name(), display_name(path)));
        }
        let inputs = (stream.import)(&file.text, companion.as_ref().map(|(_, text)| text.as_str()))
            .map_err(|err| CaptureError::Shape { path: file.path.clone(), message: err.to_string() })?;
        let count = inputs.len();
        for (index, input) in inputs.into_iter().enumerate() {
            let mut sources = vec![file.file_name()];
            sources.extend(companion.as_ref().map(|(path, _)| display_name(path)));
            let items = input.get(stream.list).and_then(Value::as_array).map_or(0, Vec::len);
            let label = if count > 1 { format!("{}-{}", stem(file), index + 1) } else { stem(file) };
            let detail = (count > 1).then(|| format!("run {} of {count} in the file", index + 1));
            let provenance = Provenance { sources, captured_on: None, items, noun: stream.noun, detail };
            imported.cases.push(CapturedCase { input, label, provenance });
        }
    }
    if imported.cases.is_empty() {
        return Err(CaptureError::Empty(stream.noun));
    }
    Ok(imported)
}

/// The companion of `file`: given on the command line, else found beside it.
fn companion_of(file: &SourceFile, suffix: &str, files: &[SourceFile]) -> Option<(PathBuf, String)> {
    let name = file.file_name();
    let base = name.strip_suffix(".jsonl").unwrap_or(&name);
    let wanted = format!("{base}{suffix}");
    if let Some(given) = files.iter().find(|f| f.file_name() == wanted) {
        return Some((given.path.clone(), given.text.clone()));
    }
    let beside = file.path.with_file_name(&wanted);
    std::fs::read_to_string(&beside).ok().map(|text| (beside, text))
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn stem(file: &SourceFile) -> String {
    let name = file.file_name();
    name.strip_suffix(".jsonl").or_else(|| name.strip_suffix(".ndjson")).unwrap_or(&name).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { path: PathBuf::from(name), text: text.to_owned() }
    }

    #[test]
    fn exec_logs_become_one_case_per_file() -> Result<(), CaptureError> {
        let imported = codex_exec(&[
            file("a.jsonl", "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n"),
            file("b.jsonl", "{\"type\":\"turn.started\"}\n"),
        ])?;
        let labels: Vec<(&str, usize)> =
            imported.cases.iter().map(|c| (c.label.as_str(), c.provenance.items)).collect();
        assert_eq!(labels, [("a", 2), ("b", 1)]);
        Ok(())
    }

    #[test]
    fn companions_given_on_the_command_line_are_not_captures() -> Result<(), CaptureError> {
        let stdout = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n";
        let stdin = "{\"type\":\"control_response\",\"response\":{}}\n";
        let imported = claude_events(&[file("run.jsonl", stdout), file("run.stdin.jsonl", stdin)])?;
        assert_eq!(imported.cases.len(), 1);
        assert_eq!(imported.cases[0].provenance.sources, ["run.jsonl", "run.stdin.jsonl"]);
        Ok(())
    }

    #[test]
    fn broken_lines_name_the_file() {
        let result = codex_exec(&[file("bad.jsonl", "{\"type\":1}\nnot json\n")]);
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with("bad.jsonl: line 2"), "{message}");
    }
}
