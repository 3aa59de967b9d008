//! Known-failure baselines: a checked-in TOML file listing the fixtures an
//! implementation does not pass yet, each with a reason.
//!
//! A CI gate that stays red until everything passes gets switched off; one
//! that only catches changes stays on. With a baseline, listed fixtures that
//! fail as listed are `xfail` and do not fail the run, while listed fixtures
//! that pass (`xpass`), entries that name no fixture and entries past their
//! expiry date do, so the file cannot silently rot. [`Baseline`] reads the
//! format, [`apply()`] reclassifies a run, and [`write_baseline`] produces a
//! baseline from a run for adoption.

mod apply;
mod file;
mod write;

pub use crate::report::{BaselineSummary, ChangedCase, EntryOutcome, EntryStatus};
pub use apply::{BaselineRun, KnownFixtures, apply};
pub use file::{BASELINE_FORMAT_VERSION, BASELINE_VERDICTS, Baseline, BaselineError, Entry};
pub use write::{ReportRead, WrittenBaseline, report_read, write_baseline};
