//! Escaped views of a string, so that secrets hidden behind JSON escaping are
//! found too.
//!
//! Captured messages often carry JSON inside strings (a tool result that is a
//! serialized object, a stringified payload), sometimes nested twice. Inside
//! such a string a secret may be written with escapes (`\"`, `\/`, `\u002d`,
//! `\\n`) that a pattern matching the plain text would not see. A [`View`] is
//! the text with one more level of JSON string escapes decoded, plus a map
//! from every byte of the view back to the span of the original string it
//! came from, so a match in the view can be replaced in the original.
//!
//! Below the JSON levels come up to [`MAX_PERCENT_LEVELS`] levels of URL
//! percent-decoding (`sk%2Dant%2D…` in a query string or a logged URL,
//! `%252D` when encoded twice), mapped back the same way.

use std::ops::Range;

/// How many levels of nested escaping are decoded below the string itself.
pub const MAX_ESCAPE_LEVELS: usize = 3;

/// How many levels of URL percent-encoding are decoded below the JSON levels.
pub const MAX_PERCENT_LEVELS: usize = 2;

/// A string with some levels of JSON escapes decoded, and where each of its
/// bytes came from in the original.
#[derive(Clone, Debug)]
pub struct View {
    /// The decoded text.
    pub text: String,
    /// For each byte of `text`, where the span of the original that its
    /// character decodes from starts, and one more entry: where the last
    /// character's span ends. A character's span ends where the next one's
    /// starts (each escape is decoded from the bytes right after the last),
    /// so this is every span at a quarter of the room of a range per byte.
    /// `None` for the original itself (each byte comes from its own
    /// character). `u32`, half the room of `usize`: an original of more
    /// than `u32::MAX` bytes is not decoded (see [`View::decoded_by`]).
    origin: Option<Vec<u32>>,
}

impl View {
    /// The original string itself (level 0).
    pub fn identity(original: &str) -> View {
        View { text: original.to_owned(), origin: None }
    }

    /// The byte range of the original covered by `range` of this view.
    pub fn original_span(&self, range: Range<usize>) -> Option<Range<usize>> {
        if range.is_empty() {
            return None;
        }
        let Some(origin) = &self.origin else {
            // The characters the first and last byte belong to.
            if range.end > self.text.len() {
                return None;
            }
            let start = (0..=range.start).rev().find(|&at| self.text.is_char_boundary(at)).unwrap_or(0);
            let end = (range.end..=self.text.len()).find(|&at| self.text.is_char_boundary(at)).unwrap_or(range.end);
            return Some(start..end);
        };
        if range.end > self.text.len() {
            return None;
        }
        // The span of the character holding the last byte ends where the
        // next character's starts.
        let next = (range.end..=self.text.len()).find(|&at| self.text.is_char_boundary(at))?;
        Some(usize::try_from(*origin.get(range.start)?).ok()?..usize::try_from(*origin.get(next)?).ok()?)
    }

    /// The view with one more level of escapes decoded, or `None` when there
    /// is nothing left to decode.
    pub fn decode_once(&self) -> Option<View> {
        if self.text.contains('\\') { self.decoded_by(decode_at) } else { None }
    }

    /// The view with one level of URL percent-encoding decoded (`%2D` →
    /// `-`), or `None` when it holds none. Only escapes of ASCII characters
    /// are decoded: every secret pattern is ASCII, and a lone byte of a
    /// multi-byte character is no character at all.
    pub fn percent_decode_once(&self) -> Option<View> {
        if self.text.contains('%') { self.decoded_by(percent_decode_at) } else { None }
    }

    /// The view with every escape `step` knows decoded, each decoded
    /// character mapped to the original span of its escape (`None` when
    /// nothing changed).
    fn decoded_by(&self, step: fn(&str, usize) -> (char, usize)) -> Option<View> {
        let mut text = String::with_capacity(self.text.len());
        let mut origin = Vec::with_capacity(self.text.len() + 1);
        let mut end = 0;
        let mut at = 0;
        while at < self.text.len() {
            let (decoded, consumed) = step(&self.text, at);
            let Some(span) = self.original_span(at..at + consumed) else { break };
            // Offsets past u32 (an original over 4 GiB) are not decoded.
            let (Ok(start), Ok(span_end)) = (u32::try_from(span.start), u32::try_from(span.end)) else { return None };
            text.push(decoded);
            origin.extend(std::iter::repeat_n(start, decoded.len_utf8()));
            end = span_end;
            at += consumed;
        }
        origin.push(end);
        if text == self.text { None } else { Some(View { text, origin: Some(origin) }) }
    }
}

/// The character at byte `at` as it is, and its length.
fn plain_at(text: &str, at: usize) -> (char, usize) {
    let c = text[at..].chars().next().unwrap_or('\u{fffd}');
    (c, c.len_utf8().max(1))
}

/// Decodes the `%XX` escape of an ASCII character (or the plain character)
/// at byte `at`.
fn percent_decode_at(text: &str, at: usize) -> (char, usize) {
    let bytes = text.as_bytes();
    let escaped = (bytes.get(at) == Some(&b'%'))
        .then(|| bytes.get(at + 1..at + 3))
        .flatten()
        .and_then(|hex| std::str::from_utf8(hex).ok())
        .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        .filter(u8::is_ascii);
    match escaped {
        Some(byte) => (char::from(byte), 3),
        None => plain_at(text, at),
    }
}

/// Decodes the JSON escape (or plain character) at byte `at`: the decoded
/// text and how many bytes it consumed.
fn decode_at(text: &str, at: usize) -> (char, usize) {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'\\') {
        return plain_at(text, at);
    }
    let simple = match bytes.get(at + 1) {
        Some(b'"') => Some('"'),
        Some(b'\\') => Some('\\'),
        Some(b'/') => Some('/'),
        Some(b'b') => Some('\u{8}'),
        Some(b'f') => Some('\u{c}'),
        Some(b'n') => Some('\n'),
        Some(b'r') => Some('\r'),
        Some(b't') => Some('\t'),
        _ => None,
    };
    if let Some(c) = simple {
        return (c, 2);
    }
    if bytes.get(at + 1) == Some(&b'u')
        && let Some(unit) = hex4(bytes, at + 2)
    {
        if (0xD800..0xDC00).contains(&unit)
            && bytes.get(at + 6) == Some(&b'\\')
            && bytes.get(at + 7) == Some(&b'u')
            && let Some(low) = hex4(bytes, at + 8)
            && (0xDC00..0xE000).contains(&low)
        {
            let scalar = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            return (char::from_u32(scalar).unwrap_or('\u{fffd}'), 12);
        }
        // A lone surrogate cannot be a Rust char; it is never part of a
        // secret pattern, so the replacement character stands in for it.
        return (char::from_u32(u32::from(unit)).unwrap_or('\u{fffd}'), 6);
    }
    // Not a JSON escape: keep the backslash as it is.
    ('\\', 1)
}

fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = bytes.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    u16::from_str_radix(text, 16).ok()
}

/// The original and its decoded levels, shallowest first (level 0 is the
/// original itself): JSON escape levels, then percent-decoded levels of the
/// deepest of those.
pub fn views(original: &str) -> Vec<View> {
    let mut levels = Vec::new();
    for_each_view(original, |view| levels.push(view.clone()));
    levels
}

/// Visits the views [`views`] returns, in the same order, holding only the
/// one visited and the one it was decoded from: each decoded level keeps a
/// map of a `usize` per byte, so holding every level of a large document at
/// once cost tens of times its size.
pub fn for_each_view(original: &str, mut visit: impl FnMut(&View)) {
    let mut current = View::identity(original);
    visit(&current);
    let mut escape_levels = 0;
    while escape_levels < MAX_ESCAPE_LEVELS {
        let Some(next) = current.decode_once() else { break };
        current = next;
        visit(&current);
        escape_levels += 1;
    }
    for _ in 0..MAX_PERCENT_LEVELS {
        let Some(next) = current.percent_decode_once() else { break };
        current = next;
        visit(&current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_in_a_decoded_view_maps_back_to_the_escaped_original() {
        let original = r#"{\"key\":\"sk\u002dant-abc\"}"#;
        let all = views(original);
        assert_eq!(all.len(), 2);
        let decoded = &all[1];
        assert_eq!(decoded.text, r#"{"key":"sk-ant-abc"}"#);
        let start = decoded.text.find("sk-ant").unwrap_or(0);
        let span = decoded.original_span(start..start + "sk-ant-abc".len()).unwrap_or(0..0);
        assert_eq!(&original[span], r"sk\u002dant-abc");
    }

    #[test]
    fn nested_escaping_decodes_level_by_level() {
        let original = r#"{\"inner\":\"{\\\"pw\\\":\\\"x\\\\ny\\\"}\"}"#;
        let all = views(original);
        assert_eq!(all[1].text, r#"{"inner":"{\"pw\":\"x\\ny\"}"}"#);
        assert_eq!(all[2].text, "{\"inner\":\"{\"pw\":\"x\\ny\"}\"}");
        assert_eq!(all[3].text, "{\"inner\":\"{\"pw\":\"x\ny\"}\"}");
    }

    #[test]
    fn text_without_escapes_has_only_itself() {
        assert_eq!(views("plain text: ünïcode").len(), 1);
        assert_eq!(views(r"C:\Users\x").len(), 1, "invalid escapes decode to themselves");
    }

    #[test]
    fn percent_encoding_decodes_below_the_json_levels_and_maps_back() {
        let original = r#"{\"url\":\"https://x.test/?key=sk%2Dant%2Dabc&n=100%\"}"#;
        let all = views(original);
        let deepest = all.last().map(|view| view.text.as_str()).unwrap_or_default();
        assert_eq!(deepest, r#"{"url":"https://x.test/?key=sk-ant-abc&n=100%"}"#);
        let view = &all[all.len() - 1];
        let start = view.text.find("sk-ant").unwrap_or(0);
        let span = view.original_span(start..start + "sk-ant-abc".len()).unwrap_or(0..0);
        assert_eq!(&original[span], "sk%2Dant%2Dabc");
        assert_eq!(views("sk%252Dant").last().map(|view| view.text.clone()), Some("sk-ant".to_owned()));
        assert_eq!(views("100% sure, %zz and %e2%82").len(), 1, "nothing ASCII to decode");
    }

    #[test]
    fn surrogate_pairs_and_truncated_escapes_are_total() {
        let all = views(r"\ud83d\ude00 \ud800 \u12");
        assert_eq!(all[1].text, "😀 \u{fffd} \\u12");
    }
}
