//! Paths in one-line messages: a file name may hold a newline, a carriage
//! return or an escape sequence, which must neither split the line nor act
//! on the terminal. [`ShowPath::shown`] displays a path with its control
//! characters written out (`\n`, `\r`, `\t`, `\u{1b}`).

use std::fmt;
use std::path::Path;

/// A path displayed with its control characters escaped.
pub struct Shown<'a>(&'a Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&one_line(&self.0.to_string_lossy()))
    }
}

/// `path.shown()`: the path for a one-line message.
pub trait ShowPath {
    /// The path, displayable, with control characters escaped.
    fn shown(&self) -> Shown<'_>;
}

impl<P: AsRef<Path> + ?Sized> ShowPath for P {
    fn shown(&self) -> Shown<'_> {
        Shown(self.as_ref())
    }
}

/// `text` with every control character (C0, DEL, C1) written as an escape,
/// so that it stays on one line and cannot drive a terminal. A backslash
/// is left as it is (Windows-style names stay readable).
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_paths_are_escaped() {
        let path = Path::new("chat/evil\nerror: fake\r\u{1b}[2J.json");
        assert_eq!(path.shown().to_string(), "chat/evil\\nerror: fake\\r\\u{1b}[2J.json");
        assert_eq!(Path::new("chat/plain é.json").shown().to_string(), "chat/plain é.json");
        assert_eq!(one_line("a\tb\u{9b}c\u{7f}"), "a\\tb\\u{9b}c\\u{7f}");
    }
}
