//! The `catalogs` suite: HAPI reference tables (permission modes per flavor).

use super::{Layout, Suite};

/// No input; the implementation's whole table is compared with the file.
#[derive(Debug)]
pub struct CatalogsSuite;

impl Suite for CatalogsSuite {
    fn name(&self) -> &'static str {
        "catalogs"
    }

    fn title(&self) -> &'static str {
        "HAPI reference tables: permission modes per agent flavor, codex collaboration modes"
    }

    fn supported_versions(&self) -> &'static [u32] {
        &[1]
    }

    fn schema(&self) -> &'static str {
        include_str!("../../schemas/catalogs.schema.json")
    }

    fn layout(&self) -> Layout {
        Layout::Table
    }
}
