//! Formats with one capture per file (Claude stream-json logs and session
//! transcripts, Codex app-server and `codex exec --json` logs): the shared
//! way their files become cases.
//!
//! Each capture file is read on its own; its importer turns it into one or
//! more case inputs. A run driven over stdin has a client-side companion
//! file (`NAME.stdin.jsonl` for Claude, `NAME.client.jsonl` for the Codex
//! app-server) holding what the client sent, such as permission answers.
//! It is used when given on the command line or found beside the capture,
//! and is never a capture of its own.

use super::lines::ImportError;
use super::{CapturedCase, Case, CaseSource, ImportFailure, Imported, NamesFn, Opened, Provenance, SourceFile};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// An importer taking a capture's text and its companion's, if any.
pub type WithClient = fn(&str, Option<&str>) -> Result<FileImport, ImportError>;

/// What an importer made of one capture file.
#[derive(Clone, Debug, Default)]
pub struct FileImport {
    /// The case inputs the file holds.
    pub inputs: Vec<Value>,
    /// Something worth telling the user about the file.
    pub note: Option<String>,
}

impl From<Vec<Value>> for FileImport {
    fn from(inputs: Vec<Value>) -> Self {
        FileImport { inputs, note: None }
    }
}

/// How one per-file format reads its files.
#[derive(Clone, Copy, Debug)]
pub struct Stream {
    /// The importer of one file.
    pub import: WithClient,
    /// Suffix of the client-side companion (replacing `.jsonl`).
    pub companion: Option<&'static str>,
    /// The input member that lists the items.
    pub list: &'static str,
    /// What the items are called.
    pub noun: &'static str,
}

/// Imports every capture file of `files` (companions excepted) as `stream`
/// says: one or more cases per file, labelled by the file stem.
pub fn import(files: &[SourceFile], stream: &Stream) -> Result<Imported, ImportFailure> {
    let is_companion = |file: &SourceFile| stream.companion.is_some_and(|suffix| file.file_name().ends_with(suffix));
    let mut imported = Imported::default();
    for file in files.iter().filter(|file| !is_companion(file)) {
        let companion = stream.companion.and_then(|suffix| companion_of(file, suffix, files));
        if let Some((path, _)) = &companion {
            imported.notices.push(format!("{}: client lines from {}", file.file_name(), display_name(path)));
        }
        let FileImport { inputs, note } =
            (stream.import)(&file.text, companion.as_ref().map(|(_, text)| text.as_str()))
                .map_err(|err| ImportFailure::Shape { path: file.path.clone(), message: err.to_string() })?;
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
        return Err(ImportFailure::Empty(stream.noun));
    }
    Ok(imported)
}

/// Bytes of capture text whose cases [`open`] keeps from its first pass
/// (the user names) for the second; beyond it, files are read again.
pub const KEEP_BYTES: u64 = 64 * 1024 * 1024;

/// Opens per-file captures as [`import`] reads them, one file at a time:
/// each file's text is dropped once its cases are built. The user names of
/// every case must be learned before any is scrubbed, so each file is
/// imported once for its names and notices; its cases are kept for the
/// pipeline while the files read so far hold at most [`KEEP_BYTES`], and the
/// files after that are imported again when their turn comes.
pub fn open(paths: &[PathBuf], stream: &Stream, names_in: NamesFn<'_>) -> Result<Opened, ImportFailure> {
    let is_companion = |path: &Path| stream.companion.is_some_and(|suffix| display_name(path).ends_with(suffix));
    let mut notices = Vec::new();
    let mut user_names = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut kept_bytes = 0u64;
    let mut cases = 0;
    for path in paths.iter().filter(|path| !is_companion(path)) {
        let (imported, bytes) = import_one(path, paths, stream)?;
        notices.extend(imported.notices);
        cases += imported.cases.len();
        for case in &imported.cases {
            user_names.extend(names_in(&case.input));
        }
        kept_bytes = kept_bytes.saturating_add(bytes);
        let keep = kept_bytes <= KEEP_BYTES;
        pending.push(Pending { path: path.clone(), cases: keep.then_some(imported.cases) });
    }
    if cases == 0 {
        return Err(ImportFailure::Empty(stream.noun));
    }
    let source =
        Files { paths: paths.to_vec(), stream: *stream, pending: pending.into(), current: Vec::new().into_iter() };
    Ok(Opened { cases: Box::new(source), user_names, notices })
}

/// A capture file of [`open`] and its cases, when they were kept.
struct Pending {
    path: PathBuf,
    cases: Option<Vec<CapturedCase>>,
}

/// The cases of [`open`], file by file.
struct Files {
    paths: Vec<PathBuf>,
    stream: Stream,
    pending: std::collections::VecDeque<Pending>,
    current: std::vec::IntoIter<CapturedCase>,
}

impl CaseSource for Files {
    fn next_case(&mut self) -> Option<Result<Case, ImportFailure>> {
        loop {
            if let Some(case) = self.current.next() {
                return Some(Ok(Case::Whole(case)));
            }
            let Pending { path, cases } = self.pending.pop_front()?;
            let cases = match cases {
                Some(cases) => cases,
                None => match import_one(&path, &self.paths, &self.stream) {
                    Ok((imported, _)) => imported.cases,
                    Err(err) => return Some(Err(err)),
                },
            };
            self.current = cases.into_iter();
        }
    }
}

/// Imports one capture file (with its companion) as [`import`] would;
/// returns its cases and notices and the bytes read.
fn import_one(path: &Path, paths: &[PathBuf], stream: &Stream) -> Result<(Imported, u64), ImportFailure> {
    let file = read_source(path)?;
    let bytes = file.text.len() as u64;
    let mut given = vec![file];
    if let Some(suffix) = stream.companion {
        let name = display_name(path);
        let base = name.strip_suffix(".jsonl").unwrap_or(&name);
        let wanted = format!("{base}{suffix}");
        if let Some(companion) = paths.iter().find(|p| display_name(p) == wanted) {
            given.push(read_source(companion)?);
        }
    }
    let imported = import(&given, stream)?;
    Ok((imported, bytes))
}

/// Reads a capture file (already checked to be readable UTF-8).
pub fn read_source(path: &Path) -> Result<SourceFile, ImportFailure> {
    let bytes = std::fs::read(path)
        .map_err(|err| ImportFailure::Read { path: path.to_path_buf(), message: err.to_string() })?;
    let text = String::from_utf8(bytes).map_err(|err| ImportFailure::Read {
        path: path.to_path_buf(),
        message: format!("not UTF-8 (byte offset {})", err.utf8_error().valid_up_to()),
    })?;
    Ok(SourceFile { path: path.to_path_buf(), text })
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

    fn lines_as_one_input(text: &str, _: Option<&str>) -> Result<FileImport, ImportError> {
        let lines = super::super::lines::parse_capture_lines(text)?;
        let mut input = serde_json::Map::new();
        input.insert("lines".to_owned(), lines.into_iter().map(|line| line.value).collect());
        Ok(FileImport::from(vec![Value::Object(input)]))
    }

    const LINES: Stream = Stream { import: lines_as_one_input, companion: None, list: "lines", noun: "lines" };

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { path: PathBuf::from(name), text: text.to_owned() }
    }

    #[test]
    fn one_case_per_file_labelled_by_its_stem() -> Result<(), ImportFailure> {
        let imported = import(&[file("a.jsonl", "{\"n\":1}\n{\"n\":2}\n"), file("b.jsonl", "{\"n\":3}\n")], &LINES)?;
        let labels: Vec<(&str, usize)> =
            imported.cases.iter().map(|c| (c.label.as_str(), c.provenance.items)).collect();
        assert_eq!(labels, [("a", 2), ("b", 1)]);
        Ok(())
    }

    #[test]
    fn broken_lines_name_the_file() {
        let result = import(&[file("bad.jsonl", "{\"type\":1}\nnot json\n")], &LINES);
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with("bad.jsonl: line 2"), "{message}");
    }
}
