//! `--from claude-stream-json` for `claude-display`: one case per capture
//! file, a stream-json log or a session transcript (see
//! [`crate::suites::claude_stream`]).

use crate::suite_api::capture::per_file::{self, FileImport, Stream};
use crate::suite_api::capture::{ImportFailure, Imported, NamesFn, Opened, SourceFile};
use crate::suites::claude_stream;
use std::path::PathBuf;

/// How the files are read.
const STREAM: Stream = Stream {
    import: |text, client| {
        let import = claude_stream::import_display(text, client)?;
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

/// Imports stream-json captures (each with its `.stdin.jsonl` companion) and
/// session transcripts, reporting the transcript lines left out and a last
/// line cut mid-write.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    per_file::import(files, &STREAM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_transcript_lines_are_reported() -> Result<(), ImportFailure> {
        let transcript = concat!(
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
            "{\"type\":\"user\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n",
            "{\"type\":\"progress\",\"sessionId\":\"s\"}\n",
            "{\"type\":\"file-history-snapshot\",\"sessionId\":\"s\"}\n",
        );
        let imported = import(&[SourceFile { path: PathBuf::from("session.jsonl"), text: transcript.to_owned() }])?;
        assert_eq!(imported.cases[0].provenance.items, 1);
        assert_eq!(
            imported.notices,
            [
                "session.jsonl: 3 transcript lines without an SDK counterpart skipped (2 progress, 1 file-history-snapshot)"
            ]
        );
        Ok(())
    }
}
