//! The seed's bash-command classifier: which shell commands are file reads,
//! and under what semantic tool name (`cat`, `grep`, `ls`, …) they show.
//!
//! Codex 0.171 reports commands wrapped in a login shell
//! (`/bin/bash -lc 'cat notes.md'`, `zsh -lc ls`), which the seed's anchored
//! patterns would never match; the wrapper is unwrapped first so the
//! classifier sees the command the agent actually ran.

use crate::suites::js::{DOT_CLASS, NON_SPACE_CLASS, SPACE_CLASS, trim};
use regex::Regex;
use std::sync::LazyLock;

/// A command the classifier recognised as a file read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRead {
    /// The semantic tool name (`cat`, `head`, `grep`, `rg`, `ls`, …).
    pub tool: String,
    /// The path or argument text the command reads (may be empty).
    pub file_path: String,
}

// `^(cat|head|tail|less|stat|file|wc)\s+(?:-[^\s]+\s+)*(.+)$`
static FILE_READER: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"^(cat|head|tail|less|stat|file|wc){SPACE_CLASS}+(?:-{NON_SPACE_CLASS}+{SPACE_CLASS}+)*({DOT_CLASS}+)$"
    ))
});

// `^(grep|rg)\s+`
static SEARCHER: LazyLock<Regex> = LazyLock::new(|| compile(&format!(r"^(grep|rg){SPACE_CLASS}+")));

// `^(find|ls|tree)(?:\s+(.*))?$`
static BROWSER: LazyLock<Regex> =
    LazyLock::new(|| compile(&format!(r"^(find|ls|tree)(?:{SPACE_CLASS}+({DOT_CLASS}*))?$")));

fn compile(pattern: &str) -> Regex {
    // The patterns are constants of this module; a test compiles every one.
    Regex::new(pattern).unwrap_or_else(|err| unreachable!("invalid built-in pattern {pattern}: {err}"))
}

/// Shells whose `-c` / `-lc` wrapper is looked through.
const WRAPPING_SHELLS: [&str; 5] = ["bash", "sh", "zsh", "dash", "ksh"];

/// The script inside a `<shell> -c|-lc|-cl '<script>'` wrapper, if `command`
/// is exactly such a wrapper (the shell may be given by path).
pub fn unwrap_shell_command(command: &str) -> Option<String> {
    let words = shlex::split(trim(command))?;
    let [shell, flag, script] = words.as_slice() else {
        return None;
    };
    let program = shell.rsplit('/').next().unwrap_or(shell);
    let wraps = WRAPPING_SHELLS.contains(&program) && matches!(flag.as_str(), "-c" | "-lc" | "-cl");
    wraps.then(|| script.clone())
}

/// The seed's `classifyBashCommand`, applied after unwrapping a login-shell
/// wrapper: `Some` for file readers (`cat`, `head`, `tail`, `less`, `stat`,
/// `file`, `wc`), searchers (`grep`, `rg`) and directory browsers (`find`,
/// `ls`, `tree`); `None` for anything else.
pub fn classify_bash_command(command: &str) -> Option<FileRead> {
    let unwrapped = unwrap_shell_command(command);
    let trimmed = trim(unwrapped.as_deref().unwrap_or(command));

    if let Some(captures) = FILE_READER.captures(trimmed) {
        let tool = captures.get(1)?.as_str().to_owned();
        let file_path = trim(captures.get(2)?.as_str()).to_owned();
        return Some(FileRead { tool, file_path });
    }
    if SEARCHER.is_match(trimmed) {
        let tool = if trimmed.starts_with("rg") { "rg" } else { "grep" };
        return Some(FileRead { tool: tool.to_owned(), file_path: String::new() });
    }
    if let Some(captures) = BROWSER.captures(trimmed) {
        let tool = captures.get(1)?.as_str().to_owned();
        let file_path = captures.get(2).map(|m| trim(m.as_str()).to_owned()).unwrap_or_default();
        return Some(FileRead { tool, file_path });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(tool: &str, file_path: &str) -> Option<FileRead> {
        Some(FileRead { tool: tool.to_owned(), file_path: file_path.to_owned() })
    }

    #[test]
    fn readers_take_the_text_after_leading_flags() {
        assert_eq!(classify_bash_command("cat -n src/main.rs"), read("cat", "src/main.rs"));
        // Only dash-words are skipped: `5` is part of the path text, as in the seed.
        assert_eq!(classify_bash_command("head -n 5 notes.md"), read("head", "5 notes.md"));
        assert_eq!(classify_bash_command("  wc -l a b  "), read("wc", "a b"));
        // `.` does not cross a line break, so a multi-line script is no read.
        assert_eq!(classify_bash_command("cat a\nrm b"), None);
    }

    #[test]
    fn searchers_and_browsers() {
        assert_eq!(classify_bash_command("rg -n foo src"), read("rg", ""));
        assert_eq!(classify_bash_command("grep -r foo ."), read("grep", ""));
        assert_eq!(classify_bash_command("ls"), read("ls", ""));
        assert_eq!(classify_bash_command("find . -name '*.rs'"), read("find", ". -name '*.rs'"));
        assert_eq!(classify_bash_command("lsof"), None);
        assert_eq!(classify_bash_command("echo hi"), None);
    }

    #[test]
    fn login_shell_wrappers_are_looked_through() {
        assert_eq!(classify_bash_command("/bin/bash -lc 'cat test.js'"), read("cat", "test.js"));
        assert_eq!(classify_bash_command("zsh -lc ls"), read("ls", ""));
        assert_eq!(classify_bash_command("bash -lc 'echo hello'"), None);
        assert_eq!(unwrap_shell_command("bash -lc 'a' extra"), None);
        assert_eq!(unwrap_shell_command("python -c 'print(1)'"), None);
        assert_eq!(unwrap_shell_command("bash -lc 'unterminated"), None);
    }
}
