//! JavaScript string semantics on top of Rust strings.
//!
//! JavaScript strings are sequences of UTF-16 code units and may hold unpaired
//! ("lone") surrogates, which JSON can carry as `\udXXX` escapes. Rust strings
//! cannot. So that such strings survive a parse/serialize round trip, a lone
//! surrogate is stored in a Rust string as two characters: [`MARK`] followed by
//! a character from Supplementary Private Use Area-B that encodes which
//! surrogate it was. A literal `MARK` in the data is stored as `MARK MARK`, so
//! the encoding is reversible for every input.
//!
//! Code that needs JavaScript lengths or positions converts with [`to_utf16`]
//! and back with [`from_utf16`]; the canonical writer decodes the marks when it
//! escapes strings.

use std::borrow::Cow;

/// Marks an encoded lone surrogate (or, doubled, a literal U+10FFFD).
pub const MARK: char = '\u{10FFFD}';

/// First character of the range that encodes surrogates U+D800..=U+DFFF.
const SURROGATE_BASE: u32 = 0x10_0000;

/// One JavaScript code unit sequence element as decoded from a Rust string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsChar {
    /// A Unicode scalar value (one or two UTF-16 code units).
    Scalar(char),
    /// An unpaired surrogate code unit.
    LoneSurrogate(u16),
}

/// Iterates over the JavaScript characters of a string, decoding marks.
pub fn js_chars(s: &str) -> impl Iterator<Item = JsChar> + '_ {
    let mut chars = s.chars().peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        if c != MARK {
            return Some(JsChar::Scalar(c));
        }
        match chars.peek().copied() {
            Some(MARK) => {
                chars.next();
                Some(JsChar::Scalar(MARK))
            }
            Some(next) if (SURROGATE_BASE..SURROGATE_BASE + 0x800).contains(&(next as u32)) => {
                chars.next();
                // The range check above keeps the value within 0xD800..=0xDFFF.
                Some(JsChar::LoneSurrogate((0xD800 + (next as u32 - SURROGATE_BASE)) as u16))
            }
            // A mark not produced by this module: treat it as itself.
            _ => Some(JsChar::Scalar(MARK)),
        }
    })
}

/// Returns the UTF-16 code units JavaScript would hold for this string.
pub fn to_utf16(s: &str) -> Vec<u16> {
    let mut units = Vec::with_capacity(s.len());
    for c in js_chars(s) {
        match c {
            JsChar::Scalar(c) => {
                let mut buf = [0u16; 2];
                units.extend_from_slice(c.encode_utf16(&mut buf));
            }
            JsChar::LoneSurrogate(unit) => units.push(unit),
        }
    }
    units
}

/// Length of the string in UTF-16 code units (JavaScript's `length`).
pub fn utf16_len(s: &str) -> usize {
    // Fast path: without marks every char is one or two units.
    if !s.contains(MARK) {
        return s.chars().map(char::len_utf16).sum();
    }
    js_chars(s)
        .map(|c| match c {
            JsChar::Scalar(c) => c.len_utf16(),
            JsChar::LoneSurrogate(_) => 1,
        })
        .sum()
}

/// Builds a string from UTF-16 code units, encoding lone surrogates.
pub fn from_utf16(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len());
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(MARK) => {
                out.push(MARK);
                out.push(MARK);
            }
            Ok(c) => out.push(c),
            Err(err) => push_lone_surrogate(&mut out, err.unpaired_surrogate()),
        }
    }
    out
}

fn push_lone_surrogate(out: &mut String, unit: u16) {
    out.push(MARK);
    let offset = u32::from(unit).saturating_sub(0xD800).min(0x7FF);
    out.push(char::from_u32(SURROGATE_BASE + offset).unwrap_or(MARK));
}

/// Rewrites JSON text so that lone-surrogate escapes (and literal marks)
/// inside strings become the mark encoding that `serde_json` can parse.
///
/// Returns the input unchanged (borrowed) in the common case where it has
/// neither a `\uD…` escape nor a literal mark.
pub(crate) fn encode_lone_surrogates(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    // Found with memchr's vectorized searches: this runs over every document read.
    let needs_work = text.contains(MARK)
        || memchr::memmem::find_iter(bytes, b"\\u").any(|at| matches!(bytes.get(at + 2), Some(b'd' | b'D')));
    if !needs_work {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_string = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if !in_string {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        match c {
            '"' => {
                in_string = false;
                out.push(c);
                rest = &rest[1..];
            }
            MARK => {
                out.push(MARK);
                out.push(MARK);
                rest = &rest[c.len_utf8()..];
            }
            '\\' => {
                if let Some(unit) = hex_escape(rest) {
                    let after = &rest[6..];
                    if (0xD800..0xDC00).contains(&unit)
                        && let Some(low) = hex_escape(after).filter(|u| (0xDC00..0xE000).contains(u))
                    {
                        let scalar = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                        if scalar == MARK as u32 {
                            out.push(MARK);
                            out.push(MARK);
                        } else {
                            out.push_str(&rest[..12]);
                        }
                        rest = &after[6..];
                        continue;
                    }
                    if (0xD800..0xE000).contains(&unit) {
                        push_lone_surrogate(&mut out, unit);
                    } else {
                        out.push_str(&rest[..6]);
                    }
                    rest = after;
                } else {
                    // Any other escape: copy the backslash and the escaped char.
                    let escaped_len = rest[1..].chars().next().map_or(0, char::len_utf8);
                    out.push_str(&rest[..1 + escaped_len]);
                    rest = &rest[1 + escaped_len..];
                }
            }
            _ => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    Cow::Owned(out)
}

/// Parses a `\uXXXX` escape at the start of `s`.
fn hex_escape(s: &str) -> Option<u16> {
    let bytes = s.as_bytes();
    if bytes.len() < 6 || bytes[0] != b'\\' || bytes[1] != b'u' {
        return None;
    }
    let hex = s.get(2..6)?;
    u16::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_round_trip_through_utf16() {
        let units = [0x61, 0xD800, 0x62, 0xDFFF, 0xD83D, 0xDE00];
        let s = from_utf16(&units);
        assert_eq!(to_utf16(&s), units);
        assert_eq!(utf16_len(&s), 6);
    }

    #[test]
    fn a_literal_mark_is_kept_distinct_from_encoded_surrogates() {
        let units: Vec<u16> = MARK.encode_utf16(&mut [0; 2]).to_vec();
        let s = from_utf16(&units);
        assert_eq!(s, format!("{MARK}{MARK}"));
        assert_eq!(to_utf16(&s), units);
    }

    #[test]
    fn json_text_without_surrogate_escapes_is_borrowed() {
        assert!(matches!(encode_lone_surrogates(r#"{"a":"\u0041"}"#), Cow::Borrowed(_)));
    }

    #[test]
    fn json_escapes_are_rewritten_only_when_unpaired() {
        let text = r#"["\ud800", "\uD83D\uDE00", "x\\ud800"]"#;
        let rewritten = encode_lone_surrogates(text);
        let value: Vec<String> = serde_json::from_str(&rewritten).unwrap();
        assert_eq!(to_utf16(&value[0]), [0xD800]);
        assert_eq!(value[1], "\u{1F600}");
        // An escaped backslash followed by "ud800" is plain text, not an escape.
        assert_eq!(value[2], "x\\ud800");
    }
}
