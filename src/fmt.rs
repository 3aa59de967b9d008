//! Canonical formatting of fixture files (`conform fmt`).
//!
//! A file is canonical when its bytes equal the canonical serialization of
//! its parsed value. Files that do not parse are reported and never touched;
//! rewrites go through a temporary file and a rename.

use crate::error::FixtureError;
use crate::files::write_atomically;
use crate::fixture::{FixtureFile, read_document};
use crate::json;
use std::path::PathBuf;

/// What `fmt` found (or did) for one file.
#[derive(Debug)]
pub enum FmtStatus {
    /// Already canonical.
    Canonical,
    /// Not canonical; rewritten (or, with `check`, would be).
    Reformatted,
    /// Could not be read or parsed; left untouched.
    Unparsable(FixtureError),
    /// Not canonical, and writing the canonical form failed.
    WriteFailed(String),
}

/// The status of one file.
#[derive(Debug)]
pub struct FmtResult {
    /// The file.
    pub path: PathBuf,
    /// What happened.
    pub status: FmtStatus,
}

/// Checks (and unless `check`, rewrites) each file in canonical form.
pub fn format_files(files: &[FixtureFile], check: bool) -> Vec<FmtResult> {
    files.iter().map(|file| FmtResult { path: file.path.clone(), status: format_one(file, check) }).collect()
}

fn format_one(file: &FixtureFile, check: bool) -> FmtStatus {
    let (text, parsed) = match read_document(&file.path) {
        Ok(read) => read,
        Err(err) => return FmtStatus::Unparsable(err),
    };
    let canonical = json::to_canonical_string(&parsed.value);
    if canonical == text {
        return FmtStatus::Canonical;
    }
    if check {
        return FmtStatus::Reformatted;
    }
    match write_atomically(&file.path, canonical.as_bytes()) {
        Ok(()) => FmtStatus::Reformatted,
        Err(err) => FmtStatus::WriteFailed(err.to_string()),
    }
}
