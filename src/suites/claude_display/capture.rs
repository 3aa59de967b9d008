//! `--from claude-stream-json` for `claude-display`: one case per capture
//! file, a stream-json log or a session transcript (see
//! [`crate::suites::claude_stream`]).

use crate::suite::capture::per_file::{self, FileImport, Stream};
use crate::suite::capture::{ImportFailure, Imported, SourceFile};
use crate::suites::claude_stream::{self, SkippedLine};

/// Imports stream-json captures (each with its `.stdin.jsonl` companion) and
/// session transcripts, reporting the transcript lines left out.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    let stream = Stream {
        import: |text, client| {
            let import = claude_stream::import_display(text, client)?;
            Ok(FileImport { note: skipped_note(&import.skipped), inputs: import.inputs })
        },
        companion: Some(".stdin.jsonl"),
        list: "messages",
        noun: "messages",
    };
    per_file::import(files, &stream)
}

/// Which transcript lines an import left out, by kind.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
