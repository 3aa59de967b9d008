//! What a capture prints: the line of each fixture written, the closing
//! summary, and the counts they need, each through the redaction rules
//! ([`Shown`]). The command prints these lines as they are.

use super::{CaptureError, CaptureOptions, PreparedFixture};
use crate::files::ShowPath;
use crate::redact::{RedactOptions, RedactionSummary, Redactor};
use crate::review::Written;
use std::path::Path;

/// The fixtures a capture wrote, counted for its summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WrittenCounts {
    /// Fixtures with no fixture at their target before.
    pub new: usize,
    /// Fixtures that change a fixture already there.
    pub changed: usize,
}

impl WrittenCounts {
    /// The line of one fixture, `new`, `changed` (a fixture was already
    /// there; its curated members are kept and named) or `unchanged`, with
    /// its path and items; counts it.
    pub fn line(&mut self, fixture: &PreparedFixture, written: &Written) -> String {
        let items = format!(" ({} items)", fixture.items);
        let path = match written {
            Written::Unchanged(path) => return format!("{:<9} {}{items}", "unchanged", path.shown()),
            Written::Pending(path) | Written::Accepted(path) => path,
        };
        let (verb, kept) = match &fixture.kept {
            None => {
                self.new += 1;
                ("new", String::new())
            }
            Some(kept) => {
                self.changed += 1;
                let kept = match kept.as_slice() {
                    [] => String::new(),
                    members => format!("; kept its curated {}", members.join(", ")),
                };
                ("changed", kept)
            }
        };
        format!("{verb:<9} {}{items}{kept}", path.shown())
    }
}

/// The closing lines: what redaction replaced, how many fixtures were
/// captured, and how to review the pending ones in `out`.
pub fn summary(written: &[Written], counts: WrittenCounts, redaction: &RedactionSummary, out: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    if redaction.total() > 0 {
        let rules: Vec<String> = redaction.replacements.iter().map(|(rule, n)| format!("{rule} {n}")).collect();
        lines.push(format!(
            "redacted {} secrets ({} distinct): {}; lint: clean",
            redaction.total(),
            redaction.distinct,
            rules.join(", ")
        ));
    } else {
        lines.push("redacted nothing; lint: clean".to_owned());
    }
    let unchanged = written.iter().filter(|outcome| matches!(outcome, Written::Unchanged(_))).count();
    lines.push(format!(
        "{} fixtures captured: {} new, {} changed, {unchanged} unchanged",
        written.len(),
        counts.new,
        counts.changed
    ));
    let pending = written.iter().filter(|outcome| matches!(outcome, Written::Pending(_))).count();
    if pending > 0 {
        let folder = out.display();
        let changes = if counts.changed > 0 {
            format!(
                " ({} of them change a fixture already there: `conform review {folder} --list` shows how)",
                counts.changed
            )
        } else {
            String::new()
        };
        lines.push(format!(
            "{pending} fixtures pending review{changes}: `conform review {folder}` accepts or rejects them"
        ));
    }
    lines
}

/// The notice of a failed capture that removed the pending files it wrote.
pub fn removed_notice(removed: usize) -> String {
    format!("removed the {removed} pending fixtures this capture had written: a capture that fails writes nothing")
}

/// The redaction rules over what a capture prints: a capture file's name can
/// hold a key (`session-ghp_….jsonl`), and every notice, error, written line
/// and review hint that names a path would print it. The capture's own
/// `--redact-rule` patterns and `--keep-personal-data` apply; one secret gets
/// one placeholder in everything the capture prints.
pub struct Shown(Redactor);

impl Shown {
    /// The rules of the capture `options` describe.
    pub fn new(options: &CaptureOptions) -> Result<Shown, CaptureError> {
        let rules =
            RedactOptions { user_rules: options.redact_rules.clone(), keep_personal_data: options.keep_personal_data };
        Ok(Shown(Redactor::with_options(&rules)?))
    }

    /// `text` with every secret replaced by a placeholder.
    pub fn text(&mut self, text: &str) -> String {
        self.0.scrub_text(text)
    }
}
