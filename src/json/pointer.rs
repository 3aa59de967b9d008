//! JSON Pointers (RFC 6901): building, splitting and locating them in text.

use super::parse::line_column;

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Appends a token to a pointer.
pub fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_token(token))
}

/// Appends an array index to a pointer.
pub fn push_index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// Splits a pointer into unescaped reference tokens. `""` is the root.
pub fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer.strip_prefix('/').unwrap_or(pointer).split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect()
}

/// The part of `pointer` below its first `depth` tokens, still escaped
/// (`""` when the pointer is not that deep): `below("/a/b/c", 1)` is `"/b/c"`.
pub fn below(pointer: &str, depth: usize) -> &str {
    pointer.match_indices('/').nth(depth).map_or("", |(at, _)| &pointer[at..])
}

/// Finds the 1-based line and column where the value at `pointer` starts in
/// the JSON `text`. Returns `None` when the pointer does not resolve (the
/// value is missing) or the text is not valid JSON along the way; callers
/// then fall back to the nearest ancestor that does resolve.
pub fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let mut scanner = Scanner { bytes: text.as_bytes(), pos: 0 };
    scanner.skip_ws();
    if scanner.peek() == Some(0xEF) && text.starts_with('\u{feff}') {
        scanner.pos += 3;
        scanner.skip_ws();
    }
    for token in tokens(pointer) {
        match scanner.peek()? {
            b'{' => scanner.enter_member(&token)?,
            b'[' => scanner.enter_element(token.parse().ok()?)?,
            _ => return None,
        }
    }
    Some(line_column(text, scanner.pos))
}

/// Like [`locate`], but falls back to the deepest ancestor that resolves.
pub fn locate_nearest(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let mut current = pointer.to_owned();
    loop {
        if let Some(found) = locate(text, &current) {
            return Some(found);
        }
        let cut = current.rfind('/')?;
        current.truncate(cut);
    }
}

/// A minimal, non-recursive JSON scanner that can skip values and find
/// members; positions are byte offsets.
struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// Reads a string literal at the cursor and returns its decoded value.
    fn read_string(&mut self) -> Option<String> {
        let start = self.pos;
        self.skip_string()?;
        let raw = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
        crate::json::parse_value(raw).ok()?.as_str().map(str::to_owned)
    }

    fn skip_string(&mut self) -> Option<()> {
        if self.peek()? != b'"' {
            return None;
        }
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => self.pos += 1,
            }
        }
    }

    /// Skips one value (of any depth) without recursion.
    fn skip_value(&mut self) -> Option<()> {
        self.skip_ws();
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'[' | b'{' => {
                    depth += 1;
                    self.pos += 1;
                }
                b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b',' | b':' if depth > 0 => self.pos += 1,
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                _ => {
                    // A scalar: advance to the next structural character.
                    while !matches!(self.peek(), None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':'))
                    {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }

    fn enter_member(&mut self, wanted: &str) -> Option<()> {
        self.expect(b'{')?;
        // The last occurrence of a duplicate key is the effective one.
        let mut found = None;
        loop {
            self.skip_ws();
            if self.peek()? == b'}' {
                break;
            }
            let key = self.read_string()?;
            self.expect(b':')?;
            self.skip_ws();
            if key == wanted {
                found = Some(self.pos);
            }
            self.skip_value()?;
            self.skip_ws();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => break,
                _ => return None,
            }
        }
        self.pos = found?;
        Some(())
    }

    fn enter_element(&mut self, index: usize) -> Option<()> {
        self.expect(b'[')?;
        for _ in 0..index {
            self.skip_ws();
            if self.peek()? == b']' {
                return None;
            }
            self.skip_value()?;
            self.expect(b',')?;
        }
        self.skip_ws();
        (self.peek()? != b']').then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "{\n    \"a\": [\n        1,\n        {\"b/c\": \"x\", \"d\": [true]}\n    ],\n    \"e~\": null\n}\n";

    #[test]
    fn below_drops_the_first_tokens_and_keeps_escapes() {
        assert_eq!(below("/a/b~1c/d", 1), "/b~1c/d");
        assert_eq!(below("/a/b~1c/d", 2), "/d");
        assert_eq!(below("/a", 1), "");
        assert_eq!(below("", 0), "");
    }

    #[test]
    fn locates_members_and_elements() {
        assert_eq!(locate(TEXT, ""), Some((1, 1)));
        assert_eq!(locate(TEXT, "/a"), Some((2, 10)));
        assert_eq!(locate(TEXT, "/a/0"), Some((3, 9)));
        assert_eq!(locate(TEXT, "/a/1/b~1c"), Some((4, 17)));
        assert_eq!(locate(TEXT, "/a/1/d/0"), Some((4, 28)));
        assert_eq!(locate(TEXT, "/e~0"), Some((6, 11)));
    }

    #[test]
    fn missing_paths_fall_back_to_the_nearest_ancestor() {
        assert_eq!(locate(TEXT, "/a/7"), None);
        assert_eq!(locate_nearest(TEXT, "/a/7/x"), Some((2, 10)));
    }

    #[test]
    fn tokens_round_trip_through_escaping() {
        let pointer = push(&push_index("", 3), "a/b~c");
        assert_eq!(pointer, "/3/a~1b~0c");
        assert_eq!(tokens(&pointer), ["3", "a/b~c"]);
    }
}
