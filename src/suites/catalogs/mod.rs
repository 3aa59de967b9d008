//! The `catalogs` suite: the permission-mode catalog per agent flavor and the
//! codex collaboration modes (`catalogs/modes.json`).
//!
//! The document is a bare table with no envelope, so the suite uses
//! [`Layout::Table`]: the input is `{}` and the whole document is expected.

/// The reference implementation.
pub mod reference;

use crate::json::pointer;
use crate::suite_api::{DocumentShape, Layout, PointerContext, ReferenceFn, Suite};
use serde_json::Value;

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct CatalogsSuite;

impl Suite for CatalogsSuite {
    fn name(&self) -> &'static str {
        "catalogs"
    }

    fn title(&self) -> &'static str {
        "permission-mode catalog per agent flavor and codex collaboration modes"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        // The table's layout did not change in version 2, only two flavors'
        // lists did (v2.md §2.6).
        &[DocumentShape { versions: &[1, 2], schema: include_str!("../../../schemas/catalogs.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Table
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

    fn pointer_context(&self, _input: &Value, pointer: &str) -> Option<PointerContext> {
        let tokens = pointer::tokens(pointer);
        let (label, consumed) = match tokens.as_slice() {
            [table, flavor, index, ..] if table == "permissionModesByFlavor" => {
                (format!("flavor {flavor}: option {index}"), 3)
            }
            [table, flavor] if table == "permissionModesByFlavor" => (format!("flavor {flavor}: options"), 2),
            [table, index, ..] if table == "codexCollaborationModes" => (format!("collaboration mode {index}"), 2),
            _ => return None,
        };
        Some(PointerContext { label, rest: pointer::below(pointer, consumed).to_owned() })
    }
}
