//! Diffs between two runs (`conform compare OLD.json NEW.json`): what a pull
//! request changed about conformance.
//!
//! Each fixture is placed on one of three *standings* per run: passing
//! (`pass`, or `xpass`: the output was right), failing (`fail`, `error`,
//! `crash`, `timeout`, `protocol-error`, `xfail`) or not judged (skipped,
//! unsupported, invalid, unsupported-version). A regression is a fixture that
//! was passing and is not any more; a fix is the reverse. Fixtures failing in
//! both runs are listed when the failure itself changed (verdict, differences
//! or message), since "still red, but differently" is often the first sign
//! of a regression hidden behind a known failure. [`render`] writes the diff
//! for a terminal, a PR comment or a machine.

mod classify;
mod model;
pub mod render;

pub use classify::diff_reports;
pub use model::{CaseChange, CaseOnlyIn, CaseState, ReportDiff, RunIdentity, Standing};
