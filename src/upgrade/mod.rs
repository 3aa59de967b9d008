//! Moving fixtures to a newer fixtureVersion (`conform upgrade --to N`).
//!
//! A team whose fixtures say version 1 can move them forward in one reviewed
//! step: each document gets the new `fixtureVersion`, its expected part is
//! recomputed by the reference of the new version, and the result goes
//! through the usual review (`NAME.json.new`, or in place with `--accept`,
//! never in CI).
//!
//! Three outcomes per fixture:
//! - **upgraded**: the new version's reference reproduces the stored
//!   expectation, so only the version number changes;
//! - **recomputed**: the new version changes rules this case exercises (v1
//!   behaviour that v2 changes): the expectation is the new reference's, and
//!   the description says so, so the reviewer sees both the diff and why;
//! - **not upgraded**, with the reason: the suite reads no document of the
//!   new version, its reference does not implement it, the fixture is broken
//!   or already that new, the reference fails on it, or the upgraded
//!   document would not satisfy the new version's schema.
//!
//! A table document (the catalog) has no version member: in a tree without
//! a `VERSION` file it takes the highest version of the other documents, so
//! it is recomputed along with them; in a tree with a `VERSION` file it
//! follows that file, which `upgrade` leaves to the person reviewing.

mod text;

pub use text::write_results;

use crate::compare::{Difference, differences, values_equal};
use crate::fixture::{Corpus, FixtureStatus, LoadedFixture};
use crate::json;
use crate::review::{ReviewError, WriteMode, Written, write_fixture};
use crate::schema::schema_errors;
use crate::suite_api::{NoTrace, call_reference};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a fixture is not upgraded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotUpgraded {
    /// Its version is the target or newer already.
    AlreadyCurrent {
        /// The fixture's version.
        found: u32,
    },
    /// The suite reads no document of the target version.
    NoShape,
    /// The suite has no reference implementation to recompute with.
    NoReference,
    /// The reference does not implement the target version.
    Unimplemented,
    /// The fixture document is broken or of a version the harness cannot
    /// read (one line per problem).
    Invalid(Vec<String>),
    /// The target version's reference fails on the fixture's input.
    ReferenceFailed(String),
    /// The upgraded document would not satisfy the target version's schema
    /// (one line per problem).
    SchemaRejects(Vec<String>),
    /// A table document in a tree with a `VERSION` file: it follows that
    /// file, not the documents.
    FollowsVersionFile {
        /// The tree's `VERSION` file.
        version_file: PathBuf,
    },
}

impl fmt::Display for NotUpgraded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotUpgraded::AlreadyCurrent { found } => write!(f, "it is fixtureVersion {found} already"),
            NotUpgraded::NoShape => write!(f, "the suite reads no document of that version"),
            NotUpgraded::NoReference => write!(f, "the suite has no reference implementation to recompute it"),
            NotUpgraded::Unimplemented => write!(f, "the reference does not implement that version"),
            NotUpgraded::Invalid(problems) => write!(f, "the fixture is invalid: {}", problems.join("; ")),
            NotUpgraded::ReferenceFailed(message) => write!(f, "the reference failed on it: {message}"),
            NotUpgraded::SchemaRejects(problems) => {
                write!(f, "the upgraded document would not satisfy that version's schema: {}", problems.join("; "))
            }
            NotUpgraded::FollowsVersionFile { version_file } => write!(
                f,
                "a table takes its version from {}; change that file to move it (after reviewing the others)",
                version_file.display()
            ),
        }
    }
}

/// What upgrading one fixture found.
#[derive(Clone, Debug)]
pub enum UpgradeStatus {
    /// Only the version number changes.
    Upgraded {
        /// The upgraded document's canonical text.
        text: String,
    },
    /// The target version changes the expectation; it was recomputed and the
    /// description notes it.
    Recomputed {
        /// Differences of the expectation by JSON pointer into the document
        /// (stored → recomputed).
        differences: Vec<Difference>,
        /// Differences beyond those listed.
        omitted: usize,
        /// The upgraded document's canonical text.
        text: String,
    },
    /// Not upgraded, and why.
    NotUpgraded(NotUpgraded),
}

/// One fixture's upgrade.
#[derive(Clone, Debug)]
pub struct UpgradeResult {
    /// `suite/name`.
    pub id: String,
    /// The suite.
    pub suite: &'static str,
    /// The fixture file.
    pub path: PathBuf,
    /// The version it had, when it could be read.
    pub from: Option<u32>,
    /// What was found.
    pub status: UpgradeStatus,
}

impl UpgradeResult {
    /// The upgraded document's text, when there is one to write.
    pub fn text(&self) -> Option<&str> {
        match &self.status {
            UpgradeStatus::Upgraded { text } | UpgradeStatus::Recomputed { text, .. } => Some(text),
            UpgradeStatus::NotUpgraded(_) => None,
        }
    }
}

/// Tallies of an upgrade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpgradeSummary {
    /// Fixtures whose expectation carries over.
    pub upgraded: usize,
    /// Fixtures whose expectation the target version changes.
    pub recomputed: usize,
    /// Fixtures at the target version or newer already.
    pub current: usize,
    /// Fixtures that cannot be upgraded (any other reason).
    pub blocked: usize,
}

impl UpgradeSummary {
    /// Tallies results.
    pub fn of(results: &[UpgradeResult]) -> UpgradeSummary {
        let mut summary = UpgradeSummary::default();
        for result in results {
            match &result.status {
                UpgradeStatus::Upgraded { .. } => summary.upgraded += 1,
                UpgradeStatus::Recomputed { .. } => summary.recomputed += 1,
                UpgradeStatus::NotUpgraded(NotUpgraded::AlreadyCurrent { .. }) => summary.current += 1,
                UpgradeStatus::NotUpgraded(_) => summary.blocked += 1,
            }
        }
        summary
    }

    /// `60 fixtures: 52 upgraded, 3 recomputed (version 2 changes them), 5 not upgraded`.
    pub fn line(&self, target: u32) -> String {
        let total = self.upgraded + self.recomputed + self.current + self.blocked;
        let mut line = format!(
            "{total} fixtures: {} upgraded, {} recomputed (fixtureVersion {target} changes their expectation)",
            self.upgraded, self.recomputed
        );
        if self.current > 0 {
            line.push_str(&format!(", {} at version {target} or newer already", self.current));
        }
        if self.blocked > 0 {
            line.push_str(&format!(", {} cannot be upgraded", self.blocked));
        }
        line
    }
}

/// Upgrades each selected fixture of `corpus` to fixtureVersion `target`
/// (nothing is written; see [`write_upgraded`]).
pub fn upgrade(corpus: &Corpus, selected: &[usize], target: u32) -> Vec<UpgradeResult> {
    selected
        .iter()
        .filter_map(|&index| corpus.fixtures.get(index))
        .map(|fixture| UpgradeResult {
            id: fixture.id.clone(),
            suite: fixture.suite.name(),
            path: fixture.path.clone(),
            from: fixture.version,
            status: upgrade_one(fixture, target).unwrap_or_else(UpgradeStatus::NotUpgraded),
        })
        .collect()
}

/// The note added to the description of a fixture whose expectation the
/// target version changes.
pub fn recomputed_note(from: u32, target: u32) -> String {
    format!(
        "(Upgraded from fixtureVersion {from}: version {target} changes rules this case exercises, so its \
         expectation was recomputed by the version {target} reference.)"
    )
}

fn upgrade_one(fixture: &LoadedFixture, target: u32) -> Result<UpgradeStatus, NotUpgraded> {
    let suite = fixture.suite;
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => {
            return Err(NotUpgraded::Invalid(problems.iter().map(ToString::to_string).collect()));
        }
        FixtureStatus::UnsupportedVersion { found, .. } => {
            return Err(NotUpgraded::Invalid(vec![format!("fixtureVersion {found} is not supported")]));
        }
    };
    let from = fixture.version.unwrap_or(1);
    if from >= target {
        return Err(NotUpgraded::AlreadyCurrent { found: from });
    }
    if suite.schema_for(target).is_none() {
        return Err(NotUpgraded::NoShape);
    }
    if suite.reference().is_none() {
        return Err(NotUpgraded::NoReference);
    }
    if suite.is_table()
        && let Some(version_file) = version_file_of(&fixture.path)
    {
        return Err(NotUpgraded::FollowsVersionFile { version_file });
    }
    let reference = suite.reference_for(target).ok_or(NotUpgraded::Unimplemented)?;
    let recomputed = call_reference(reference, &parts.input, &mut NoTrace)
        .map_err(|failure| NotUpgraded::ReferenceFailed(failure.to_string()))?;
    let document = fixture.document.as_ref().ok_or_else(|| NotUpgraded::Invalid(vec!["unreadable".to_owned()]))?;
    let changed = !values_equal(&parts.expected, &recomputed);
    let mut upgraded = suite.with_expected(document, &recomputed).map_err(NotUpgraded::ReferenceFailed)?;
    if suite.has_envelope()
        && let Some(object) = upgraded.as_object_mut()
    {
        object.insert("fixtureVersion".to_owned(), Value::from(target));
        if changed {
            let description = object.get("description").and_then(Value::as_str).unwrap_or_default();
            let noted = format!("{} {}", description.trim_end(), recomputed_note(from, target));
            object.insert("description".to_owned(), Value::from(noted.trim_start().to_owned()));
        }
    }
    let text = json::to_canonical_string(&upgraded);
    let rejected: Vec<String> =
        schema_errors(suite, target, &upgraded, &text, &fixture.path).iter().map(ToString::to_string).collect();
    if !rejected.is_empty() {
        return Err(NotUpgraded::SchemaRejects(rejected));
    }
    if !changed {
        return Ok(UpgradeStatus::Upgraded { text });
    }
    let (mut found, omitted) = differences(&parts.expected, &recomputed);
    let prefix = suite.expected_pointer();
    for difference in &mut found {
        difference.pointer = format!("{prefix}{}", difference.pointer);
    }
    Ok(UpgradeStatus::Recomputed { differences: found, omitted, text })
}

/// The `VERSION` file of the tree holding `fixture` (`ROOT/SUITE/NAME.json`),
/// when there is one.
fn version_file_of(fixture: &Path) -> Option<PathBuf> {
    let file = fixture.parent()?.parent()?.join("VERSION");
    file.is_file().then_some(file)
}

/// Writes the upgraded documents (pending or in place). A table whose
/// recomputed text equals the stored one is left alone.
pub fn write_upgraded(results: &[UpgradeResult], mode: WriteMode) -> Result<Vec<Written>, ReviewError> {
    let mut written = Vec::new();
    for result in results {
        if let Some(text) = result.text() {
            written.push(write_fixture(&result.path, text, mode)?);
        }
    }
    Ok(written)
}
