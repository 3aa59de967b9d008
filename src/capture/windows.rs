//! Windows: a case cut into overlapping documents of about `--window`
//! items, a case held whole at once, a case read through an index window by
//! window, each item scrubbed once and in order.

use super::cases::{unique_name, whole_case};
use super::document::describe;
use super::order::{Emitter, Job};
use super::pipeline::Context;
use super::scrub::scrub_in_order;
use super::{CaptureError, IndexedCase, Window};
use crate::redact::Redactor;
use serde_json::Value;
use std::collections::{HashSet, VecDeque};

/// One document to build: the whole case or one of its windows.
pub(super) struct Part {
    pub(super) name: String,
    pub(super) input: Value,
    pub(super) items: usize,
    /// `(number, of, first item, last item)`, for windows.
    pub(super) window: Option<(usize, usize, usize, usize)>,
    pub(super) oversized: bool,
}

/// Cuts a case's `input` (of `items` items) into its parts; a case of one
/// part is moved into it, not copied.
pub(super) fn split(input: Value, items: usize, base: &str, window_fn: Option<(super::WindowFn, usize)>) -> Vec<Part> {
    let windows = window_fn.map(|(cut, size)| cut(&input, size)).unwrap_or_default();
    if windows.len() <= 1 {
        let oversized = windows.first().is_some_and(|w| w.oversized);
        return vec![Part { name: base.to_owned(), input, items, window: None, oversized }];
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

/// A window that waits for the end of its case.
pub(super) enum Late {
    /// Its other parts hold a new secret: built from these scrubbed items.
    Items(Vec<Value>),
    /// Its description holds a new secret: this input is ready.
    Description(Value),
}

/// A case read through an index: each window's items read and scrubbed
/// once, in order (see the module docs).
pub(super) fn indexed_case(
    context: &Context<'_>,
    redactor: &mut Redactor,
    mut case: Box<dyn IndexedCase>,
    names: &mut HashSet<String>,
    emitter: &mut Emitter<'_>,
) -> Result<(), CaptureError> {
    let Some((_, size)) = context.window else {
        return whole_case(context, redactor, case.into_whole()?, names, emitter);
    };
    let windows = case.plan(size);
    // One window is the whole case; a label holding a secret not seen yet
    // is numbered after every item: both are built as the whole case.
    let label = match redactor.scrub_text_known(case.label()) {
        Ok((label, _)) if windows.len() > 1 => label,
        _ => {
            return whole_case(context, redactor, case.into_whole()?, names, emitter);
        }
    };
    let base = unique_name(&format!("{}{}", context.options.name_prefix, label), names);
    let count = windows.len();
    let width = count.to_string().len();
    let name_of = |index: usize| format!("{base}-w{:0width$}", index + 1);
    let provenance = case.provenance().clone();
    let describe_window = |index: usize, input: &Value| {
        let window = &windows[index];
        let place = Some((index + 1, count, window.first, window.last));
        describe(context.format, context.options, &provenance, place, input)
    };
    let mut cache: VecDeque<Value> = VecDeque::new();
    let mut cache_first = 0;
    let mut loaded = 0;
    let mut late: Vec<(usize, Late)> = Vec::new();
    for (index, window) in windows.iter().enumerate() {
        if emitter.stopped() {
            return Ok(());
        }
        if loaded <= window.last {
            cache.extend(scrub_in_order(redactor, case.read_items(loaded, window.last)?));
            loaded = window.last + 1;
        }
        while cache_first < window.first {
            cache.pop_front();
            cache_first += 1;
        }
        let items = || cache.iter().take(window.last + 1 - window.first).cloned().collect::<Vec<Value>>();
        match case.window_input(index, items(), redactor) {
            Ok(input) => {
                let description = describe_window(index, &input);
                match redactor.scrub_text_known(&description) {
                    Ok((description, replaced)) => {
                        redactor.count(replaced);
                        let items = window.last + 1 - window.first;
                        emitter.job(Job {
                            name: name_of(index),
                            description,
                            input,
                            items,
                            oversized: window.oversized,
                        });
                    }
                    Err(_) => late.push((index, Late::Description(input))),
                }
            }
            Err(_) => late.push((index, Late::Items(items()))),
        }
    }
    drop(cache);
    // Every item is scrubbed: the rest of the input and the label now, as
    // the whole case would have them, then the windows that waited.
    let mut rest = case.rest();
    redactor.scrub_value(&mut rest);
    redactor.scrub_text(case.label());
    for (index, waiting) in late {
        if emitter.stopped() {
            return Ok(());
        }
        let input = match waiting {
            Late::Items(items) => case.late_window_input(index, items, &rest, redactor),
            Late::Description(input) => input,
        };
        let description = redactor.scrub_text(&describe_window(index, &input));
        let window = &windows[index];
        let items = window.last + 1 - window.first;
        emitter.job(Job { name: name_of(index), description, input, items, oversized: window.oversized });
    }
    Ok(())
}
