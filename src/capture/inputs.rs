//! Reading the capture files before any is imported: each must be readable
//! UTF-8, and its first lines must not show another format than `--from`.

use super::{CaptureError, CaptureFormat, ImportFailure, Sniff};
use crate::suite_api::Suite;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One capture file's first lines, for the sniffers.
pub(super) struct Head {
    pub(super) path: PathBuf,
    pub(super) text: String,
}

/// Reads every file once, in pieces: it must be readable UTF-8; its first
/// lines (the whole text when they hold no JSON value, as a pretty-printed
/// document's do) are kept for sniffing.
pub(super) fn read_heads(paths: &[PathBuf]) -> Result<Vec<Head>, CaptureError> {
    let mut heads = Vec::new();
    for path in paths {
        let read_error = |err: std::io::Error| ImportFailure::Read { path: path.clone(), message: err.to_string() };
        let mut file = std::fs::File::open(path).map_err(read_error)?;
        let mut head: Vec<u8> = Vec::new();
        let mut lines = 0;
        let mut carry: Vec<u8> = Vec::new();
        let mut offset = 0usize;
        let mut chunk = vec![0u8; 1 << 20];
        loop {
            let read = file.read(&mut chunk).map_err(read_error)?;
            if read == 0 {
                break;
            }
            let mut bytes = std::mem::take(&mut carry);
            bytes.extend_from_slice(&chunk[..read]);
            let valid = match std::str::from_utf8(&bytes) {
                Ok(_) => bytes.len(),
                Err(err) if err.error_len().is_none() => err.valid_up_to(),
                Err(err) => return Err(not_utf8(path, offset + err.valid_up_to()).into()),
            };
            if lines < sniff_lines() {
                for &byte in &bytes[..valid] {
                    head.push(byte);
                    if byte == b'\n' {
                        lines += 1;
                        if lines == sniff_lines() {
                            break;
                        }
                    }
                }
            }
            carry = bytes[valid..].to_vec();
            offset += valid;
        }
        if !carry.is_empty() {
            return Err(not_utf8(path, offset).into());
        }
        let mut text = String::from_utf8(head).map_err(|err| not_utf8(path, err.utf8_error().valid_up_to()))?;
        let whole = lines < sniff_lines();
        if !whole && crate::suite_api::capture::sniff::first_values(&text).is_empty() {
            text = std::fs::read_to_string(path).map_err(read_error)?;
        }
        heads.push(Head { path: path.clone(), text });
    }
    Ok(heads)
}

/// Lines a sniffer can look at (it takes the first values of as many).
pub(super) fn sniff_lines() -> usize {
    crate::suite_api::capture::sniff::SNIFF_LINES * 4
}

pub(super) fn not_utf8(path: &Path, offset: usize) -> ImportFailure {
    ImportFailure::Read { path: path.to_path_buf(), message: format!("not UTF-8 (byte offset {offset})") }
}

/// Refuses the first file whose first lines show another format than the
/// one asked for, naming the (suite, format) pairs that recognize it.
pub(super) fn check_formats(suite: &dyn Suite, format: &CaptureFormat, files: &[Head]) -> Result<(), CaptureError> {
    for file in files {
        let Sniff::Mismatch(why) = (format.sniff)(&file.text) else { continue };
        let readers: Vec<String> = super::formats()
            .into_iter()
            .filter(|(_, other)| (other.sniff)(&file.text) == Sniff::Matches)
            .map(|(owner, other)| format!("`conform capture {} --from {}`", owner.name(), other.name))
            .collect();
        return Err(CaptureError::FormatMismatch {
            path: file.path.clone(),
            format: format.name.to_owned(),
            suite: suite.name().to_owned(),
            why,
            readers: if readers.is_empty() { String::new() } else { format!("; it reads as {}", readers.join(" or ")) },
        });
    }
    Ok(())
}
