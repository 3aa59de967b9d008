//! Writing: fixtures as the pipeline hands them on, in order, pending
//! (`NAME.json.new`) or staged for `--accept`; a capture that fails removes
//! what it wrote.

use super::pipeline::{Delivery, Prepared, PreparedFixture, run};
use super::printed::{Shown, WrittenCounts, removed_notice, summary};
use super::{CaptureError, CaptureOptions};
use crate::files::StagedFile;
use crate::redact::RedactionSummary;
use crate::review::{WriteMode, Written, stage_fixture, write_fixture};

/// What a streaming capture tells as it goes (see [`capture`]).
pub trait Progress {
    /// Something worth telling the user (duplicates resolved, a window
    /// longer than asked, …).
    fn notice(&mut self, text: &str);
    /// An expectation that is not portable.
    fn warning(&mut self, text: &str);
    /// A fixture was written (or found unchanged): its line of the
    /// written list ([`WrittenCounts::line`]).
    fn fixture(&mut self, line: &str);
}

/// What [`capture`] did.
#[derive(Clone, Debug, Default)]
pub struct Captured {
    /// What happened to each fixture, in order.
    pub written: Vec<Written>,
    /// What redaction replaced.
    pub redaction: RedactionSummary,
    /// How many fixtures are new and how many change one already there.
    pub counts: WrittenCounts,
    /// The closing lines to print ([`summary`]).
    pub summary: Vec<String>,
}

/// Captures and writes, fixture by fixture as each is ready (see
/// [`super::pipeline`]): `NAME.json.new` (removed again if a later document
/// fails), or with [`WriteMode::Accept`] `NAME.json`, in place once every
/// document passed. Everything it tells (notices, warnings, the written
/// lines, the summary and its error) has gone through the redaction rules
/// ([`Shown`]).
pub fn capture(
    options: &CaptureOptions,
    mode: WriteMode,
    progress: &mut dyn Progress,
) -> Result<Captured, CaptureError> {
    let mut shown = Shown::new(options)?;
    let mut written: Vec<Written> = Vec::new();
    let mut counts = WrittenCounts::default();
    let mut staged: Vec<(PreparedFixture, StagedFile)> = Vec::new();
    let result = run(options, &mut |delivery| {
        match delivery {
            Delivery::Notice(text) => progress.notice(&shown.text(&text)),
            Delivery::Warning(text) => progress.warning(&shown.text(&text)),
            Delivery::Fixture(fixture) => match mode {
                WriteMode::Pending => {
                    let outcome = write_fixture(&fixture.target, &fixture.text, mode)?;
                    progress.fixture(&shown.text(&counts.line(&fixture, &outcome)));
                    written.push(outcome);
                }
                WriteMode::Accept => match stage_fixture(&fixture.target, &fixture.text)? {
                    Some(file) => staged.push((fixture, file)),
                    None => {
                        let outcome = Written::Unchanged(fixture.target.clone());
                        progress.fixture(&shown.text(&counts.line(&fixture, &outcome)));
                        written.push(outcome);
                    }
                },
            },
        }
        Ok(())
    });
    match result {
        Ok(redaction) => {
            for (fixture, file) in staged {
                let outcome = crate::review::commit_staged(&fixture.target, file)?;
                progress.fixture(&shown.text(&counts.line(&fixture, &outcome)));
                written.push(outcome);
            }
            let summary = summary(&written, counts, &redaction, &options.out);
            let summary = summary.iter().map(|line| shown.text(line)).collect();
            Ok(Captured { written, redaction, counts, summary })
        }
        Err(err) => {
            // Staged files are dropped (and removed) with `staged`.
            drop(staged);
            let removed = written
                .iter()
                .filter(|outcome| matches!(outcome, Written::Pending(path) if std::fs::remove_file(path).is_ok()))
                .count();
            if removed > 0 {
                progress.notice(&removed_notice(removed));
            }
            Err(CaptureError::Shown(shown.text(&err.to_string())))
        }
    }
}

/// Writes prepared fixtures (pending or in place). Nothing is written when
/// nothing was prepared.
pub fn write(prepared: &Prepared, mode: WriteMode) -> Result<Vec<Written>, CaptureError> {
    let mut written = Vec::new();
    for fixture in &prepared.fixtures {
        written.push(write_fixture(&fixture.target, &fixture.text, mode)?);
    }
    Ok(written)
}
