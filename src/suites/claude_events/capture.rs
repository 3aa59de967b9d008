//! `--from claude-stream-json` for `claude-events`: one case per SDK
//! `query()` run of a stream-json capture (see [`crate::suites::claude_stream`]).

use crate::suite_api::capture::per_file::{self, FileImport, Stream};
use crate::suite_api::capture::{ImportFailure, Imported, NamesFn, Opened, SourceFile};
use crate::suites::claude_stream;
use std::path::PathBuf;

/// How the files are read.
const STREAM: Stream = Stream {
    import: |text, client| {
        let import = claude_stream::import_events(text, client)?;
        Ok(FileImport { note: import.note(), inputs: import.inputs })
    },
    companion: Some(".stdin.jsonl"),
    list: "messages",
    noun: "messages",
};

/// Opens the captures file by file (see [`per_file::open`]).
pub fn open(paths: &[PathBuf], names_in: NamesFn<'_>) -> Result<Opened, ImportFailure> {
    per_file::open(paths, &STREAM, names_in)
}

/// Imports stream-json captures, each with its `.stdin.jsonl` companion,
/// reporting transcript lines left out and a last line cut mid-write.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    per_file::import(files, &STREAM)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { path: PathBuf::from(name), text: text.to_owned() }
    }

    #[test]
    fn companions_given_on_the_command_line_are_not_captures() -> Result<(), ImportFailure> {
        let stdout = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n";
        let stdin = "{\"type\":\"control_response\",\"response\":{}}\n";
        let imported = import(&[file("run.jsonl", stdout), file("run.stdin.jsonl", stdin)])?;
        assert_eq!(imported.cases.len(), 1);
        assert_eq!(imported.cases[0].provenance.sources, ["run.jsonl", "run.stdin.jsonl"]);
        Ok(())
    }
}
