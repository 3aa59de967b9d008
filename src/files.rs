//! Writing files so that an interrupted run never leaves a half-written one:
//! write a temporary file in the same folder, then rename it over the target.

use std::io::{self, Write};
use std::path::Path;

/// Atomically replaces (or creates) `path` with `contents`.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".conform-").suffix(".tmp");
    // A new file gets the mode any program's new file gets (0666 less the
    // umask), not a temporary file's private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temporary = builder.tempfile_in(folder)?;
    temporary.write_all(contents)?;
    temporary.as_file().sync_all()?;
    // Keep the permissions of the file being replaced.
    if let Ok(metadata) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(temporary.path(), metadata.permissions());
    }
    temporary.persist(path).map_err(|err| err.error)?;
    Ok(())
}
