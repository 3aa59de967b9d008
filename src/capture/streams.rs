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

use super::claude_stream::SkippedLine;
use super::jsonl::ImportError;
use super::{CaptureError, CapturedCase, Imported, Provenance, SourceFile, claude_stream, codex_logs};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// An importer taking a capture's text and its companion's, if any.
type WithClient = fn(&str, Option<&str>) -> Result<FileImport, ImportError>;

/// What an importer made of one capture file.
struct FileImport {
    inputs: Vec<Value>,
    /// Something worth telling the user about the file.
    note: Option<String>,
}

impl From<Vec<Value>> for FileImport {
    fn from(inputs: Vec<Value>) -> Self {
        FileImport { inputs, note: None }
    }
}

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
        import: |text, client| claude_stream::import_events(text, client).map(FileImport::from),
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
        import: |text, client| {
            let import = claude_stream::import_display(text, client)?;
            Ok(FileImport { note: skipped_note(&import.skipped), inputs: import.inputs })
        },
        companion: Some(".stdin.jsonl"),
        list: "messages",
        noun: "messages",
    };
    import(files, &stream)
}

/// `--from codex-app-server-jsonl` for `codex-app-server-events`.
pub fn codex_app_server(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream = Stream {
        import: |text, client| codex_logs::import_app_server(text, client).map(FileImport::from),
        companion: Some(".client.jsonl"),
        list: "frames",
        noun: "frames",
    };
    import(files, &stream)
}

/// `--from codex-exec-jsonl` for `codex-exec-events`.
pub fn codex_exec(files: &[SourceFile]) -> Result<Imported, CaptureError> {
    let stream = Stream {
        import: |text, _| codex_logs::import_exec(text).map(FileImport::from),
        companion: None,
        list: "lines",
        noun: "lines",
    };
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
        let FileImport { inputs, note } =
            (stream.import)(&file.text, companion.as_ref().map(|(_, text)| text.as_str()))
                .map_err(|err| CaptureError::Shape { path: file.path.clone(), message: err.to_string() })?;
        imported.notices.extend(note.map(|note| format!("{}: {note}", file.file_name())));
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

/// Which transcript lines a `claude-display` import left out, by kind.
fn skipped_note(skipped: &[SkippedLine]) -> Option<String> {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for line in skipped {
        match kinds.iter_mut().find(|(kind, _)| *kind == line.kind) {
            Some((_, count)) => *count += 1,
            None => kinds.push((&line.kind, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
    (!skipped.is_empty()).then(|| {
        format!("{} transcript lines without an SDK counterpart skipped ({})", skipped.len(), kinds.join(", "))
    })
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
    fn skipped_transcript_lines_are_reported() -> Result<(), CaptureError> {
        let transcript = concat!(
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
            "{\"type\":\"user\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n",
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
            "{\"type\":\"file-history-snapshot\",\"sessionId\":\"s\"}\n",
        );
        let imported = claude_display(&[file("session.jsonl", transcript)])?;
        assert_eq!(imported.cases[0].provenance.items, 1);
        assert_eq!(
            imported.notices,
            [
                "session.jsonl: 3 transcript lines without an SDK counterpart skipped (2 progress, 1 file-history-snapshot)"
            ]
        );
        Ok(())
    }

    #[test]
    fn broken_lines_name_the_file() {
        let result = codex_exec(&[file("bad.jsonl", "{\"type\":1}\nnot json\n")]);
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with("bad.jsonl: line 2"), "{message}");
    }
}
