//! The catalogs reference's table satisfies the suite schema, and the schema
//! is strict enough to reject a value the table must never hold. (The HAPI
//! `catalogs/modes.json` fixture itself is judged by tests/fixtures.rs.)

use conform::json;
use conform::suite_api::NoTrace;
use conform::suite_api::Suite;
use conform::suites::catalogs::CatalogsSuite;

fn the_catalog_satisfies_its_own_schema() {
    let schema = json::parse_value(CatalogsSuite.schema()).expect("the catalogs schema parses");
    let validator = jsonschema::validator_for(&schema).expect("the catalogs schema compiles");
    use conform::suites::catalogs::reference::{CatalogVersion, catalog};
    for version in [CatalogVersion::V1, CatalogVersion::V2] {
        assert!(validator.is_valid(&catalog(version, &mut NoTrace)), "{version:?}");
    }
    let table = catalog(CatalogVersion::V2, &mut NoTrace);
    let mut broken = table.clone();
    broken["permissionModesByFlavor"]["pi"] = serde_json::json!([{"mode": "x", "label": "X", "tone": "loud"}]);
    assert!(!validator.is_valid(&broken), "an unknown tone must be rejected");
}

crate::trials![the_catalog_satisfies_its_own_schema];
