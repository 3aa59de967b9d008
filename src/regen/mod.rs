//! The drift gate (`conform regen`): recompute every fixture's expected part
//! with its suite's reference and see what moved.
//!
//! When the reference normalizer changes, CI must show exactly which
//! fixtures' expectations move, and nobody may update them by accident. So
//! `regen --check` writes nothing and lists each drifted fixture with its
//! differences by JSON pointer (into the document, e.g.
//! `/expected/blocks/3/tool/state`); plain `regen` writes the recomputed
//! documents as `NAME.json.new` for review (or in place with `--accept`,
//! never in CI). Fixtures whose suite has no reference are reported as such,
//! never passed over in silence.

mod text;

pub use text::write_results;

use crate::compare::{DIFF_CONTEXT, DiffHunk, Difference, differences, text_diff, values_equal};
use crate::fixture::{Corpus, FixtureStatus, LoadedFixture};
use crate::json;
use crate::review::{ReviewError, WriteMode, Written, write_fixture};
use crate::suite_api::{PortabilityNotes, call_reference};
use std::path::PathBuf;

/// What regenerating one fixture found.
#[derive(Clone, Debug)]
pub enum RegenStatus {
    /// The reference reproduces the stored expectation.
    Clean,
    /// The reference now computes something else.
    Drifted(Box<Drift>),
    /// The fixture's suite has no reference implementation.
    NoReference,
    /// The reference failed on the fixture's input.
    ReferenceFailed(String),
    /// The fixture document is broken (one line per problem).
    Invalid(Vec<String>),
    /// The reference does not implement the fixture's version (it is read,
    /// but only an external implementation can judge it).
    Unimplemented {
        /// The fixture's version.
        found: u32,
    },
    /// The fixture's version is one the harness cannot judge.
    UnsupportedVersion {
        /// The version found.
        found: u32,
    },
}

/// How a fixture's expectation moved.
#[derive(Clone, Debug)]
pub struct Drift {
    /// Differences by JSON pointer into the document (stored → recomputed).
    pub differences: Vec<Difference>,
    /// Differences beyond those listed.
    pub omitted: usize,
    /// Line diff of the stored document (`-`) against the recomputed one (`+`).
    pub hunks: Vec<DiffHunk>,
    /// The recomputed document's canonical text.
    pub text: String,
}

/// One fixture's regeneration.
#[derive(Clone, Debug)]
pub struct RegenResult {
    /// `suite/name`.
    pub id: String,
    /// The suite.
    pub suite: &'static str,
    /// The fixture file.
    pub path: PathBuf,
    /// What was found.
    pub status: RegenStatus,
    /// The reference's portability notes on the recomputed expectation
    /// (see [`crate::suite_api::RuleTrace::not_portable`]): reasons a port
    /// following the sources' advice would compute something else.
    pub notes: Vec<String>,
    /// The fixture's description says it pins a non-portable expectation
    /// on purpose ([`NOT_PORTABLE_ON_PURPOSE`]): its notes are expected.
    pub acknowledged: bool,
}

/// The words by which a fixture's description says that it pins an
/// expectation the reference calls not portable, on purpose (the web's
/// behaviour, which the fixture exists to show): `regen` then names it in
/// one note instead of a warning per reason.
pub const NOT_PORTABLE_ON_PURPOSE: &str = "not portable on purpose";

/// Tallies of a regeneration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegenSummary {
    /// Expectations the reference reproduces.
    pub clean: usize,
    /// Expectations that moved.
    pub drifted: usize,
    /// Fixtures of suites without a reference.
    pub no_reference: usize,
    /// Fixtures of a version the reference does not implement.
    pub unimplemented: usize,
    /// Fixtures the reference failed on.
    pub failed: usize,
    /// Broken or unjudgeable fixture documents.
    pub invalid: usize,
}

impl RegenSummary {
    /// Tallies results.
    pub fn of(results: &[RegenResult]) -> RegenSummary {
        let mut summary = RegenSummary::default();
        for result in results {
            match result.status {
                RegenStatus::Clean => summary.clean += 1,
                RegenStatus::Drifted(_) => summary.drifted += 1,
                RegenStatus::NoReference => summary.no_reference += 1,
                RegenStatus::Unimplemented { .. } => summary.unimplemented += 1,
                RegenStatus::ReferenceFailed(_) => summary.failed += 1,
                RegenStatus::Invalid(_) | RegenStatus::UnsupportedVersion { .. } => summary.invalid += 1,
            }
        }
        summary
    }

    /// `73 fixtures: 61 clean, 0 drifted, 12 without a reference`.
    pub fn line(&self) -> String {
        let total = self.clean + self.drifted + self.no_reference + self.unimplemented + self.failed + self.invalid;
        let mut line = format!("{total} fixtures: {} clean, {} drifted", self.clean, self.drifted);
        if self.no_reference > 0 {
            line.push_str(&format!(", {} without a reference (not checked)", self.no_reference));
        }
        if self.unimplemented > 0 {
            line.push_str(&format!(
                ", {} of a version the reference does not implement (not checked)",
                self.unimplemented
            ));
        }
        if self.failed > 0 {
            line.push_str(&format!(", {} the reference failed on", self.failed));
        }
        if self.invalid > 0 {
            line.push_str(&format!(", {} invalid", self.invalid));
        }
        line
    }
}

/// Recomputes the expected part of each selected fixture.
pub fn regenerate(corpus: &Corpus, selected: &[usize]) -> Vec<RegenResult> {
    selected
        .iter()
        .filter_map(|&index| corpus.fixtures.get(index))
        .map(|fixture| {
            let mut notes = PortabilityNotes::default();
            let status = regenerate_one(fixture, &mut notes);
            RegenResult {
                id: fixture.id.clone(),
                suite: fixture.suite.name(),
                path: fixture.path.clone(),
                status,
                notes: notes.lines(),
                acknowledged: fixture
                    .description
                    .as_deref()
                    .is_some_and(|text| text.to_lowercase().contains(NOT_PORTABLE_ON_PURPOSE)),
            }
        })
        .collect()
}

fn regenerate_one(fixture: &LoadedFixture, notes: &mut PortabilityNotes) -> RegenStatus {
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => {
            return RegenStatus::Invalid(problems.iter().map(|p| p.to_string()).collect());
        }
        FixtureStatus::UnsupportedVersion { found, .. } => return RegenStatus::UnsupportedVersion { found: *found },
    };
    if fixture.suite.reference().is_none() {
        return RegenStatus::NoReference;
    }
    let version = fixture.version.unwrap_or(1);
    let Some(reference) = fixture.suite.reference_for(version) else {
        return RegenStatus::Unimplemented { found: version };
    };
    let recomputed = match call_reference(reference, &parts.input, notes) {
        Ok(value) => value,
        Err(failure) => return RegenStatus::ReferenceFailed(failure.to_string()),
    };
    if values_equal(&parts.expected, &recomputed) {
        return RegenStatus::Clean;
    }
    let Some(document) = &fixture.document else { return RegenStatus::Invalid(vec!["unreadable".to_owned()]) };
    let updated = match fixture.suite.with_expected(document, &recomputed) {
        Ok(updated) => updated,
        Err(message) => return RegenStatus::ReferenceFailed(message),
    };
    let (mut found, omitted) = differences(&parts.expected, &recomputed);
    let prefix = fixture.suite.expected_pointer();
    for difference in &mut found {
        difference.pointer = format!("{prefix}{}", difference.pointer);
    }
    let text = json::to_canonical_string(&updated);
    let hunks = text_diff(&json::to_canonical_string(document), &text, DIFF_CONTEXT);
    RegenStatus::Drifted(Box::new(Drift { differences: found, omitted, hunks, text }))
}

/// Writes the recomputed documents of drifted fixtures (pending or in place).
pub fn write_drifted(results: &[RegenResult], mode: WriteMode) -> Result<Vec<Written>, ReviewError> {
    let mut written = Vec::new();
    for result in results {
        if let RegenStatus::Drifted(drift) = &result.status {
            written.push(write_fixture(&result.path, &drift.text, mode)?);
        }
    }
    Ok(written)
}
