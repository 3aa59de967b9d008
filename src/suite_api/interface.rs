//! The [`Suite`] trait: what the harness needs to know about a kind of
//! fixture.

use super::capture::CaptureFormat;
use super::layout::{
    CaseParts, Layout, expected_pointer_by_layout, has_envelope, split_by_layout, split_by_layout_owned,
    with_expected_by_layout, with_input_by_layout,
};
use super::mutate::MutationProfile;
use super::reference_fn::ReferenceFn;
use super::wire::{WirePart, WireSchema};
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

/// A document shape: the fixtureVersions that share it and the JSON Schema
/// their documents satisfy.
#[derive(Clone, Copy, Debug)]
pub struct DocumentShape {
    /// The versions (ascending).
    pub versions: &'static [u32],
    /// The schema text (draft 2020-12), embedded at build time.
    pub schema: &'static str,
}

/// A fixture suite. See the [`crate::suite_api`] docs.
pub trait Suite: Send + Sync {
    /// Folder name and id prefix, e.g. `chat`.
    fn name(&self) -> &'static str;

    /// One line saying what the suite pins.
    fn title(&self) -> &'static str;

    /// The document shapes this suite can read: each fixtureVersion the
    /// harness can load, with the JSON Schema (draft 2020-12) its documents
    /// satisfy. A version no shape lists is `unsupported-version`.
    fn document_shapes(&self) -> &'static [DocumentShape];

    /// Every fixtureVersion whose documents this suite can read, ascending.
    fn readable_versions(&self) -> Vec<u32> {
        let mut versions: Vec<u32> =
            self.document_shapes().iter().flat_map(|shape| shape.versions.iter().copied()).collect();
        versions.sort_unstable();
        versions.dedup();
        versions
    }

    /// The schema documents of `version` satisfy, when the suite reads it.
    fn schema_for(&self, version: u32) -> Option<&'static str> {
        self.document_shapes().iter().find(|shape| shape.versions.contains(&version)).map(|shape| shape.schema)
    }

    /// The schema of the newest readable version.
    fn schema(&self) -> &'static str {
        let newest = self.readable_versions().last().copied().unwrap_or(1);
        self.schema_for(newest).unwrap_or_default()
    }

    /// How documents split into input and expected parts.
    fn layout(&self) -> Layout;

    /// The reference implementation of the newest version it implements,
    /// when the suite has one.
    fn reference(&self) -> Option<ReferenceFn> {
        None
    }

    /// The fixtureVersions the reference implements (a subset of the
    /// readable ones); the reference is `unsupported` on the others.
    fn reference_versions(&self) -> &'static [u32] {
        &[1]
    }

    /// The reference implementation of `version`, when the reference
    /// implements it. Suites whose behaviour differs between versions
    /// override this; by default one function serves every version listed in
    /// [`Suite::reference_versions`].
    fn reference_for(&self, version: u32) -> Option<ReferenceFn> {
        self.reference().filter(|_| self.reference_versions().contains(&version))
    }

    /// The newest fixtureVersion the reference implements: what documents
    /// written by `capture` are by default.
    fn newest_reference_version(&self) -> u32 {
        self.reference_versions().iter().copied().max().unwrap_or(1)
    }

    /// Every rule id the reference reports to a
    /// [`RuleTrace`](crate::suite_api::RuleTrace), for `conform coverage`;
    /// empty when the suite does not list them.
    fn rules(&self) -> &'static [&'static str] {
        &[]
    }

    /// Splits a (schema-valid) document into input and expected parts.
    fn split(&self, document: &Value) -> Result<CaseParts, String> {
        split_by_layout(self.layout(), document)
    }

    /// [`Suite::split`] of a document the caller gives up (a run drops
    /// each document once its case is judged): the parts are moved out of
    /// it, not copied. A suite that overrides `split` for a [`Layout`] other
    /// than `Custom` overrides this too (a test checks every bundled fixture
    /// splits the same both ways).
    fn split_owned(&self, document: Value) -> Result<CaseParts, String> {
        match self.layout() {
            Layout::Custom => self.split(&document),
            layout => split_by_layout_owned(layout, document),
        }
    }

    /// Whether documents carry `fixtureVersion`, `name` and `description`
    /// (a bare table such as `catalogs` does not).
    fn has_envelope(&self) -> bool {
        has_envelope(self.layout())
    }

    /// Whether a document's name and version come from its file and tree
    /// instead of its members, and the whole document is expected.
    fn is_table(&self) -> bool {
        matches!(self.layout(), Layout::Table)
    }

    /// Where the expected part sits in a document, as a JSON pointer (empty
    /// when it is spread over the top level), for messages about it.
    fn expected_pointer(&self) -> String {
        expected_pointer_by_layout(self.layout())
    }

    /// Where the suite's wire schema (what an input a real hub can send
    /// satisfies: see [`crate::suite_api::wire`]) sits in the schema of its
    /// documents; the same place in every version's schema. `None`: the
    /// suite states no contract beyond its documents' schema, and every
    /// input counts as in contract. Default: the input part as the layout
    /// puts it (the input member of a `Wrapped` layout, the input members of
    /// a `Keys` layout); a suite whose documents also hold robustness inputs
    /// points at the strict input's schema instead.
    fn wire_schema(&self) -> Option<WireSchema> {
        match self.layout() {
            Layout::Wrapped { input, .. } => {
                Some(WireSchema { part: WirePart::Member(input), expectations_prefix: None })
            }
            Layout::Keys { input, .. } => Some(WireSchema {
                part: WirePart::Members { required: input, optional: &[] },
                expectations_prefix: None,
            }),
            Layout::Table | Layout::Custom => None,
        }
    }

    /// Returns `document` with its input part replaced by `input` (how
    /// `capture` and `reduce` assemble documents); an error when documents
    /// of this suite have no input part to replace.
    fn with_input(&self, document: &Value, input: &Value) -> Result<Value, String> {
        with_input_by_layout(self.layout(), document, input)
    }

    /// Returns `document` with its expected part replaced by `expected`
    /// (used to write fixtures whose expectation the reference computed).
    fn with_expected(&self, document: &Value, expected: &Value) -> Result<Value, String> {
        with_expected_by_layout(self.layout(), document, expected)
    }

    /// The input member holding the case's item list (messages, frames,
    /// ops…), which `conform reduce` shrinks; `None` when the input has no
    /// list (reduce then takes the longest array member).
    fn item_list(&self) -> Option<&'static str> {
        None
    }

    /// Members of the expected part that are derived views of others, as
    /// rewrites of a pointer-pattern prefix (derived → source): a difference
    /// seen through a derived view is the same cause as at its source, so
    /// failure clusters fold them (see `report::cause`). Default: none.
    fn derived_views(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The capture formats `conform capture` can read into this suite's
    /// cases.
    fn capture_formats(&self) -> &'static [CaptureFormat] {
        &[]
    }

    /// Adapts what a user hands to `conform decode` into this suite's input
    /// shape (for example a bare array of chat messages). Default: unchanged.
    fn coerce_decode_input(&self, input: Value) -> Value {
        input
    }

    /// What `conform explore` may know about this suite's inputs beyond the
    /// generic mutations: id and ordering members, words the decoder
    /// branches on, and mutations only this suite knows (see
    /// [`crate::suite_api::mutate`]). Default: the generic mutations alone.
    fn mutation_profile(&self) -> MutationProfile {
        MutationProfile::GENERIC
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
