//! Suites: one per fixture folder (`chat`, `sse`, …).
//!
//! A [`Suite`] knows the shape of its documents (how a document splits into the
//! input an implementation receives and the expected part it must produce),
//! the JSON Schema documents must satisfy, the fixtureVersions it can judge,
//! and its reference implementation, if it has one.
//!
//! Adding a suite is local: write a type implementing [`Suite`] in its own
//! file here, add its schema under `schemas/`, and list it in [`all`].

mod agent_events;
pub mod catalogs;
pub mod chat;
pub mod claude_display;
pub mod claude_events;
pub mod codex_app_server_events;
pub mod codex_exec_events;
pub mod event_fold;
pub mod pagination;
pub mod sse;
pub mod tool_policy;

use crate::reference::RuleTrace;
use serde_json::{Map, Value};
use std::panic::{AssertUnwindSafe, catch_unwind};
use thiserror::Error;

/// The reference implementation of a suite: maps a case's input part to its
/// expected part. It must be total: any input yields a value or an error
/// message, never a panic. `trace` records the named decode rules the run
/// exercised (for `conform coverage`); references without rule ids ignore it.
pub type ReferenceFn = fn(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String>;

/// Why a call of a [`ReferenceFn`] produced no value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReferenceFailure {
    /// The reference cannot decode the input (its error message).
    #[error("{0}")]
    Rejected(String),
    /// The reference panicked. References are meant to be total, so this is
    /// a bug in the reference, contained to the one input.
    #[error("the reference panicked: {0}")]
    Panicked(String),
}

/// Calls `reference` on `input`, containing a panic: whatever a reference
/// does with one input, the command that called it goes on.
pub fn call_reference(
    reference: ReferenceFn,
    input: &Value,
    trace: &mut dyn RuleTrace,
) -> Result<Value, ReferenceFailure> {
    match catch_unwind(AssertUnwindSafe(|| reference(input, trace))) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(ReferenceFailure::Rejected(message)),
        Err(payload) => Err(ReferenceFailure::Panicked(panic_message(&*payload))),
    }
}

/// The message of a caught panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_owned()
    }
}

/// How a suite's documents split into input and expected parts.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// `{fixtureVersion, name, description, <input>: {…}, <expected>: {…}}`:
    /// the value of one key goes in, the value of another comes out.
    Wrapped {
        /// Key whose value is the input (usually `"input"`).
        input: &'static str,
        /// Key whose value is the expected output (usually `"expected"`).
        expected: &'static str,
    },
    /// `{fixtureVersion, name, description, <input keys…>, <expected keys…>}`:
    /// the input is the object of the input keys, the expected part the object
    /// of the expected keys (for example `sse`).
    Keys {
        /// Top-level keys that make up the input object.
        input: &'static [&'static str],
        /// Top-level keys that make up the expected object.
        expected: &'static [&'static str],
    },
    /// A bare reference table with no envelope (for example `catalogs`): the
    /// name is the file stem, the version comes from the tree's `VERSION`
    /// file, the input is `{}` and the whole document is expected.
    Table,
    /// The suite overrides [`Suite::split`] and [`Suite::with_expected`].
    Custom,
}

/// A fixture document split into what goes in and what must come out.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseParts {
    /// What the implementation receives.
    pub input: Value,
    /// What it must produce (compared canonically).
    pub expected: Value,
}

/// Extra context a suite can give for a differing JSON pointer, so that a
/// mismatch reads `ops[4] fetch-older: request 2 differs at /beforeSeq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerContext {
    /// Human label for the part of the case the pointer falls in.
    pub label: String,
    /// The rest of the pointer below that part (may be empty).
    pub rest: String,
}

/// A fixture suite. See the module docs.
pub trait Suite: Send + Sync {
    /// Folder name and id prefix, e.g. `chat`.
    fn name(&self) -> &'static str;

    /// One line saying what the suite pins.
    fn title(&self) -> &'static str;

    /// The fixtureVersions this harness can judge for the suite.
    fn supported_versions(&self) -> &'static [u32];

    /// The JSON Schema (draft 2020-12) every document must satisfy.
    fn schema(&self) -> &'static str;

    /// How documents split into input and expected parts.
    fn layout(&self) -> Layout;

    /// The reference implementation, when the suite has one.
    fn reference(&self) -> Option<ReferenceFn> {
        None
    }

    /// Splits a (schema-valid) document into input and expected parts.
    fn split(&self, document: &Value) -> Result<CaseParts, String> {
        split_by_layout(self.layout(), document)
    }

    /// Returns `document` with its expected part replaced by `expected`
    /// (used to write fixtures whose expectation the reference computed).
    fn with_expected(&self, document: &Value, expected: &Value) -> Result<Value, String> {
        with_expected_by_layout(self.layout(), document, expected)
    }

    /// Adapts what a user hands to `conform decode` into this suite's input
    /// shape (for example a bare array of chat messages). Default: unchanged.
    fn coerce_decode_input(&self, input: Value) -> Value {
        input
    }

    /// Optional suite-specific context for a differing pointer in the
    /// expected part; `input` is the case's input part.
    fn pointer_context(&self, _input: &Value, _pointer: &str) -> Option<PointerContext> {
        None
    }
}

/// Whether documents of this layout carry `fixtureVersion`, `name` and
/// `description`.
pub fn has_envelope(layout: Layout) -> bool {
    !matches!(layout, Layout::Table)
}

/// Keys every enveloped document carries besides its input and expected parts.
pub const ENVELOPE_KEYS: [&str; 3] = ["fixtureVersion", "name", "description"];

pub(crate) fn split_by_layout(layout: Layout, document: &Value) -> Result<CaseParts, String> {
    let object = document.as_object().ok_or("the document is not a JSON object")?;
    match layout {
        Layout::Wrapped { input, expected } => {
            Ok(CaseParts { input: member(object, input)?.clone(), expected: member(object, expected)?.clone() })
        }
        Layout::Keys { input, expected } => Ok(CaseParts {
            input: Value::Object(pick(object, input)?),
            expected: Value::Object(pick(object, expected)?),
        }),
        Layout::Table => Ok(CaseParts { input: Value::Object(Map::new()), expected: document.clone() }),
        Layout::Custom => Err("this suite must override Suite::split".to_owned()),
    }
}

fn with_expected_by_layout(layout: Layout, document: &Value, expected: &Value) -> Result<Value, String> {
    let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
    match layout {
        Layout::Wrapped { expected: key, .. } => {
            object.insert(key.to_owned(), expected.clone());
        }
        Layout::Keys { expected: keys, .. } => {
            let parts = expected.as_object().ok_or("the expected part is not a JSON object")?;
            for key in keys {
                object.insert((*key).to_owned(), member(parts, key)?.clone());
            }
        }
        Layout::Table => return Ok(expected.clone()),
        Layout::Custom => return Err("this suite must override Suite::with_expected".to_owned()),
    }
    Ok(Value::Object(object))
}

fn member<'a>(object: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    object.get(key).ok_or_else(|| format!("the document has no `{key}` member"))
}

fn pick(object: &Map<String, Value>, keys: &[&str]) -> Result<Map<String, Value>, String> {
    keys.iter().map(|key| Ok(((*key).to_owned(), member(object, key)?.clone()))).collect()
}

/// Every suite the harness knows, in report order.
pub fn all() -> &'static [&'static dyn Suite] {
    &[
        &chat::ChatSuite,
        &sse::SseSuite,
        &pagination::PaginationSuite,
        &catalogs::CatalogsSuite,
        &claude_display::ClaudeDisplay,
        &claude_events::ClaudeEventsSuite,
        &codex_app_server_events::CodexAppServerEventsSuite,
        &codex_exec_events::CodexExecEventsSuite,
        &event_fold::EventFoldSuite,
        &tool_policy::ToolPolicySuite,
    ]
}

/// Looks a suite up by folder name.
pub fn find(name: &str) -> Option<&'static dyn Suite> {
    all().iter().copied().find(|suite| suite.name() == name)
}

impl std::fmt::Debug for dyn Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Suite({})", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_registered_schema_compiles_and_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        for suite in all() {
            assert!(names.insert(suite.name()), "duplicate suite {}", suite.name());
            crate::validate::compile_schema(suite.schema()).unwrap_or_else(|err| panic!("{}: {err}", suite.name()));
            assert!(!suite.supported_versions().is_empty());
        }
    }

    #[test]
    fn keys_layout_splits_and_puts_expectations_back() {
        let layout = Layout::Keys { input: &["a"], expected: &["x", "y"] };
        let document = json!({"name": "n", "a": [1], "x": 1, "y": {"z": 2}});
        let parts = split_by_layout(layout, &document).unwrap();
        assert_eq!(parts.input, json!({"a": [1]}));
        assert_eq!(parts.expected, json!({"x": 1, "y": {"z": 2}}));
        let updated = with_expected_by_layout(layout, &document, &json!({"x": 5, "y": null})).unwrap();
        assert_eq!(updated, json!({"name": "n", "a": [1], "x": 5, "y": null}));
        assert!(split_by_layout(layout, &json!({"a": 1})).unwrap_err().contains("`x`"));
    }

    #[test]
    fn wrapped_and_table_layouts() {
        let wrapped = Layout::Wrapped { input: "input", expected: "expected" };
        let document = json!({"input": {"m": 1}, "expected": {"b": 2}});
        assert_eq!(split_by_layout(wrapped, &document).unwrap().expected, json!({"b": 2}));
        let table = json!({"modes": []});
        let parts = split_by_layout(Layout::Table, &table).unwrap();
        assert_eq!((parts.input, parts.expected), (json!({}), table.clone()));
        assert_eq!(with_expected_by_layout(Layout::Table, &table, &json!({"m": 1})).unwrap(), json!({"m": 1}));
    }
}
