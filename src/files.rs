//! Files: writing them so that an interrupted command never leaves a
//! half-written one (a temporary file in the same folder, then a rename over
//! the target; live temporary files are removed on an interruption and swept
//! on the next run, see [`sweep_leftovers`]), reading only regular files of
//! bounded size ([`read_limited`]), and showing paths on one line
//! ([`ShowPath`]).

mod regular;
mod shown;
mod temporaries;

pub use regular::{
    Bound, DEFAULT_MAX_FILE_BYTES, FIXTURE_SIZE_FLAG, FileKind, ReadError, max_file_bytes, open_regular, read_limited,
    set_max_file_bytes,
};
pub use shown::{ShowPath, Shown, one_line};
pub use temporaries::{is_temporary_name, remove_live_and_exit, sweep_leftovers, try_remove_live};

use std::io::{self, Write};
use std::path::Path;

/// Atomically replaces (or creates) `path` with `contents`.
///
/// An error names `path` (the file the user asked for), never the
/// temporary file: `cannot write reports/junit.xml: No space left on device`.
/// The contents reach the disk before the rename (`fsync`), so that a power
/// loss leaves the old file or the new one: for what the user keeps
/// (fixtures, baselines).
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_through_temporary(path, contents, Flush::ToDisk).map_err(|err| naming_target(path, &err))
}

/// Atomically replaces (or creates) the report `path` with `contents`, like
/// [`write_atomically`] but without waiting for the disk: a report is
/// rewritten by the next run, and the wait (`fsync`) took from 0.3 to 5 ms
/// of a 13 ms run here. Readers still never see a half-written report.
pub fn write_report_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_through_temporary(path, contents, Flush::ToCache).map_err(|err| naming_target(path, &err))
}

/// How far a written file goes before it is renamed over its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flush {
    /// To the disk (`fsync`).
    ToDisk,
    /// To the operating system's cache only.
    ToCache,
}

fn write_through_temporary(path: &Path, contents: &[u8], flush: Flush) -> io::Result<()> {
    let mut temporary = temporaries::create_in(folder_of(path))?;
    // Through the plain file: the temporary file's own writer would add its
    // path to the error.
    let written = temporary.as_file_mut().write_all(contents).and_then(|()| match flush {
        Flush::ToDisk => temporary.as_file().sync_all(),
        Flush::ToCache => Ok(()),
    });
    if let Err(err) = written {
        temporaries::discard(temporary);
        return Err(err);
    }
    // Keep the permissions of the file being replaced.
    if let Ok(metadata) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(temporary.path(), metadata.permissions());
    }
    temporaries::persist(temporary, path)
}

/// A report written in pieces and put in place at once: a registered
/// temporary file beside `target` (removed on an interruption, swept on the
/// next run) that [`AtomicFile::commit`] renames over it. Dropped without a
/// commit, it is removed. Like [`write_report_atomically`], it does not wait
/// for the disk.
#[derive(Debug)]
pub struct AtomicFile {
    temporary: Option<tempfile::NamedTempFile>,
    target: std::path::PathBuf,
}

impl AtomicFile {
    /// Starts writing `target` (its folder must exist).
    pub fn create(target: &Path) -> io::Result<Self> {
        let temporary = temporaries::create_in(folder_of(target)).map_err(|err| naming_target(target, &err))?;
        Ok(AtomicFile { temporary: Some(temporary), target: target.to_path_buf() })
    }

    /// The file being written.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.temporary.as_mut().expect("an uncommitted temporary file").as_file_mut()
    }

    /// Renames the file over the target. An error names the target.
    pub fn commit(mut self) -> io::Result<()> {
        let temporary = self.temporary.take().expect("an uncommitted temporary file");
        if let Ok(metadata) = std::fs::metadata(&self.target) {
            let _ = std::fs::set_permissions(temporary.path(), metadata.permissions());
        }
        temporaries::persist(temporary, &self.target).map_err(|err| naming_target(&self.target, &err))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            temporaries::discard(temporary);
        }
    }
}

/// A registered scratch file in `folder` that nothing renames: removed when
/// dropped, on an interruption, or by the next run's sweep.
pub fn scratch_file(folder: &Path) -> io::Result<ScratchFile> {
    Ok(ScratchFile { temporary: Some(temporaries::create_in(folder)?) })
}

/// See [`scratch_file`].
#[derive(Debug)]
pub struct ScratchFile {
    temporary: Option<tempfile::NamedTempFile>,
}

impl ScratchFile {
    /// The open file.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.temporary.as_mut().expect("a live scratch file").as_file_mut()
    }
}

impl Write for ScratchFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file().write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            temporaries::discard(temporary);
        }
    }
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Bytes written to a registered temporary file beside their target, to
/// be renamed over it later ([`StagedFile::commit`]) or dropped (the file is
/// then removed); an interruption removes it like any live temporary file.
/// No file handle stays open, so a command can stage many.
#[derive(Debug)]
pub struct StagedFile {
    path: Option<tempfile::TempPath>,
    target: std::path::PathBuf,
}

/// Writes `contents` to a staged file for `path` (see [`StagedFile`]).
pub fn stage(path: &Path, contents: &[u8]) -> io::Result<StagedFile> {
    let folder = folder_of(path);
    let staged = (|| {
        let mut temporary = temporaries::create_in(folder)?;
        let written = temporary.as_file_mut().write_all(contents).and_then(|()| temporary.as_file().sync_all());
        if let Err(err) = written {
            temporaries::discard(temporary);
            return Err(err);
        }
        if let Ok(metadata) = std::fs::metadata(path) {
            let _ = std::fs::set_permissions(temporary.path(), metadata.permissions());
        }
        Ok(temporaries::into_path(temporary))
    })()
    .map_err(|err| naming_target(path, &err))?;
    Ok(StagedFile { path: Some(staged), target: path.to_path_buf() })
}

impl StagedFile {
    /// Renames the staged file over its target.
    pub fn commit(mut self) -> io::Result<()> {
        let target = self.target.clone();
        match self.path.take() {
            Some(path) => temporaries::persist_path(path, &target).map_err(|err| naming_target(&target, &err)),
            None => Ok(()),
        }
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            temporaries::forget(&path);
        }
    }
}

/// The error of a write, with the target's path and the cause, and without
/// the temporary file's name (which some causes carry).
fn naming_target(path: &Path, err: &io::Error) -> io::Error {
    // The operating system's reason, from wherever it sits in the chain.
    let mut os_code = err.raw_os_error();
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    while os_code.is_none()
        && let Some(inner) = cause
    {
        os_code = inner.downcast_ref::<io::Error>().and_then(io::Error::raw_os_error);
        cause = inner.source();
    }
    let cause = match os_code {
        Some(code) => io::Error::from_raw_os_error(code).to_string(),
        None => {
            // The temporary file's library appends ` at path "…"`.
            let text = err.to_string();
            match text.find(" at path \"") {
                Some(cut) => text[..cut].to_owned(),
                None => text,
            }
        }
    };
    io::Error::new(err.kind(), format!("cannot write {}: {cause}", path.shown()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_names_the_target_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing-folder/report.json");
        let err = write_atomically(&target, b"{}").unwrap_err();
        let message = err.to_string();
        assert!(message.starts_with(&format!("cannot write {}: ", target.display())), "{message}");
        assert!(!message.contains(".conform-"), "{message}");
    }
}
