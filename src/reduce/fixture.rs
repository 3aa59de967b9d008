//! `conform reduce` as one flow: a loaded fixture on which an implementation
//! fails becomes a reduced, validated fixture document ready to be written
//! for review, with a summary of what was removed.

use super::document::reduced_document;
use super::shrink::{Oracle, ReduceError, ReduceRequest, Reduction, reduce};
use crate::error::FixtureError;
use crate::fixture::{FixtureStatus, LoadedFixture};
use crate::implementation::Implementation;
use crate::json;
use crate::schema::schema_errors;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// What to reduce against, and where the result goes.
#[derive(Clone, Copy, Debug)]
pub struct ReduceFixtureOptions<'a> {
    /// Name of the reduced fixture (default `<NAME>-reduced`).
    pub name: Option<&'a str>,
    /// Folder to write it to (default: the fixture's folder).
    pub out: Option<&'a std::path::Path>,
    /// At most this many implementation runs.
    pub max_tests: usize,
    /// Whether the implementation under test is an external program: it is
    /// then judged by the suite's reference where the suite has one, and the
    /// reference itself only by what the fixture stores.
    pub external: bool,
    /// Set from another thread (Ctrl-C) to stop early.
    pub cancel: Option<&'a AtomicBool>,
}

/// A reduced fixture, ready to be written.
#[derive(Clone, Debug)]
pub struct ReducedFixture {
    /// The reduction itself.
    pub reduction: Reduction,
    /// The id of the fixture it came from.
    pub original: String,
    /// The name of the implementation it was reduced against.
    pub implementation: String,
    /// The reduced fixture's name.
    pub name: String,
    /// Where it goes (`<out>/<name>.json`).
    pub target: PathBuf,
    /// Its canonical text.
    pub text: String,
}

/// Why a fixture could not be reduced.
#[derive(Debug, Error)]
pub enum ReduceFixtureError {
    /// The fixture document itself is broken.
    #[error("{}", problems_list(.0))]
    InvalidFixture(Vec<FixtureError>),
    /// The fixture's version is not one its suite can read.
    #[error("{}: fixtureVersion {found} is not supported", path.display())]
    UnsupportedVersion {
        /// The fixture file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// The reduction failed.
    #[error(transparent)]
    Reduce(#[from] ReduceError),
    /// The reduced input cannot be put back into a document.
    #[error("{0}")]
    Assemble(String),
    /// The reduced document is not a valid fixture.
    #[error("the reduced document is not a valid fixture:\n  {}", problems_list(.0))]
    InvalidResult(Vec<FixtureError>),
}

fn problems_list(problems: &[FixtureError]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  ")
}

/// Reduces `fixture` against `subject` (see the module docs); writes nothing.
pub fn reduce_fixture(
    fixture: &LoadedFixture,
    subject: &dyn Implementation,
    options: &ReduceFixtureOptions<'_>,
) -> Result<ReducedFixture, ReduceFixtureError> {
    let parts = match &fixture.status {
        FixtureStatus::Ready(parts) => parts,
        FixtureStatus::Invalid(problems) => return Err(ReduceFixtureError::InvalidFixture(problems.clone())),
        FixtureStatus::UnsupportedVersion { found, .. } => {
            return Err(ReduceFixtureError::UnsupportedVersion { path: fixture.path.clone(), found: *found });
        }
    };
    let version = fixture.version.unwrap_or(1);
    let (oracle, expectation) = match fixture.suite.reference_for(version).filter(|_| options.external) {
        Some(reference) => (Oracle::Reference(reference), "computed by the conform reference".to_owned()),
        None => (
            Oracle::Stored(parts.expected.clone()),
            format!("the stored expectation of {}, less the blocks of removed messages", fixture.id),
        ),
    };
    let original = fixture.document.as_ref().ok_or_else(|| {
        ReduceFixtureError::Assemble(format!("{}: the fixture document is missing", fixture.path.display()))
    })?;
    let request = ReduceRequest {
        suite: fixture.suite,
        fixture: &fixture.name,
        fixture_version: version,
        input: &parts.input,
        oracle,
        max_tests: options.max_tests,
        cancel: options.cancel,
        document: Some(original),
    };
    let reduction = reduce(&request, subject)?;
    let implementation = subject.info().name;

    let name = options.name.map_or_else(|| format!("{}-reduced", fixture.name), str::to_owned);
    let (items_before, items_after) = reduction.items;
    let (bytes_before, bytes_after) = reduction.bytes;
    let description = format!(
        "Reduced by conform reduce from {} against {implementation}: {} {items_before} → {items_after}, input \
         {bytes_before} → {bytes_after} bytes, same failure ({}). Expected part: {expectation}.",
        fixture.id,
        list_name(&reduction),
        reduction.failure
    );
    let document = reduced_document(fixture.suite, original, &name, &description, &reduction)
        .map_err(ReduceFixtureError::Assemble)?;
    let text = json::to_canonical_string(&document);
    let folder =
        options.out.map(PathBuf::from).or_else(|| fixture.path.parent().map(PathBuf::from)).unwrap_or_default();
    let target = folder.join(format!("{name}.json"));
    let problems = schema_errors(fixture.suite, version, &document, &text, &target);
    if !problems.is_empty() {
        return Err(ReduceFixtureError::InvalidResult(problems));
    }
    Ok(ReducedFixture { reduction, original: fixture.id.clone(), implementation, name, target, text })
}

fn list_name(reduction: &Reduction) -> String {
    reduction.list.clone().unwrap_or_else(|| "items".to_owned())
}

impl ReducedFixture {
    /// Whether the reduction removed nothing: the input is the original's
    /// (reductions only remove and shorten, so equal sizes mean equal
    /// inputs), and the original fixture already pins the failure.
    pub fn removed_nothing(&self) -> bool {
        self.reduction.bytes.0 == self.reduction.bytes.1
    }

    /// Writes what the reduction removed, for the terminal.
    pub fn write_summary(&self, out: &mut dyn Write, max_tests: usize) -> io::Result<()> {
        let reduction = &self.reduction;
        let (items_before, items_after) = reduction.items;
        let (bytes_before, bytes_after) = reduction.bytes;
        writeln!(out, "reduced {} against {} ({} runs)", self.original, self.implementation, reduction.tests)?;
        writeln!(out, "  failure: {}", reduction.failure)?;
        let bytes_removed = bytes_before.saturating_sub(bytes_after);
        match &reduction.list {
            Some(list) => writeln!(
                out,
                "  {list}: {items_before} → {items_after} ({} removed); input bytes: {bytes_before} → {bytes_after} \
                 ({bytes_removed} removed)",
                items_before - items_after,
            )?,
            // A suite without an item list (tool-policy) has no item count to show.
            None => writeln!(out, "  input bytes: {bytes_before} → {bytes_after} ({bytes_removed} removed)")?,
        }
        if reduction.budget_exhausted {
            writeln!(
                out,
                "  note: stopped early (--max-tests {max_tests} or Ctrl-C); the result is smaller, not minimal"
            )?;
        }
        Ok(())
    }
}
