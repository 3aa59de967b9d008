//! From capture files to pending fixture files, the same for every format:
//!
//! ```text
//! read ─▶ sniff ─▶ import ─▶ redact ─▶ window ─▶ reference ─▶ document ─▶ validate ─▶ lint ─▶ write (.json.new)
//! ```
//!
//! Sniffing refuses a file whose first lines show another format than
//! `--from` says (each format's [`CaptureFormat::sniff`]), naming the
//! formats that do recognize it, unless `--force-format` is given.
//! Redaction runs once over the whole capture before it is cut, so one
//! secret has one placeholder in every window. Nothing is written until
//! every document of the capture has been built, validated and linted: a
//! capture that still holds a secret-looking string writes nothing at all.

use super::{CaptureError, CaptureFormat, CapturedCase, ImportFailure, Imported, Sniff, SourceFile, Window};
use crate::json;
use crate::redact::{RedactOptions, RedactionSummary, Redactor};
use crate::review::{WriteMode, Written, write_fixture};
use crate::suite::{PortabilityNotes, Suite};
use crate::validate::schema_errors;
use serde_json::{Map, Value};
use std::collections::HashSet;
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
}

/// Everything a capture produced, before writing.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The fixtures, in order.
    pub fixtures: Vec<PreparedFixture>,
    /// Notices from the importer and the pipeline.
    pub notices: Vec<String>,
    /// Expectations that are not portable (the reference's portability
    /// notes, see [`crate::suite::RuleTrace::not_portable`]), one line each.
    pub warnings: Vec<String>,
    /// What redaction replaced.
    pub redaction: RedactionSummary,
}

/// Builds every fixture of a capture (see the module docs); writes nothing.
pub fn prepare(options: &CaptureOptions) -> Result<Prepared, CaptureError> {
    let format = options.format;
    let suite = options.suite;
    if suite.reference().is_none() {
        return Err(CaptureError::NoReference(suite.name().to_owned()));
    }
    let version = options.fixture_version.unwrap_or_else(|| suite.newest_reference_version());
    let reference = suite.reference_for(version).ok_or_else(|| {
        CaptureError::UnimplementedVersion(crate::implementation::unimplemented_version(suite, version))
    })?;
    let window_fn = match options.window {
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

    let files = read_files(&options.files)?;
    if !options.force_format {
        check_formats(suite, format, &files)?;
    }
    let Imported { cases, mut notices } = (format.import)(&files)?;
    if cases.is_empty() {
        return Err(CaptureError::Import(ImportFailure::Empty("cases")));
    }

    // Names revealed by any path in the capture are replaced everywhere,
    // including cases that precede the path.
    for case in &cases {
        redactor.learn_user_names(&case.input);
    }
    let mut fixtures = Vec::new();
    let mut warnings = Vec::new();
    let mut names = HashSet::new();
    for mut case in cases {
        redactor.scrub_value(&mut case.input);
        let base = unique_name(&format!("{}{}", options.name_prefix, redactor.scrub_text(&case.label)), &mut names);
        for part in split(&case, &base, window_fn) {
            let description = redactor.scrub_text(&describe(format, options, &case, &part));
            let mut portability = PortabilityNotes::default();
            let expected = reference(&part.input, &mut portability)
                .map_err(|message| CaptureError::Reference { name: part.name.clone(), message })?;
            warnings.extend(portability.lines().into_iter().map(|note| format!("{}: not portable: {note}", part.name)));
            let document = build_document(suite, version, &part.name, &description, &part.input, &expected)
                .map_err(|message| CaptureError::Reference { name: part.name.clone(), message })?;
            let text = json::to_canonical_string(&document);
            let target = options.out.join(format!("{}.json", part.name));
            let problems = schema_errors(suite, version, &document, &text, &target);
            if !problems.is_empty() {
                return Err(CaptureError::Invalid { name: part.name, problems });
            }
            let findings = redactor.lint(&text, &document);
            if !findings.is_empty() {
                return Err(CaptureError::SecretsRemain { name: part.name, findings });
            }
            if part.oversized {
                notices
                    .push(format!("{}: longer than --window: a tool call or sidechain spans more messages", part.name));
            }
            fixtures.push(PreparedFixture {
                name: part.name,
                target,
                document,
                text,
                items: part.items,
                oversized: part.oversized,
            });
        }
    }
    Ok(Prepared { fixtures, notices, warnings, redaction: redactor.summary() })
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

/// Refuses the first file whose first lines show another format than the
/// one asked for, naming the (suite, format) pairs that recognize it.
fn check_formats(suite: &dyn Suite, format: &CaptureFormat, files: &[SourceFile]) -> Result<(), CaptureError> {
    for file in files {
        let Sniff::Mismatch(why) = (format.sniff)(&file.text) else { continue };
        let readers: Vec<String> = super::formats()
            .into_iter()
            .filter(|(_, other)| (other.sniff)(&file.text) == Sniff::Matches)
            .map(|(owner, other)| format!("`conform capture {} --from {}`", owner.name(), other.name))
            .collect();
        return Err(CaptureError::FormatMismatch {
            path: file.path.clone(),
            format: format.name.to_owned(),
            suite: suite.name().to_owned(),
            why,
            readers: if readers.is_empty() { String::new() } else { format!("; it reads as {}", readers.join(" or ")) },
        });
    }
    Ok(())
}

fn read_files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, CaptureError> {
    paths
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path)
                .map_err(|err| ImportFailure::Read { path: path.clone(), message: err.to_string() })?;
            let text = String::from_utf8(bytes).map_err(|err| ImportFailure::Read {
                path: path.clone(),
                message: format!("not UTF-8 (byte offset {})", err.utf8_error().valid_up_to()),
            })?;
            Ok(SourceFile { path: path.clone(), text })
        })
        .collect()
}

/// One document to build: the whole case or one of its windows.
struct Part {
    name: String,
    input: Value,
    items: usize,
    /// `(number, of, first item, last item)`, for windows.
    window: Option<(usize, usize, usize, usize)>,
    oversized: bool,
}

fn split(case: &CapturedCase, base: &str, window_fn: Option<(super::WindowFn, usize)>) -> Vec<Part> {
    let windows = window_fn.map(|(cut, size)| cut(&case.input, size)).unwrap_or_default();
    if windows.len() <= 1 {
        let oversized = windows.first().is_some_and(|w| w.oversized);
        return vec![Part {
            name: base.to_owned(),
            input: case.input.clone(),
            items: case.provenance.items,
            window: None,
            oversized,
        }];
    }
    let count = windows.len();
    let width = count.to_string().len();
    windows
        .into_iter()
        .enumerate()
        .map(|(index, Window { input, first, last, oversized })| Part {
            name: format!("{base}-w{:0width$}", index + 1),
            input,
            items: last - first + 1,
            window: Some((index + 1, count, first, last)),
            oversized,
        })
        .collect()
}

/// The description: provenance, and what a reviewer must know.
fn describe(format: &CaptureFormat, options: &CaptureOptions, case: &CapturedCase, part: &Part) -> String {
    let provenance = &case.provenance;
    let mut text = format!(
        "Captured from {} (--from {}: {} {}",
        provenance.sources.join(", "),
        format.name,
        provenance.items,
        provenance.noun
    );
    if let Some(detail) = &provenance.detail {
        text.push_str(&format!("; {detail}"));
    }
    text.push(')');
    if let Some(day) = options.captured_on.as_ref().or(provenance.captured_on.as_ref()) {
        text.push_str(&format!(", captured {day}"));
    }
    text.push('.');
    if let Some((number, count, first, last)) = part.window {
        text.push_str(&format!(
            " Window {number} of {count}: {} {}–{} of the session.",
            provenance.noun,
            first + 1,
            last + 1
        ));
    }
    if crate::redact::contains_placeholder(&json::to_compact_string(&part.input)) {
        text.push_str(" Secrets and personal data are replaced by REDACTED_* placeholders.");
    }
    text.push_str(" Expected part computed by the conform reference; check it against the spec before accepting.");
    text
}

/// Assembles `{fixtureVersion, name, description, <input>, <expected>}` in
/// the suite's layout.
fn build_document(
    suite: &dyn Suite,
    version: u32,
    name: &str,
    description: &str,
    input: &Value,
    expected: &Value,
) -> Result<Value, String> {
    let mut document = Map::new();
    document.insert("fixtureVersion".to_owned(), Value::from(version));
    document.insert("name".to_owned(), Value::from(name));
    document.insert("description".to_owned(), Value::from(description));
    let document = suite
        .with_input(&Value::Object(document), input)
        .map_err(|message| format!("captures cannot build documents of suite {} {message}", suite.name()))?;
    suite.with_expected(&document, expected)
}

/// A valid, unused fixture name: characters outside `[A-Za-z0-9._-]` become
/// `-`, and a clash gets `-2`, `-3`, ….
fn unique_name(wanted: &str, taken: &mut HashSet<String>) -> String {
    let mut name = String::new();
    for c in wanted.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' };
        if !(c == '-' && name.ends_with('-')) {
            name.push(c);
        }
    }
    let name = name.trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).trim_end_matches('-');
    let name = if name.is_empty() { "capture".to_owned() } else { name.to_owned() };
    let mut candidate = name.clone();
    let mut counter = 1;
    while !taken.insert(candidate.clone()) {
        counter += 1;
        candidate = format!("{name}-{counter}");
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(unique_name("cap-Session 42/α", &mut taken), "cap-Session-42");
        assert_eq!(unique_name("cap-Session 42/β", &mut taken), "cap-Session-42-2");
        assert_eq!(unique_name("//", &mut taken), "capture");
        assert_eq!(unique_name("_x", &mut taken), "x");
    }
}
