//! From capture files to pending fixture files, the same for every format:
//!
//! ```text
//! read ─▶ sniff ─▶ import ─▶ redact ─▶ window ─▶ reference ─▶ document ─▶ validate ─▶ lint ─▶ write (.json.new)
//! ```
//!
//! Every file is read once first, in pieces, to check that it is readable
//! UTF-8 and for its first lines: sniffing refuses a file whose first lines
//! show another format than `--from` says (each format's
//! [`CaptureFormat::sniff`]), naming the formats that do recognize it,
//! unless `--force-format` is given. The format then opens the files
//! ([`CaptureFormat::open`]): a case held whole, or an index whose items are
//! read back window by window ([`IndexedCase`]), and the user names of the
//! whole capture, which are learned before anything is scrubbed.
//!
//! Redaction runs in the capture's order, each item once, so one secret has
//! one placeholder in every window, numbered as if the whole capture were
//! scrubbed at once: a window whose other parts (permissions, description)
//! hold a secret not seen yet waits until the case's last item is scrubbed.
//! One thread reads and scrubs; worker threads compute each document's
//! expected part, build, validate and lint it; documents are written in
//! order as they are ready. A document that fails (its reference, its
//! validation, or the lint: a capture that still holds a secret-looking
//! string) stops the capture, and the pending files it already wrote are
//! removed: a failed capture leaves nothing of itself behind. `--accept`
//! writes in place only once every document passed (until then they wait in
//! temporary files). See `docs/captures.md`, "Large captures".

use super::inputs::{check_formats, read_heads};
use super::order::stream;
use super::{CaptureError, CaptureFormat};
use crate::redact::{RedactOptions, RedactionSummary, Redactor};
use crate::suite_api::{ReferenceFn, Suite};
use serde_json::Value;
use std::path::PathBuf;

/// What `conform capture` was asked to do.
#[derive(Clone, Debug)]
pub struct CaptureOptions {
    /// The suite the fixtures are for.
    pub suite: &'static dyn Suite,
    /// The format (`--from`).
    pub format: &'static CaptureFormat,
    /// The capture files.
    pub files: Vec<PathBuf>,
    /// The folder fixtures are written to (`--out`).
    pub out: PathBuf,
    /// Prepended to every fixture name (`--name-prefix`).
    pub name_prefix: String,
    /// Cut cases into windows of this many items (`--window`).
    pub window: Option<usize>,
    /// Extra redaction patterns (`--redact-rule`).
    pub redact_rules: Vec<String>,
    /// The fixtureVersion of the documents written (`--fixture-version`);
    /// by default the newest version the suite's reference implements.
    pub fixture_version: Option<u32>,
    /// Keep phone numbers, IP addresses and card numbers (`--keep-personal-data`).
    pub keep_personal_data: bool,
    /// Overrides the capture day the data gives (`--captured-on`).
    pub captured_on: Option<String>,
    /// Imports files whose first lines look like another format
    /// (`--force-format`).
    pub force_format: bool,
}

/// One fixture ready to be written.
#[derive(Clone, Debug)]
pub struct PreparedFixture {
    /// The fixture name.
    pub name: String,
    /// Where it goes (`<out>/<name>.json`).
    pub target: PathBuf,
    /// The document.
    pub document: Value,
    /// Its canonical text.
    pub text: String,
    /// Items it holds.
    pub items: usize,
    /// Whether its window is longer than asked (a group that must stay
    /// together is longer).
    pub oversized: bool,
    /// The curated members kept from a fixture already at the target
    /// (`description` and any member a capture does not write); `None` when
    /// there was no fixture there.
    pub kept: Option<Vec<String>>,
}

/// Everything a capture produced, before writing.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The fixtures, in order.
    pub fixtures: Vec<PreparedFixture>,
    /// Notices from the importer and the pipeline.
    pub notices: Vec<String>,
    /// Expectations that are not portable (the reference's portability
    /// notes, see [`crate::suite_api::RuleTrace::not_portable`]), one line each.
    pub warnings: Vec<String>,
    /// What redaction replaced.
    pub redaction: RedactionSummary,
}

/// Builds every fixture of a capture (see the module docs) and returns them;
/// writes nothing.
pub fn prepare(options: &CaptureOptions) -> Result<Prepared, CaptureError> {
    let mut fixtures = Vec::new();
    let mut notices = Vec::new();
    let mut warnings = Vec::new();
    let redaction = run(options, &mut |delivery| {
        match delivery {
            Delivery::Notice(text) => notices.push(text),
            Delivery::Warning(text) => warnings.push(text),
            Delivery::Fixture(fixture) => fixtures.push(fixture),
        }
        Ok(())
    })?;
    Ok(Prepared { fixtures, notices, warnings, redaction })
}

/// What the engine hands on, in order.
pub(super) enum Delivery {
    Notice(String),
    Warning(String),
    Fixture(PreparedFixture),
}

/// What every stage needs to know.
pub(super) struct Context<'a> {
    pub(super) options: &'a CaptureOptions,
    pub(super) suite: &'static dyn Suite,
    pub(super) format: &'static CaptureFormat,
    pub(super) version: u32,
    pub(super) reference: ReferenceFn,
    pub(super) window: Option<(super::WindowFn, usize)>,
}

/// The capture engine: everything up to handing documents on, in order.
pub(super) fn run(
    options: &CaptureOptions,
    deliver: &mut dyn FnMut(Delivery) -> Result<(), CaptureError>,
) -> Result<RedactionSummary, CaptureError> {
    let format = options.format;
    let suite = options.suite;
    if suite.reference().is_none() {
        return Err(CaptureError::NoReference(suite.name().to_owned()));
    }
    let version = options.fixture_version.unwrap_or_else(|| suite.newest_reference_version());
    let reference = suite.reference_for(version).ok_or_else(|| {
        CaptureError::UnimplementedVersion(crate::implementation::unimplemented_version(suite, version))
    })?;
    let window = match options.window {
        None => None,
        Some(0) => return Err(CaptureError::WindowTooSmall),
        Some(size) => {
            Some((format.window.ok_or_else(|| CaptureError::WindowUnsupported(format.name.to_owned()))?, size))
        }
    };
    let mut redactor = Redactor::with_options(&RedactOptions {
        user_rules: options.redact_rules.clone(),
        keep_personal_data: options.keep_personal_data,
    })?;

    let heads = read_heads(&options.files)?;
    if !options.force_format {
        check_formats(suite, format, &heads)?;
    }
    drop(heads);
    let names_in = |value: &Value| redactor.user_names_in(value);
    let opened = (format.open)(&options.files, &names_in)?;
    // Names revealed by any path in the capture are replaced everywhere,
    // including cases that precede the path.
    redactor.learn_names(opened.user_names);
    for notice in opened.notices {
        deliver(Delivery::Notice(notice))?;
    }
    let context = Context { options, suite, format, version, reference, window };
    let linter = redactor.linter();
    stream(&context, &mut redactor, opened.cases, &linter, deliver)?;
    Ok(redactor.summary())
}
