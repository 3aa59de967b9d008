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

/// Reads every file once, in pieces: it must be a regular file (a FIFO or
/// a device is refused before a byte is read) of readable UTF-8 whose lines
/// are each at most [`max_line_bytes`] long; its first lines (the whole text
/// when they hold no JSON value, as a pretty-printed document's do) are kept
/// for sniffing. Memory stays at one piece and the first lines, whatever
/// the file holds.
pub(super) fn read_heads(paths: &[PathBuf]) -> Result<Vec<Head>, CaptureError> {
    paths.iter().map(|path| read_head(path, max_line_bytes())).collect()
}

/// The longest line a capture file may hold: the largest fixture conform
/// loads (`--max-fixture-size`, 64 MiB by default), since a fixture holding
/// the line would be longer still.
pub(super) fn max_line_bytes() -> u64 {
    crate::files::max_file_bytes()
}

fn read_head(path: &Path, max_line: u64) -> Result<Head, CaptureError> {
    let read_error = |message: String| ImportFailure::Read { path: path.to_path_buf(), message };
    let (mut file, _) = crate::files::open_regular(path).map_err(|err| read_error(err.to_string()))?;
    let mut head: Vec<u8> = Vec::new();
    let mut lines = 0;
    let mut line_bytes = 0u64;
    let mut newlines = 0usize;
    let mut carry: Vec<u8> = Vec::new();
    let mut offset = 0usize;
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut chunk).map_err(|err| read_error(err.to_string()))?;
        if read == 0 {
            break;
        }
        for piece in chunk[..read].split_inclusive(|&byte| byte == b'\n') {
            line_bytes += piece.len() as u64;
            if piece.ends_with(b"\n") {
                line_bytes -= 1;
            }
            if line_bytes > max_line {
                return Err(CaptureError::LineTooLong {
                    path: path.to_path_buf(),
                    line: newlines + 1,
                    limit: max_line,
                });
            }
            if piece.ends_with(b"\n") {
                newlines += 1;
                line_bytes = 0;
            }
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
        text = std::fs::read_to_string(path).map_err(|err| read_error(err.to_string()))?;
    }
    Ok(Head { path: path.to_path_buf(), text })
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
