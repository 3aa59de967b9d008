//! The `pagination` reference: the message-window store driven by an op
//! script.
//!
//! Stages, one module each: [`row`] (rows, predicates, display order),
//! [`merge`] (the merge every mutation uses), [`trim`] (reasoning collapse and
//! window limits), [`page`] (requests and scripted pages), [`store`] (state
//! and operations), [`script`] (op replay and per-op expectations) and
//! [`projection`] (`expectedState`).
//!
//! The store asks the chat pipeline one question, whether a row renders; it
//! does not keep its own copy of those rules. That question is the only
//! difference between fixtureVersions 1 and 2: it is asked of the chat
//! normalizer of the document's version, so a codex `display-links` row
//! renders in version 2 when it has a valid link or text (v2.md D9) and is
//! hidden in version 1.
//!
//! # Where the reference follows the web pipeline's quirks
//!
//! - **Ties broken by id.** Rows that tie on position are ordered by
//!   `localeCompare`, the ICU root collation V8 ships
//!   ([`crate::suites::js::locale_compare`]): case-insensitive first, lower
//!   case before upper case on a tie, punctuation as ICU orders it (`_`
//!   before `-` before `.`, all before digits and letters). The HAPI fixture
//!   README asks native ports for a code-unit comparison here, so whenever
//!   the collation decides an order that a code-unit comparison would not,
//!   the window raises a portability note
//!   ([`crate::suite_api::RuleTrace::not_portable`]) and `regen` and `capture`
//!   warn that the fixture is not portable ([`row::sort_rows`]).
//! - **Duplicate ids, then a latest page.** The web pipeline snapshots the
//!   window by id when it sends a latest request and merges back, over the
//!   response, every non-optimistic row that is not the snapshot's row for
//!   its id. With two rows sharing an id (a delivery into an empty window
//!   keeps both) the snapshot holds the last, the first is merged back and
//!   wins: an empty latest page leaves one row, the first copy, and moves the
//!   newest cursor to it. pagination.md §9.2 says the sequential replay of
//!   that concurrency handling is exact; with repeated ids it is not
//!   ([`store`], `concurrent_rows`). After and older pages are merged as
//!   §9.1 says (the later copy takes the earlier one's slot).
//!
//! Left open by the web pipeline: when rows tie on `at` and mix numeric and
//! missing `seq`, the comparison is not a total order and the web's order
//! depends on its sort algorithm; the reference sorts with a stable merge
//! sort that cannot fail on it ([`crate::suites::js::sort_by`]).

pub mod merge;
pub mod page;
pub mod projection;
pub mod row;
pub mod rule_ids;
pub mod script;
pub mod store;
pub mod trim;

pub use rule_ids::RULES;

use crate::suite_api::{ReferenceFn, RuleTrace, Scope};
use crate::suites::chat::reference::{self as chat, ChatOptions};
use serde_json::{Map, Value};
use std::cell::Cell;

/// The fixtureVersions this reference implements.
pub const VERSIONS: &[u32] = ChatOptions::VERSIONS;

/// Replays a case of the newest fixtureVersion (see [`reference_for`]).
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    replay(input, &ChatOptions::V2, trace)
}

/// The reference of `version`, when it is one of [`VERSIONS`].
pub fn reference_for(version: u32) -> Option<ReferenceFn> {
    match version {
        1 => Some(reference_v1),
        2 => Some(reference),
        _ => None,
    }
}

fn reference_v1(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    replay(input, &ChatOptions::V1, trace)
}

/// Replays a case: `input` is `{ops: [op without its expected* members]}`;
/// the result is `{ops: [per-op expectations], expectedState}`. Rows render
/// as the chat normalizer of `chat_options` says.
pub fn replay(input: &Value, chat_options: &ChatOptions, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    // Which display-links rows the normalizer shows and hides, for coverage
    // (the question is asked deep inside the store, away from the trace).
    let display_links = Cell::new((false, false));
    let renders = |row: &Value| {
        let shown = chat::renders(row, chat_options);
        if chat_options.display_links && row::is_display_links_row(row) {
            let (any_shown, any_hidden) = display_links.get();
            display_links.set((any_shown || shown, any_hidden || !shown));
        }
        shown
    };
    let ops = input.get("ops").and_then(Value::as_array).ok_or("the input needs an `ops` array")?;
    let mut store = store::Store::default();
    let mut expectations = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("?");
        let expected = script::run_op(&mut store, op, &renders, trace)
            .map_err(|problem| format!("ops[{index}] {kind}: {problem}"))?;
        expectations.push(Value::Object(expected));
        // Provenance: the op's rules decided its expectation and the state.
        trace.emitted(Scope::Items { member: "ops", start: index, end: index + 1 });
        trace.also(Scope::Pointer("/expectedState"));
    }
    let (shown, hidden) = display_links.get();
    if shown {
        trace.hit("v2.d9.display-links-row-renders");
    }
    if hidden {
        trace.hit("v2.d9.invalid-display-links-row-hidden");
    }
    let mut output = Map::new();
    output.insert("ops".to_owned(), Value::Array(expectations));
    output.insert("expectedState".to_owned(), projection::project(&store));
    Ok(Value::Object(output))
}
