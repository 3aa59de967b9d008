//! Helpers shared by the integration tests: running the real `conform`
//! binary and locating the HAPI corpus.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `conform` binary with `args` in `dir`.
pub fn conform(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the conform binary runs")
}

/// The process's stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The process's stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The HAPI golden corpus, or `None` (with a visible notice) when
/// `../shared` is absent.
pub fn hapi_corpus() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hapi/fixtures");
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!("note: {} not found: this HAPI-corpus test is skipped", path.display());
        None
    }
}

/// Copies a folder tree (used to alter copies of corpus files, never the originals).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walkable");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
