//! JavaScript object key order.
//!
//! JavaScript enumerates an object's own properties in a fixed order: keys that
//! look like array indices first (ascending by numeric value), then every other
//! key. The canonical fixture format sorts those other keys by UTF-16 code
//! units; `JSON.stringify` keeps them in insertion order. Both orders are
//! needed: the first for fixture bytes, the second for the chat pipeline's
//! fallback texts.

use std::cmp::Ordering;

/// The largest value JavaScript treats as an array index (2^32 - 2).
const MAX_ARRAY_INDEX: u64 = 4_294_967_294;

/// How the non-index keys of an object are ordered when it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrder {
    /// Index-like keys first, then the rest by UTF-16 code units (fixture files).
    Canonical,
    /// Index-like keys first, then the rest in insertion order (`JSON.stringify`).
    Insertion,
}

/// Returns the numeric value of `key` when JavaScript treats it as an array
/// index: a canonical decimal integer (no sign, no leading zero except `"0"`)
/// no greater than 4294967294.
pub fn array_index(key: &str) -> Option<u64> {
    let bytes = key.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return None;
    }
    let value: u64 = key.parse().ok()?;
    (value <= MAX_ARRAY_INDEX).then_some(value)
}

/// Compares two strings by UTF-16 code units, as JavaScript's default sort does.
///
/// This differs from Rust's `str` order (code points) only when one string has
/// a character above U+FFFF where the other has one in U+E000..=U+FFFF.
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Compares two keys in canonical order (index-like keys first, then UTF-16).
pub fn cmp_canonical_keys(a: &str, b: &str) -> Ordering {
    match (array_index(a), array_index(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => cmp_utf16(a, b),
    }
}

/// Orders the keys of an object for writing.
pub fn ordered_keys<'a, I>(keys: I, order: KeyOrder) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a String>,
{
    let mut keys: Vec<&str> = keys.into_iter().map(String::as_str).collect();
    match order {
        KeyOrder::Canonical => keys.sort_by(|a, b| cmp_canonical_keys(a, b)),
        // A stable sort keeps insertion order among the non-index keys.
        KeyOrder::Insertion => keys.sort_by(|a, b| match (array_index(a), array_index(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }),
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_like_keys_are_canonical_decimal_integers_in_range() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("10"), Some(10));
        assert_eq!(array_index("4294967294"), Some(4_294_967_294));
        for not_index in ["", "01", "-1", "+1", "1.0", "4294967295", "99999999999", "a1", " 1"] {
            assert_eq!(array_index(not_index), None, "{not_index:?}");
        }
    }

    #[test]
    fn canonical_order_puts_indices_first_then_utf16() {
        let keys: Vec<String> = ["b", "10", "9", "a", "01"].iter().map(|s| s.to_string()).collect();
        assert_eq!(ordered_keys(&keys, KeyOrder::Canonical), ["9", "10", "01", "a", "b"]);
    }

    #[test]
    fn insertion_order_keeps_non_index_keys_in_place() {
        let keys: Vec<String> = ["b", "a", "10", "2"].iter().map(|s| s.to_string()).collect();
        assert_eq!(ordered_keys(&keys, KeyOrder::Insertion), ["2", "10", "b", "a"]);
    }

    #[test]
    fn utf16_order_differs_from_code_point_order_above_the_bmp() {
        // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FF01.
        assert_eq!(cmp_utf16("\u{1F600}", "\u{FF01}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FF01}"), Ordering::Greater);
    }
}
