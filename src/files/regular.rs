//! Reading a file that must be a regular file of bounded size: fixture
//! documents, `VERSION` files, reports and inputs named on the command line.
//!
//! A FIFO named `x.json` would block a plain `read` forever and a symlink to
//! `/dev/zero` would fill memory; a 2 GB file would be read whole before
//! anything could refuse it. So the file is opened without blocking, its
//! type and size are checked on the open handle (no race with a rename),
//! and at most the limit is ever read.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default largest file [`read_limited`] reads for fixture documents:
/// 64 MiB (the bundled and HAPI fixtures are all under 1 MiB).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

static MAX_FILE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_FILE_BYTES);

/// The largest fixture file commands read (`--max-fixture-size`,
/// `CONFORM_MAX_FIXTURE_SIZE`, else [`DEFAULT_MAX_FILE_BYTES`]).
pub fn max_file_bytes() -> u64 {
    MAX_FILE_BYTES.load(Ordering::Relaxed)
}

/// Sets [`max_file_bytes`] for the rest of the process (the command line
/// does this once, from its flag).
pub fn set_max_file_bytes(bytes: u64) {
    MAX_FILE_BYTES.store(bytes, Ordering::Relaxed);
}

/// What raises the fixture size limit, named when a file is over it.
pub const FIXTURE_SIZE_FLAG: &str = "--max-fixture-size or CONFORM_MAX_FIXTURE_SIZE";

/// The most bytes [`read_limited`] reads of a file, and what raises that
/// bound, so that a file over it is refused with the right remedy: the
/// fixture limit for fixtures, `--max-report-size` for reports, nothing for
/// a fixed bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The most bytes read.
    pub bytes: u64,
    /// The flag (and environment variable) that raises it, if any.
    pub raised_by: Option<&'static str>,
}

impl Bound {
    /// The fixture size limit ([`max_file_bytes`]), raised by
    /// [`FIXTURE_SIZE_FLAG`]: for fixtures, baselines and decode input.
    pub fn fixture() -> Self {
        Bound { bytes: max_file_bytes(), raised_by: Some(FIXTURE_SIZE_FLAG) }
    }
}

/// A fixed bound that no flag raises.
impl From<u64> for Bound {
    fn from(bytes: u64) -> Self {
        Bound { bytes, raised_by: None }
    }
}

/// What a path is once symlinks are resolved, for discovery's notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: the only kind read.
    Regular,
    /// A folder.
    Directory,
    /// A FIFO (named pipe).
    Fifo,
    /// A character or block device.
    Device,
    /// A socket.
    Socket,
    /// A symlink whose target does not exist.
    Dangling,
    /// A symlink that leads back to itself (following it never ends).
    Loop,
    /// Something else, or unknown.
    Other,
}

impl FileKind {
    /// The kind of `path`, following symlinks.
    /// What `path` is (symlinks followed) and, for a regular file, its size.
    pub fn of_with_len(path: &Path) -> (FileKind, u64) {
        match std::fs::metadata(path) {
            Ok(metadata) => (FileKind::from_metadata(&metadata), metadata.len()),
            Err(_) => (FileKind::of(path), 0),
        }
    }

    /// What `path` is (symlinks followed).
    pub fn of(path: &Path) -> FileKind {
        match std::fs::metadata(path) {
            Ok(metadata) => FileKind::from_metadata(&metadata),
            Err(err) if err.kind() == io::ErrorKind::NotFound && path.symlink_metadata().is_ok() => FileKind::Dangling,
            Err(err) if is_loop(&err) => FileKind::Loop,
            Err(_) => FileKind::Other,
        }
    }

    fn from_metadata(metadata: &Metadata) -> FileKind {
        let kind = metadata.file_type();
        if kind.is_file() {
            return FileKind::Regular;
        }
        if kind.is_dir() {
            return FileKind::Directory;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                return FileKind::Fifo;
            }
            if kind.is_char_device() || kind.is_block_device() {
                return FileKind::Device;
            }
            if kind.is_socket() {
                return FileKind::Socket;
            }
        }
        FileKind::Other
    }

    /// Words for messages: "a FIFO", "a device", …
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Regular => "a regular file",
            FileKind::Directory => "a folder",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::Device => "a device",
            FileKind::Socket => "a socket",
            FileKind::Dangling => "a symlink to nothing",
            FileKind::Loop => "a symlink loop",
            FileKind::Other => "an entry of an unknown kind",
        }
    }
}

/// Whether `err` says symlinks led back to themselves.
#[cfg(unix)]
fn is_loop(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_loop(_: &io::Error) -> bool {
    false
}

/// Why [`read_limited`] read nothing.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file (after following symlinks).
    NotRegular(FileKind),
    /// Larger than the limit.
    TooLarge {
        /// The file's size in bytes (at least this; it may still grow).
        size: u64,
        /// The limit in bytes.
        limit: u64,
        /// What raises the limit, if anything does.
        raised_by: Option<&'static str>,
    },
    /// Opening or reading failed.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular(kind) => write!(f, "{}, not a regular file: not read", kind.describe()),
            ReadError::TooLarge { size, limit, raised_by: Some(flag) } => {
                write!(f, "{size} bytes, over the limit of {limit} bytes: not read ({flag} raise it)")
            }
            ReadError::TooLarge { size, limit, raised_by: None } => {
                write!(f, "{size} bytes, over the limit of {limit} bytes: not read")
            }
            ReadError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// Reads a regular file of at most `limit` bytes (a [`Bound`], or a fixed
/// number of bytes). Never blocks on a FIFO and never reads more than
/// `limit + 1` bytes, whatever the file is.
pub fn read_limited(path: &Path, limit: impl Into<Bound>) -> Result<Vec<u8>, ReadError> {
    let Bound { bytes: limit, raised_by } = limit.into();
    let (file, size) = open_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { size, limit, raised_by });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // The file may grow between the check and the read.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: bytes.len() as u64, limit, raised_by });
    }
    Ok(bytes)
}

/// Opens a regular file to be read in pieces, with its size: never blocks
/// on a FIFO, and refuses anything but a regular file (symlinks followed)
/// before reading a byte. The caller bounds what it reads.
pub fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let file = open_without_blocking(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    let kind = FileKind::from_metadata(&metadata);
    if kind != FileKind::Regular {
        return Err(ReadError::NotRegular(kind));
    }
    Ok((file, metadata.len()))
}

#[cfg(unix)]
fn open_without_blocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of
    // waiting for one; regular files ignore the flag.
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_within_the_limit_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        std::fs::write(&path, "{}\n").unwrap();
        assert_eq!(read_limited(&path, 3).unwrap(), b"{}\n");
        let err = read_limited(&path, 2).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { size: 3, limit: 2, raised_by: None }), "{err:?}");
        assert!(!err.to_string().contains("--max"), "a fixed bound names no flag: {err}");
        let err = read_limited(&path, Bound { bytes: 2, raised_by: Some(FIXTURE_SIZE_FLAG) }).unwrap_err();
        assert!(
            err.to_string().ends_with("not read (--max-fixture-size or CONFORM_MAX_FIXTURE_SIZE raise it)"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_folders_are_refused_without_reading() {
        let err = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(err, ReadError::NotRegular(FileKind::Device)), "{err:?}");
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(FileKind::of(&link), FileKind::Device);
        assert!(matches!(read_limited(&link, 1 << 20), Err(ReadError::NotRegular(FileKind::Device))));
        assert_eq!(FileKind::of(dir.path()), FileKind::Directory);
        let dangling = dir.path().join("gone.json");
        std::os::unix::fs::symlink(dir.path().join("missing"), &dangling).unwrap();
        assert_eq!(FileKind::of(&dangling), FileKind::Dangling);
        let looped = dir.path().join("loop.json");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert_eq!(FileKind::of(&looped), FileKind::Loop);
        let err = read_limited(&looped, 1 << 20).unwrap_err().to_string();
        assert_eq!(err.matches("not a regular file").count(), 0, "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.json");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and mode.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        assert_eq!(FileKind::of(&fifo), FileKind::Fifo);
        // With no writer, a blocking open would never return.
        assert!(matches!(read_limited(&fifo, 1 << 20), Err(ReadError::NotRegular(FileKind::Fifo))));
    }
}
