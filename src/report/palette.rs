//! Terminal colors as a parameter, not a global: writers take a [`Palette`]
//! and tests pass [`Palette::plain`].

/// ANSI styling, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    enabled: bool,
}

/// The color decision of [`Palette::for_stdout`], from the (non-empty)
/// values of `NO_COLOR`, `FORCE_COLOR`, `CLICOLOR_FORCE` and `CLICOLOR`.
fn color_enabled(
    no_color: Option<&str>,
    force_color: Option<&str>,
    clicolor_force: Option<&str>,
    clicolor: Option<&str>,
    terminal: bool,
) -> bool {
    if no_color.is_some() {
        return false;
    }
    if force_color.is_some_and(|value| value != "0" && !value.eq_ignore_ascii_case("false"))
        || clicolor_force.is_some_and(|value| value != "0")
    {
        return true;
    }
    if clicolor == Some("0") {
        return false;
    }
    terminal
}

impl Palette {
    /// No styling.
    pub fn plain() -> Self {
        Palette { enabled: false }
    }

    /// Styling for stdout, by the usual conventions: `NO_COLOR` (set to
    /// anything non-empty) turns it off; otherwise `FORCE_COLOR` (non-empty
    /// and not `0` or `false`) or `CLICOLOR_FORCE` (non-empty and not `0`)
    /// turns it on; otherwise `CLICOLOR=0` turns it off; otherwise it is on
    /// exactly when stdout is a terminal.
    pub fn for_stdout() -> Self {
        use std::io::IsTerminal;
        let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        Palette {
            enabled: color_enabled(
                var("NO_COLOR").as_deref(),
                var("FORCE_COLOR").as_deref(),
                var("CLICOLOR_FORCE").as_deref(),
                var("CLICOLOR").as_deref(),
                std::io::stdout().is_terminal(),
            ),
        }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.enabled { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_owned() }
    }

    /// Green.
    pub fn good(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Bold red.
    pub fn bad(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// Yellow.
    pub fn warn(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Dim.
    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Bold.
    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Red (lines only in the expected text).
    pub fn removed(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// Green (lines only in the actual text).
    pub fn added(self, text: &str) -> String {
        self.paint("32", text)
    }
}

/// Text that came from an implementation (its stderr, its messages, its
/// hello), made safe to print on a terminal: control characters other than
/// tab and newline are shown instead of obeyed. C0 controls become their
/// Unicode control pictures (ESC as `␛`, CR as `␍`), DEL becomes `␡`, and
/// C1 controls are written as `\u{9b}`. Report files keep the text itself,
/// escaped as their format needs.
pub fn visible_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let obeyed = |c: char| c.is_control() && c != '\t' && c != '\n';
    if !text.chars().any(obeyed) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match u32::from(c) {
            _ if !obeyed(c) => shown.push(c),
            code @ 0..0x20 => shown.push(char::from_u32(0x2400 + code).unwrap_or('\u{fffd}')),
            0x7f => shown.push('\u{2421}'),
            code => shown.push_str(&format!("\\u{{{code:x}}}")),
        }
    }
    std::borrow::Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::{color_enabled, visible_controls};

    #[test]
    fn color_follows_no_color_force_color_and_clicolor() {
        assert!(color_enabled(None, None, None, None, true));
        assert!(!color_enabled(None, None, None, None, false));
        assert!(!color_enabled(Some("1"), Some("1"), Some("1"), None, true), "NO_COLOR wins");
        assert!(color_enabled(None, Some("1"), None, None, false));
        assert!(color_enabled(None, Some("true"), None, None, false));
        assert!(!color_enabled(None, Some("0"), None, None, false));
        assert!(!color_enabled(None, Some("false"), None, None, false));
        assert!(color_enabled(None, None, Some("1"), None, false));
        assert!(!color_enabled(None, None, Some("0"), None, false));
        assert!(!color_enabled(None, None, None, Some("0"), true));
        assert!(color_enabled(None, None, None, Some("1"), true));
    }

    #[test]
    fn control_characters_are_shown_instead_of_obeyed() {
        assert_eq!(visible_controls("\u{1b}[31mred\u{1b}[0m"), "␛[31mred␛[0m");
        assert_eq!(visible_controls("100%\rdone\u{7}\u{0}"), "100%␍done␇␀");
        assert_eq!(visible_controls("a\u{7f}b\u{9b}c"), "a␡b\\u{9b}c");
        assert_eq!(visible_controls("tab\tand\nnewline stay"), "tab\tand\nnewline stay");
        assert!(matches!(visible_controls("plain ✓"), std::borrow::Cow::Borrowed("plain ✓")));
    }
}
