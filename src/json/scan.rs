//! One pass over a JSON text before it is parsed. It bounds what parsing
//! may cost: nesting deeper than [`MAX_DEPTH`] and more values than
//! [`max_values`] are refused with a position before anything is built
//! (a parsed value takes about 72 bytes whatever its text, so 40 MB of
//! small numbers would otherwise take gigabytes). It also counts the
//! elements of every array and the members of every object, in the order
//! they open, so the parser allocates each at its final size instead of
//! doubling its way there.
//!
//! The pass only counts; syntax is the parser's business, and on a broken
//! text the counts are merely hints (never more than the text's length).

use super::parse::{JsonError, JsonErrorKind, MAX_DEPTH, line_column};
use std::sync::atomic::{AtomicU64, Ordering};

/// The default most values (strings, numbers, literals, arrays, objects and
/// member names) one document may hold: 2,000,000, at most about 150 MB
/// once parsed plus the text of its strings. The bundled and HAPI fixtures
/// hold under 20,000 each.
pub const DEFAULT_MAX_VALUES: u64 = 2_000_000;

static MAX_VALUES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_VALUES);

/// The most values one parsed document may hold (`--max-json-values`,
/// `CONFORM_MAX_JSON_VALUES`, else [`DEFAULT_MAX_VALUES`]).
pub fn max_values() -> u64 {
    MAX_VALUES.load(Ordering::Relaxed)
}

/// Sets [`max_values`] for the rest of the process (the command line does
/// this once, from its flag).
pub fn set_max_values(values: u64) {
    MAX_VALUES.store(values, Ordering::Relaxed);
}

/// What the pass found: the element (or member) count of each container,
/// in order of its opening bracket.
#[derive(Debug)]
pub(super) struct Shape {
    pub sizes: Vec<u32>,
}

/// Scans `text` (see the module docs).
pub(super) fn scan(text: &str, max_values: u64) -> Result<Shape, JsonError> {
    let bytes = text.as_bytes();
    // About one container per 64 bytes of pretty-printed fixture text.
    let mut sizes: Vec<u32> = Vec::with_capacity(bytes.len() / 64);
    // Open containers: index into `sizes` and whether it is an object.
    let mut open: Vec<(usize, bool)> = Vec::with_capacity(64);
    let mut values = 0u64;
    let mut in_bare = false;
    let mut offset = 0;
    while offset < bytes.len() {
        let byte = bytes[offset];
        offset += 1;
        if byte == b' ' || byte == b'\n' {
            in_bare = false;
            continue;
        }
        let at = offset - 1;
        let starts_value = match byte {
            b'"' => {
                // Jump to the closing quote: past escapes, to the first
                // quote no backslash escapes (or the end of a broken text).
                loop {
                    let Some(found) = memchr::memchr2(b'"', b'\\', &bytes[offset.min(bytes.len())..]) else {
                        offset = bytes.len();
                        break;
                    };
                    offset += found + 1;
                    if bytes[offset - 1] == b'"' {
                        break;
                    }
                    // The escaped byte.
                    offset += 1;
                }
                true
            }
            b'[' | b'{' => true,
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => !in_bare,
            _ => false,
        };
        in_bare = matches!(byte, b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z');
        if starts_value {
            values += 1;
            if values > max_values {
                return Err(too_many(text, at, max_values));
            }
            // An array counts its element values; an object its colons.
            if let Some(&(index, false)) = open.last() {
                sizes[index] = sizes[index].saturating_add(1);
            }
        }
        match byte {
            b'[' | b'{' => {
                if open.len() >= MAX_DEPTH {
                    let (line, column) = line_column(text, at);
                    return Err(JsonError {
                        kind: JsonErrorKind::TooDeep,
                        line,
                        column,
                        message: format!("nesting deeper than {MAX_DEPTH} levels"),
                    });
                }
                open.push((sizes.len(), byte == b'{'));
                sizes.push(0);
            }
            b']' | b'}' => {
                open.pop();
            }
            b':' => {
                if let Some(&(index, true)) = open.last() {
                    sizes[index] = sizes[index].saturating_add(1);
                }
            }
            _ => {}
        }
    }
    Ok(Shape { sizes })
}

fn too_many(text: &str, offset: usize, max_values: u64) -> JsonError {
    let (line, column) = line_column(text, offset);
    JsonError {
        kind: JsonErrorKind::TooManyValues,
        line,
        column,
        message: format!(
            "more than {max_values} values (strings, numbers, arrays, objects and member names) in one document; \
             --max-json-values or CONFORM_MAX_JSON_VALUES raise the limit"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_are_counted_in_opening_order() {
        let shape = scan(r#"{"a": [1, -2.5e3, "x,]"], "b": {}, "c": [[], [true, null]]}"#, 100).unwrap();
        assert_eq!(shape.sizes, [3, 3, 0, 2, 0, 2]);
    }

    #[test]
    fn strings_are_skipped_past_their_escapes() {
        let shape = scan(r#"[" [{ \" \\", "\\\"]", {"a\\": [1]}]"#, 100).unwrap();
        assert_eq!(shape.sizes, [3, 1, 1]);
        // An unterminated string runs to the end: nothing in it counts.
        let shape = scan(r#"[1, "[{"#, 100).unwrap();
        assert_eq!(shape.sizes, [2]);
        let shape = scan("[\"\\", 100).unwrap();
        assert_eq!(shape.sizes, [1]);
    }

    #[test]
    fn values_over_the_limit_are_refused_where_they_start() {
        assert!(scan("[1, 2, 3]", 4).is_ok());
        let err = scan("[1, 2, 3, 4]", 4).unwrap_err();
        assert_eq!((err.kind, err.line, err.column), (JsonErrorKind::TooManyValues, 1, 11));
        assert!(err.message.contains("CONFORM_MAX_JSON_VALUES"), "{}", err.message);
        // Member names count: one object with two members is five values.
        assert!(scan(r#"{"a": 1, "b": 2}"#, 5).is_ok());
        assert!(scan(r#"{"a": 1, "b": 2}"#, 4).is_err());
    }
}
