//! Canonical formatting of fixture files (`conform fmt`).
//!
//! A file is canonical when its bytes equal the canonical serialization of
//! its parsed value. Files that do not parse are reported and never touched;
//! rewrites go through a temporary file and a rename.

use crate::error::FixtureError;
use crate::files::write_atomically;
use crate::fixture::FixtureFile;
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
    let path = &file.path;
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => return FmtStatus::Unparsable(FixtureError::Read { path: path.clone(), message: err.to_string() }),
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            return FmtStatus::Unparsable(FixtureError::NotUtf8 {
                path: path.clone(),
                offset: err.utf8_error().valid_up_to(),
            });
        }
    };
    let parsed = match json::parse_document(&text) {
        Ok(parsed) => parsed,
        Err(err) => {
            return FmtStatus::Unparsable(FixtureError::Json {
                path: path.clone(),
                line: err.line,
                column: err.column,
                message: err.message,
            });
        }
    };
    let canonical = json::to_canonical_string(&parsed.value);
    if canonical == text {
        return FmtStatus::Canonical;
    }
    if check {
        return FmtStatus::Reformatted;
    }
    match write_atomically(path, canonical.as_bytes()) {
        Ok(()) => FmtStatus::Reformatted,
        Err(err) => FmtStatus::WriteFailed(err.to_string()),
    }
}
