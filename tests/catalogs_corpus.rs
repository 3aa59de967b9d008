//! Compares the reference modes catalog with the HAPI `catalogs/modes.json`.

use conform::json;
use conform::reference::NoTrace;
use conform::suite::Suite;
use conform::suite::catalogs::CatalogsSuite;
use std::path::Path;

#[test]
fn hapi_modes_catalog_is_reproduced_exactly() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hapi/fixtures/catalogs/modes.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping the HAPI catalogs corpus: {} is absent", path.display());
        return;
    };
    let document = json::parse_value(&text).expect("modes.json parses");
    let schema = json::parse_value(CatalogsSuite.schema()).expect("the catalogs schema parses");
    let validator = jsonschema::validator_for(&schema).expect("the catalogs schema compiles");
    assert!(validator.is_valid(&document), "modes.json fails the catalogs schema");
    let parts = CatalogsSuite.split(&document).expect("the table splits");
    let actual = (CatalogsSuite.reference().expect("catalogs has a reference"))(&parts.input, &mut NoTrace)
        .expect("the reference produces the table");
    assert_eq!(json::to_canonical_string(&actual), text);
}

#[test]
fn the_catalog_satisfies_its_own_schema() {
    let schema = json::parse_value(CatalogsSuite.schema()).expect("the catalogs schema parses");
    let validator = jsonschema::validator_for(&schema).expect("the catalogs schema compiles");
    let table = conform::reference::catalogs::catalog(&mut NoTrace);
    assert!(validator.is_valid(&table));
    let mut broken = table.clone();
    broken["permissionModesByFlavor"]["pi"] = serde_json::json!([{"mode": "x", "label": "X", "tone": "loud"}]);
    assert!(!validator.is_valid(&broken), "an unknown tone must be rejected");
}
