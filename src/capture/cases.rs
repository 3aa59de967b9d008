//! The reading thread: the capture's cases in order, each scrubbed, cut
//! into windows and handed on as jobs, under a unique fixture name.

use super::document::describe;
use super::order::{Emitter, Job};
use super::pipeline::Context;
use super::windows::{indexed_case, split};
use super::{CaptureError, CapturedCase, Case};
use crate::redact::Redactor;
use std::collections::HashSet;

/// The reading thread: cases in order, scrubbed, cut and handed to workers.
pub(super) fn read_cases(
    context: &Context<'_>,
    redactor: &mut Redactor,
    cases: &mut dyn super::CaseSource,
    emitter: &mut Emitter<'_>,
) -> Result<(), CaptureError> {
    let mut names = HashSet::new();
    while let Some(case) = cases.next_case() {
        if emitter.stopped() {
            return Ok(());
        }
        match case? {
            Case::Whole(case) => whole_case(context, redactor, case, &mut names, emitter)?,
            Case::Indexed(case) => indexed_case(context, redactor, case, &mut names, emitter)?,
        }
    }
    Ok(())
}

/// A case held whole: scrubbed at once, then cut.
pub(super) fn whole_case(
    context: &Context<'_>,
    redactor: &mut Redactor,
    mut case: CapturedCase,
    names: &mut HashSet<String>,
    emitter: &mut Emitter<'_>,
) -> Result<(), CaptureError> {
    if case.provenance.items == 0 {
        // Its file holds no line of the format: a fixture of nothing.
        return Err(CaptureError::NoItems {
            sources: case.provenance.sources.join(", "),
            format: context.format.name.to_owned(),
            noun: case.provenance.noun.to_owned(),
        });
    }
    redactor.scrub_value(&mut case.input);
    let base = unique_name(&format!("{}{}", context.options.name_prefix, redactor.scrub_text(&case.label)), names);
    let input = std::mem::take(&mut case.input);
    for part in split(input, case.provenance.items, &base, context.window) {
        if emitter.stopped() {
            return Ok(());
        }
        let description =
            redactor.scrub_text(&describe(context.format, context.options, &case.provenance, part.window, &part.input));
        emitter.job(Job {
            name: part.name,
            description,
            input: part.input,
            items: part.items,
            oversized: part.oversized,
        });
    }
    Ok(())
}

/// A valid, unused fixture name: characters outside `[A-Za-z0-9._-]` become
/// `-`, and a clash gets `-2`, `-3`, ….
pub(super) fn unique_name(wanted: &str, taken: &mut HashSet<String>) -> String {
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
