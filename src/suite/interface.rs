//! The [`Suite`] trait: what the harness needs to know about a kind of
//! fixture.

use super::layout::{CaseParts, Layout, split_by_layout, with_expected_by_layout};
use super::reference_fn::ReferenceFn;
use serde_json::Value;

/// Extra context a suite can give for a differing JSON pointer, so that a
/// mismatch reads `ops[4] fetch-older: request 2 differs at /beforeSeq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerContext {
    /// Human label for the part of the case the pointer falls in.
    pub label: String,
    /// The rest of the pointer below that part (may be empty).
    pub rest: String,
}

/// A fixture suite. See the [`crate::suite`] docs.
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

    /// Every rule id the reference reports to a
    /// [`RuleTrace`](crate::reference::RuleTrace), for `conform coverage`;
    /// empty when the suite does not list them.
    fn rules(&self) -> &'static [&'static str] {
        &[]
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

impl std::fmt::Debug for dyn Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Suite({})", self.name())
    }
}
