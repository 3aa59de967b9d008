//! Scrubbing a window's items on two threads with the result of scrubbing
//! them one after the other.

use crate::redact::Redactor;
use serde_json::Value;

/// Items this many or more are scrubbed on two threads.
pub(super) const PARALLEL_SCRUB: usize = 16;

/// Scrubs `items` as scrubbing them one after the other would. Each half is
/// first scrubbed on its own thread against the placeholders known so far
/// ([`Redactor::scrub_value_known`]): an item whose secrets all have their
/// placeholder is then done (the same text, and nothing new to number);
/// the others are scrubbed again, in order, after the items before them.
pub(super) fn scrub_in_order(redactor: &mut Redactor, items: Vec<Value>) -> Vec<Value> {
    if items.len() < PARALLEL_SCRUB {
        return items
            .into_iter()
            .map(|mut item| {
                redactor.scrub_value(&mut item);
                item
            })
            .collect();
    }
    let known: &Redactor = redactor;
    let attempt = |items: Vec<Value>| -> Vec<Result<(Value, crate::redact::Replacements), Value>> {
        items
            .into_iter()
            .map(|item| {
                let mut copy = item.clone();
                match known.scrub_value_known(&mut copy) {
                    Ok(replaced) => Ok((copy, replaced)),
                    Err(_) => Err(item),
                }
            })
            .collect()
    };
    let mut first = items;
    let second = first.split_off(first.len() / 2);
    let (first, second) = std::thread::scope(|scope| {
        let other = scope.spawn(|| attempt(second));
        let first = attempt(first);
        (first, other.join())
    });
    let second = second.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    first
        .into_iter()
        .chain(second)
        .map(|attempted| match attempted {
            Ok((item, replaced)) => {
                redactor.count(replaced);
                item
            }
            Err(mut item) => {
                redactor.scrub_value(&mut item);
                item
            }
        })
        .collect()
}
