//! The temporary files of atomic writes, tracked while they exist.
//!
//! A temporary file lives between its creation and the rename over its
//! target. Every live one is registered here, so that an interruption
//! (Ctrl-C, SIGTERM, SIGHUP: see [`remove_live_and_exit`]) removes it before
//! the process ends. A kill that cannot be caught (SIGKILL, a power cut)
//! leaves it behind: its name carries the writer's process id, and
//! [`sweep_leftovers`] removes the ones whose writer is gone on the next run.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use tempfile::NamedTempFile;
use walkdir::WalkDir;

/// Prefix of every temporary file conform writes.
pub const PREFIX: &str = ".conform-";
/// Suffix of every temporary file conform writes.
pub const SUFFIX: &str = ".tmp";

/// The live temporary files. Creating one, renaming one and the removal on
/// an interruption each hold the lock, so an interruption never misses a
/// file that was just created nor removes one that was just renamed.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock leaves the list as valid as before.
    LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Creates a registered temporary file in `folder`, named
/// `.conform-<pid>-<random>.tmp`.
pub(super) fn create_in(folder: &Path) -> std::io::Result<NamedTempFile> {
    let prefix = format!("{PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(SUFFIX);
    // A new file gets the mode any program's new file gets (0666 less the
    // umask), not a temporary file's private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut live = live();
    let temporary = builder.tempfile_in(folder)?;
    live.push(temporary.path().to_path_buf());
    Ok(temporary)
}

/// Renames a registered temporary file over `target` and forgets it; on
/// failure the temporary file is removed (and forgotten) too.
pub(super) fn persist(temporary: NamedTempFile, target: &Path) -> std::io::Result<()> {
    let mut live = live();
    let path = temporary.path().to_path_buf();
    let renamed = temporary.persist(target).map(drop).map_err(|err| {
        // Dropping the handed-back file removes it.
        drop(err.file);
        err.error
    });
    live.retain(|registered| *registered != path);
    renamed
}

/// Forgets a registered temporary file that is being dropped (and so
/// removed) after a failed write.
pub(super) fn discard(temporary: NamedTempFile) {
    let mut live = live();
    let path = temporary.path().to_path_buf();
    drop(temporary);
    live.retain(|registered| *registered != path);
}

/// Closes a registered temporary file, keeping it registered by path (see
/// [`super::StagedFile`]).
pub(super) fn into_path(temporary: NamedTempFile) -> tempfile::TempPath {
    temporary.into_temp_path()
}

/// Renames a registered temporary path over `target` and forgets it.
pub(super) fn persist_path(path: tempfile::TempPath, target: &Path) -> std::io::Result<()> {
    let mut live = live();
    let registered = path.to_path_buf();
    let renamed = path.persist(target).map_err(|err| {
        // Dropping the handed-back path removes the file.
        drop(err.path);
        err.error
    });
    live.retain(|known| *known != registered);
    renamed
}

/// Forgets a registered temporary path (dropping it removes the file, or it
/// was renamed already).
pub(super) fn forget(path: &Path) {
    live().retain(|known| known != path);
}

/// Removes every live temporary file and ends the process with `code`,
/// holding the lock so that no new one is created meanwhile. Called by the
/// command line's signal handler.
pub fn remove_live_and_exit(code: i32) -> ! {
    let live = live();
    for path in live.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code)
}

/// Removes the live temporary files if the lock is free, without waiting
/// and without allocating (for the out-of-memory path, where the lock may
/// be held by the thread that failed).
pub fn try_remove_live() {
    if let Ok(live) = LIVE.try_lock() {
        for path in live.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Whether a file name is one of conform's temporary files.
pub fn is_temporary_name(name: &OsStr) -> bool {
    name.to_str().is_some_and(|name| name.starts_with(PREFIX) && name.ends_with(SUFFIX))
}

/// Removes the temporary files an interrupted conform left in `roots` and
/// returns them. A folder root is looked at (and, with `recursive`, the
/// folders below it); any other path, existing or not, has its own folder
/// looked at. A file whose writer still runs (another conform command
/// writing in the same folder) is left alone.
pub fn sweep_leftovers(roots: &[PathBuf], recursive: bool) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for root in roots {
        let folder = if root.is_dir() { root.as_path() } else { root.parent().unwrap_or(Path::new(".")) };
        let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
        let depth = if root.is_dir() && recursive { usize::MAX } else { 1 };
        for entry in WalkDir::new(folder).max_depth(depth).into_iter().flatten() {
            let path = entry.path();
            if entry.file_type().is_file()
                && is_temporary_name(entry.file_name())
                && !writer_is_alive(entry.file_name())
                && !removed.iter().any(|seen| seen == path)
                && std::fs::remove_file(path).is_ok()
            {
                removed.push(path.to_path_buf());
            }
        }
    }
    removed
}

/// Whether the process that created a temporary file (its id is in the
/// name) still runs. Names without an id come from older versions, whose
/// writers are long gone.
fn writer_is_alive(name: &OsStr) -> bool {
    let Some(pid) = name
        .to_str()
        .and_then(|name| name.strip_prefix(PREFIX))
        .and_then(|rest| rest.split_once('-'))
        .and_then(|(pid, _)| pid.parse::<u32>().ok())
    else {
        return false;
    };
    if pid == std::process::id() {
        return true;
    }
    process_exists(pid)
}

#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // Signal 0 checks that the process exists without touching it; EPERM
    // means it exists under another user.
    // SAFETY: kill with signal 0 sends nothing.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_of_dead_writers_are_swept_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("chat/deep");
        std::fs::create_dir_all(&nested).unwrap();
        let old_style = nested.join(".conform-AbC123.tmp");
        // Process ids wrap long before this one.
        let dead = dir.path().join(".conform-4000000000-XyZ.tmp");
        let mine = dir.path().join(format!(".conform-{}-Q.tmp", std::process::id()));
        let other = dir.path().join(".conform-notes.txt");
        for path in [&old_style, &dead, &mine, &other] {
            std::fs::write(path, "x").unwrap();
        }
        let mut removed = sweep_leftovers(&[dir.path().to_path_buf()], true);
        removed.sort();
        let mut expected = vec![dead.clone(), old_style.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        assert!(mine.exists() && other.exists());
    }

    #[test]
    fn a_file_root_sweeps_its_own_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let beside = dir.path().join(".conform-1-a.tmp");
        let below = dir.path().join("sub/.conform-1-b.tmp");
        std::fs::write(&beside, "").unwrap();
        std::fs::write(&below, "").unwrap();
        let removed = sweep_leftovers(&[dir.path().join("report.json")], true);
        // Process 1 is init, alive: nothing of its is removed.
        assert!(removed.is_empty(), "{removed:?}");
        let gone = dir.path().join(".conform-a.tmp");
        std::fs::write(&gone, "").unwrap();
        assert_eq!(sweep_leftovers(&[dir.path().join("report.json")], true), vec![gone]);
        assert!(below.exists());
    }

    #[test]
    fn a_written_file_leaves_nothing_registered() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.json");
        super::super::write_atomically(&target, b"{}").unwrap();
        assert!(live().iter().all(|path| !path.starts_with(dir.path())));
        assert_eq!(std::fs::read(&target).unwrap(), b"{}");
    }
}
