//! The `sse` suite: the `session-updated` patch fold.
//!
//! Input `{initialSession, patches}`, expected
//! `{expectedPatchResults, expectedSession}` ([`Layout::Keys`]). A verdict
//! mismatch is reported against its patch (`patches[3]: verdict`) even when
//! the final session matches.

/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::json::pointer;
use crate::suite_api::{
    CaseParts, DocumentShape, Layout, PointerContext, ReferenceFn, Suite, split_by_layout, split_by_layout_owned,
};
use serde_json::Value;

const INPUT_KEYS: &[&str] = &["initialSession", "patches"];
const EXPECTED_KEYS: &[&str] = &["expectedPatchResults", "expectedSession"];

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct SseSuite;

impl Suite for SseSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "sse"
    }

    fn title(&self) -> &'static str {
        "session-updated patch fold: per-patch verdicts and the final session"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        // One shape for both versions: version 2 adds the reply-clock members,
        // and a document labelled 1 may carry them too (v2.md M3).
        &[DocumentShape { versions: &[1, 2], schema: include_str!("../../../schemas/sse.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Keys { input: INPUT_KEYS, expected: EXPECTED_KEYS }
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("patches")
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::reference)
    }

    fn reference_versions(&self) -> &'static [u32] {
        reference::VERSIONS
    }

    fn reference_for(&self, version: u32) -> Option<ReferenceFn> {
        reference::reference_for(version)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    /// The [`Layout::Keys`] split, plus the one rule a schema cannot state:
    /// there is exactly one verdict per patch.
    fn split(&self, document: &Value) -> Result<CaseParts, String> {
        one_verdict_per_patch(document)?;
        split_by_layout(self.layout(), document)
    }

    fn split_owned(&self, document: Value) -> Result<CaseParts, String> {
        one_verdict_per_patch(&document)?;
        split_by_layout_owned(self.layout(), document)
    }

    fn pointer_context(&self, _input: &Value, pointer: &str) -> Option<PointerContext> {
        let mut tokens = pointer.split('/').skip(1);
        match (tokens.next()?, tokens.next()) {
            ("expectedPatchResults", Some(index)) => Some(PointerContext {
                label: format!("patches[{index}]: verdict"),
                rest: pointer::below(pointer, 2).to_owned(),
            }),
            ("expectedPatchResults", None) => {
                Some(PointerContext { label: "verdicts".to_owned(), rest: String::new() })
            }
            ("expectedSession", _) => {
                Some(PointerContext { label: "final session".to_owned(), rest: pointer::below(pointer, 1).to_owned() })
            }
            _ => None,
        }
    }
}

/// The rule a schema cannot state: there is exactly one verdict per patch.
fn one_verdict_per_patch(document: &Value) -> Result<(), String> {
    let object = document.as_object().ok_or("the document is not a JSON object")?;
    let patches = object.get("patches").and_then(Value::as_array).map_or(0, Vec::len);
    let verdicts = object.get("expectedPatchResults").and_then(Value::as_array).map_or(0, Vec::len);
    if patches != verdicts {
        return Err(format!(
            "`expectedPatchResults` has {verdicts} verdicts for {patches} patches (one verdict per patch)"
        ));
    }
    Ok(())
}
