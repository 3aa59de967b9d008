//! One document: the expected part computed by the reference, the
//! description, the suite's layout, a fixture already at the target, the
//! schema and the lint.

use super::order::Job;
use super::pipeline::Context;
use super::{CaptureError, CaptureFormat, CaptureOptions, PreparedFixture, Provenance};
use crate::json;
use crate::redact::Linter;
use crate::schema::schema_errors;
use crate::suite_api::{PortabilityNotes, Suite};
use serde_json::{Map, Value};
use std::path::Path;

/// Computes the expected part, builds the document, validates and lints it.
pub(super) fn finish(
    context: &Context<'_>,
    linter: &Linter,
    job: Job,
) -> Result<(PreparedFixture, Vec<String>), CaptureError> {
    let Job { name, description, input, items, oversized } = job;
    let mut portability = PortabilityNotes::default();
    let expected = (context.reference)(&input, &mut portability)
        .map_err(|message| CaptureError::Reference { name: name.clone(), message })?;
    let warnings = portability.lines().into_iter().map(|note| format!("{name}: not portable: {note}")).collect();
    let document = build_document(context.suite, context.version, &name, &description, input, &expected)
        .map_err(|message| CaptureError::Reference { name: name.clone(), message })?;
    let target = context.options.out.join(format!("{name}.json"));
    let (document, kept) = keep_curated(document, &target);
    let text = json::to_canonical_string(&document);
    check_size(context, &name, &text)?;
    let problems = schema_errors(context.suite, context.version, &document, &text, &target);
    if !problems.is_empty() {
        return Err(CaptureError::Invalid { name, problems });
    }
    let findings = linter.lint(&text, &document);
    if !findings.is_empty() {
        return Err(CaptureError::SecretsRemain { name, findings });
    }
    Ok((PreparedFixture { name, target, document, text, items, oversized, kept }, warnings))
}

/// Refuses a document the loader would refuse: over the largest fixture
/// conform loads ([`crate::files::max_file_bytes`]), saying how to make it
/// smaller.
fn check_size(context: &Context<'_>, name: &str, text: &str) -> Result<(), CaptureError> {
    let limit = crate::files::max_file_bytes();
    if text.len() as u64 <= limit {
        return Ok(());
    }
    let advice = match (context.format.window, context.window) {
        (Some(_), None) => "capture with --window N to cut the case into smaller fixtures".to_owned(),
        (Some(_), Some((_, size))) => format!("capture with a --window smaller than {size}"),
        (None, _) => format!(
            "--from {} cannot cut a case into windows: split the capture into smaller files, or raise \
             --max-fixture-size",
            context.format.name
        ),
    };
    Err(CaptureError::FixtureTooLarge { name: name.to_owned(), bytes: text.len(), limit, advice })
}

/// Whether the compact text of `value` holds a placeholder: placeholders
/// are made of characters the writer never escapes, and an escape breaks
/// one, so it is whether a string or member name holds one.
pub(super) fn holds_placeholder(value: &Value) -> bool {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::String(text) => crate::redact::contains_placeholder(text),
        Value::Array(items) => items.iter().any(holds_placeholder),
        Value::Object(members) => {
            members.iter().any(|(name, member)| crate::redact::contains_placeholder(name) || holds_placeholder(member))
        }
        _ => false,
    })
}

/// The description: provenance, and what a reviewer must know.
pub(super) fn describe(
    format: &CaptureFormat,
    options: &CaptureOptions,
    provenance: &Provenance,
    window: Option<(usize, usize, usize, usize)>,
    input: &Value,
) -> String {
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
    if let Some((number, count, first, last)) = window {
        text.push_str(&format!(
            " Window {number} of {count}: {} {}–{} of the session.",
            provenance.noun,
            first + 1,
            last + 1
        ));
    }
    if holds_placeholder(input) {
        text.push_str(" Secrets and personal data are replaced by REDACTED_* placeholders.");
    }
    text.push_str(" Expected part computed by the conform reference; check it against the spec before accepting.");
    text
}

/// Assembles `{fixtureVersion, name, description, <input>, <expected>}` in
/// the suite's layout. The input is dropped as soon as the document holds
/// its copy, so that at most two copies of a large input are alive at once.
pub(super) fn build_document(
    suite: &dyn Suite,
    version: u32,
    name: &str,
    description: &str,
    input: Value,
    expected: &Value,
) -> Result<Value, String> {
    let mut document = Map::new();
    document.insert("fixtureVersion".to_owned(), Value::from(version));
    document.insert("name".to_owned(), Value::from(name));
    document.insert("description".to_owned(), Value::from(description));
    let document = suite
        .with_input(&Value::Object(document), &input)
        .map_err(|message| format!("captures cannot build documents of suite {} {message}", suite.name()))?;
    drop(input);
    suite.with_expected(&document, expected)
}

/// A capture of a recording that was imported before proposes a fixture
/// where one already is: a reviewer may have written its description, or
/// added members a capture does not write. Those are curated, and kept: the
/// capture renews what it computes (the version, the name, the input and
/// expected parts) and nothing else. Returns the document and the names of
/// the members kept, or `None` when no fixture document is at `target` (one
/// that cannot be read or is not an object counts as none: the pending file
/// then shows the whole proposal).
pub(super) fn keep_curated(document: Value, target: &Path) -> (Value, Option<Vec<String>>) {
    let Ok(bytes) = crate::files::read_limited(target, crate::files::max_file_bytes()) else { return (document, None) };
    let Some(Value::Object(existing)) = std::str::from_utf8(&bytes).ok().and_then(|text| json::parse_value(text).ok())
    else {
        return (document, None);
    };
    let Value::Object(mut proposed) = document else { return (document, None) };
    let mut kept = Vec::new();
    for (key, value) in existing {
        if key == "description" || !proposed.contains_key(&key) {
            if proposed.get(&key) != Some(&value) {
                kept.push(key.clone());
            }
            proposed.insert(key, value);
        }
    }
    (Value::Object(proposed), Some(kept))
}
