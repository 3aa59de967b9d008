//! Terminal colors as a parameter, not a global: writers take a [`Palette`]
//! and tests pass [`Palette::plain`].

/// ANSI styling, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    enabled: bool,
}

impl Palette {
    /// No styling.
    pub fn plain() -> Self {
        Palette { enabled: false }
    }

    /// Styling for stdout: on for a terminal unless `NO_COLOR` is set (to
    /// anything non-empty), off otherwise.
    pub fn for_stdout() -> Self {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Palette { enabled: !no_color && std::io::stdout().is_terminal() }
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
