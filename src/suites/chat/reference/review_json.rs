//! Strict JSON for codex review detection (chat-normalize §10.1).
//!
//! Review text is parsed the way `JSON.parse` parses it: number literals that
//! overflow a double become infinity (and then fail every number test), and
//! `\uD800`-style escapes become lone surrogates. The crate's document parser
//! rejects the former, and its lone-surrogate encoding does not apply to text
//! that is already decoded, so reviews get this small dedicated parser. It
//! works on UTF-16 code units, like the original.

use crate::json::{from_utf16, to_utf16};

/// A parsed JSON value as `JSON.parse` would hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Any number, possibly infinite.
    Number(f64),
    /// A string (lone surrogates in the crate's string encoding).
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object's members in source order (duplicates included).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Member lookup with `JSON.parse` semantics: the last duplicate wins.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// OBJ: an object or an array.
    pub fn is_obj(&self) -> bool {
        matches!(self, Json::Object(_) | Json::Array(_))
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, when this is a finite one.
    pub fn as_finite(&self) -> Option<f64> {
        match self {
            Json::Number(n) if n.is_finite() => Some(*n),
            _ => None,
        }
    }
}

/// `a ▸ b`: the first member that is neither absent nor null.
pub fn first_present<'a>(value: &'a Json, keys: &[&str]) -> Option<&'a Json> {
    keys.iter().filter_map(|key| value.get(key)).find(|v| !matches!(v, Json::Null))
}

/// Parses a complete JSON text; `None` on any syntax error.
pub fn parse(text: &str) -> Option<Json> {
    let units = to_utf16(text);
    let mut parser = Parser { units: &units, pos: 0 };
    parser.skip_ws();
    let value = parser.value()?;
    parser.skip_ws();
    (parser.pos == units.len()).then_some(value)
}

struct Parser<'a> {
    units: &'a [u16],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u16> {
        self.units.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(0x20 | 0x09 | 0x0A | 0x0D)) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, unit: u8) -> bool {
        if self.peek() == Some(u16::from(unit)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Option<Json> {
        for byte in word.bytes() {
            if !self.eat(byte) {
                return None;
            }
        }
        Some(value)
    }

    fn value(&mut self) -> Option<Json> {
        // Nesting is bounded by the text length; grow the stack rather than
        // overflow it on adversarial reviews.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || match self.peek()? {
            0x7B => self.object(),
            0x5B => self.array(),
            0x22 => self.string().map(Json::String),
            0x74 => self.literal("true", Json::Bool(true)),
            0x66 => self.literal("false", Json::Bool(false)),
            0x6E => self.literal("null", Json::Null),
            _ => self.number().map(Json::Number),
        })
    }

    fn object(&mut self) -> Option<Json> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.eat(b'}') {
            return Some(Json::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(0x22) {
                return None;
            }
            let key = self.string()?;
            self.skip_ws();
            if !self.eat(b':') {
                return None;
            }
            self.skip_ws();
            let value = self.value()?;
            members.push((key, value));
            self.skip_ws();
            if self.eat(b',') {
                continue;
            }
            return self.eat(b'}').then_some(Json::Object(members));
        }
    }

    fn array(&mut self) -> Option<Json> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b']') {
            return Some(Json::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            if self.eat(b',') {
                continue;
            }
            return self.eat(b']').then_some(Json::Array(items));
        }
    }

    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut out: Vec<u16> = Vec::new();
        loop {
            let unit = self.peek()?;
            self.pos += 1;
            match unit {
                0x22 => return Some(from_utf16(&out)),
                0x5C => {
                    let escaped = self.peek()?;
                    self.pos += 1;
                    let decoded = match escaped {
                        0x22 | 0x5C | 0x2F => escaped,
                        0x62 => 0x08,
                        0x66 => 0x0C,
                        0x6E => 0x0A,
                        0x72 => 0x0D,
                        0x74 => 0x09,
                        0x75 => self.hex4()?,
                        _ => return None,
                    };
                    out.push(decoded);
                }
                0x00..=0x1F => return None,
                other => out.push(other),
            }
        }
    }

    fn hex4(&mut self) -> Option<u16> {
        let digits = self.units.get(self.pos..self.pos + 4)?;
        let mut value = 0u16;
        for &unit in digits {
            let digit = char::from_u32(u32::from(unit))?.to_digit(16)?;
            value = value * 16 + digit as u16;
        }
        self.pos += 4;
        Some(value)
    }

    fn number(&mut self) -> Option<f64> {
        let start = self.pos;
        self.eat(b'-');
        match self.peek()? {
            0x30 => self.pos += 1,
            0x31..=0x39 => self.skip_digits(),
            _ => return None,
        }
        if self.eat(b'.') {
            if !self.peek().is_some_and(is_digit) {
                return None;
            }
            self.skip_digits();
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !self.peek().is_some_and(is_digit) {
                return None;
            }
            self.skip_digits();
        }
        // The lexeme is ASCII by construction; Rust's parser rounds exactly
        // like JavaScript's and overflows to infinity.
        let lexeme: String = self.units[start..self.pos].iter().map(|&u| char::from(u as u8)).collect();
        lexeme.parse().ok()
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(is_digit) {
            self.pos += 1;
        }
    }
}

fn is_digit(unit: u16) -> bool {
    (0x30..=0x39).contains(&unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::to_utf16;

    #[test]
    fn overflowing_numbers_become_infinite() {
        let value = parse(r#"{"a": 1e400, "b": -1e400, "c": 2.5}"#).unwrap();
        assert_eq!(value.get("a"), Some(&Json::Number(f64::INFINITY)));
        assert_eq!(value.get("a").and_then(Json::as_finite), None);
        assert_eq!(value.get("c").and_then(Json::as_finite), Some(2.5));
    }

    #[test]
    fn lone_surrogate_escapes_are_kept() {
        let value = parse(r#"["\ud800x"]"#).unwrap();
        let Json::Array(items) = value else { panic!("not an array") };
        assert_eq!(to_utf16(items[0].as_str().unwrap()), [0xD800, 0x78]);
    }

    #[test]
    fn strictness() {
        for bad in ["{", "{\"a\":1,}", "[01]", "{'a':1}", "\"\t\"", "1.", "{} x", "[1e]", "tru"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        assert!(parse(" {\"a\":[true,false,null,-0.5e+2]} ").unwrap().get("a").is_some());
    }

    #[test]
    fn duplicate_keys_take_the_last_value() {
        assert_eq!(parse(r#"{"a":1,"a":2}"#).unwrap().get("a"), Some(&Json::Number(2.0)));
    }
}
