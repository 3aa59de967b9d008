//! Stderr that belongs to no case: what a persistent implementation wrote
//! while no case was in flight (after a result was read and before the next
//! run request was sent, or after bye). The harness cannot tell which case,
//! if any, wrote it, so it attaches it to none; a run ends with one warning
//! that counts it and quotes its last lines.
//!
//! What the hello's start-up wrote is not counted: start-up logs are
//! normal, and a failed handshake shows them anyway.

use super::pipes::StderrExcerpt;
use std::collections::VecDeque;

/// Lines quoted in the warning.
const QUOTED_LINES: usize = 3;
/// Longest quoted line.
const QUOTED_CHARS: usize = 300;

/// Stderr written while no case was in flight, over one or more processes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrayStderr {
    /// Bytes written (kept or not).
    bytes: u64,
    /// Non-blank lines seen (of the kept text).
    lines: u64,
    /// The last non-blank lines.
    last: VecDeque<String>,
}

impl StrayStderr {
    /// Counts a stretch of stray stderr.
    pub fn add(&mut self, excerpt: StderrExcerpt) {
        self.bytes += excerpt.dropped + excerpt.text.len() as u64;
        for line in excerpt.text.lines().filter(|line| !line.trim().is_empty()) {
            self.lines += 1;
            if self.last.len() == QUOTED_LINES {
                self.last.pop_front();
            }
            self.last.push_back(cut(line.trim_end()));
        }
    }

    /// Adds what another process wrote.
    pub fn merge(&mut self, other: StrayStderr) {
        self.bytes += other.bytes;
        self.lines += other.lines;
        for line in other.last {
            if self.last.len() == QUOTED_LINES {
                self.last.pop_front();
            }
            self.last.push_back(line);
        }
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The warning, when anything was written: how much, the rule, and the
    /// last lines (one per line, after `| `).
    pub fn warning(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let amount = match self.lines {
            0 => format!("{} of blank stderr", super::options::describe_size(self.bytes)),
            1 => "1 line to stderr".to_owned(),
            n => format!("{n} lines to stderr"),
        };
        let mut warning = format!(
            "the implementation wrote {amount} while no case was in flight (after a case's result line and before the \
             next case was sent, or after bye): conform cannot tell which case wrote it, so it is attached to no \
             case (write a case's logs before its result line)"
        );
        if !self.last.is_empty() {
            let shown = if self.lines as usize > self.last.len() {
                format!("; the last {}:", self.last.len())
            } else {
                ":".to_owned()
            };
            warning.push_str(&shown);
            for line in &self.last {
                warning.push_str("\n  | ");
                warning.push_str(line);
            }
        }
        Some(warning)
    }
}

/// `line`, cut after [`QUOTED_CHARS`] characters with an ellipsis. Its
/// control characters are kept: the terminal shows them, not obeys them.
fn cut(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excerpt(text: &str, dropped: u64) -> StderrExcerpt {
        StderrExcerpt { text: text.to_owned(), dropped }
    }

    #[test]
    fn nothing_written_gives_no_warning() {
        assert_eq!(StrayStderr::default().warning(), None);
    }

    #[test]
    fn the_warning_counts_every_line_and_quotes_the_last_three() {
        let mut stray = StrayStderr::default();
        stray.add(excerpt("one\n\ntwo\n", 0));
        let mut other = StrayStderr::default();
        other.add(excerpt("three\nfour\n", 10));
        stray.merge(other);
        let warning = stray.warning().unwrap();
        assert!(warning.starts_with("the implementation wrote 4 lines to stderr while no case was in flight"));
        assert!(warning.ends_with("; the last 3:\n  | two\n  | three\n  | four"), "{warning}");
    }

    #[test]
    fn one_line_is_quoted_whole_up_to_a_bound() {
        let mut stray = StrayStderr::default();
        stray.add(excerpt(&format!("{}\n", "x".repeat(1000)), 0));
        let warning = stray.warning().unwrap();
        assert!(warning.contains("wrote 1 line to stderr"));
        let quoted = warning.rsplit("| ").next().unwrap();
        assert_eq!(quoted.chars().count(), QUOTED_CHARS + 1, "cut with an ellipsis");
    }
}
