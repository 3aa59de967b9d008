//! Replays every `pagination` fixture (the HAPI corpus and the project's own) through
//! the suite's schema, split and reference, comparing canonical bytes.

use conform::json;
use conform::reference::NoTrace;
use conform::suite::Suite;
use conform::suite::pagination::PaginationSuite;
use std::path::{Path, PathBuf};

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hapi/fixtures/pagination");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping the HAPI pagination corpus: {} is absent", dir.display());
        None
    }
}

/// Checks every fixture in `dir` and returns how many passed.
fn replay_dir(dir: &Path) -> usize {
    let schema = json::parse_value(PaginationSuite.schema()).expect("the pagination schema parses");
    let validator = jsonschema::validator_for(&schema).expect("the pagination schema compiles");
    let reference = PaginationSuite.reference().expect("pagination has a reference");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture folder is readable")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let document = json::parse_value(&text).expect("fixture parses");
        assert_eq!(json::to_canonical_string(&document), text, "{} is not canonical", path.display());
        let errors: Vec<String> =
            validator.iter_errors(&document).map(|error| format!("{}: {error}", error.instance_path())).collect();
        assert!(errors.is_empty(), "{} fails the schema: {errors:?}", path.display());
        let parts = PaginationSuite.split(&document).expect("fixture splits");
        let actual = reference(&parts.input, &mut NoTrace).expect("the reference produces output");
        if json::to_canonical_string(&actual) != json::to_canonical_string(&parts.expected) {
            failures.push(format!(
                "{}\nexpected: {}\nactual:   {}",
                path.display(),
                json::to_compact_string(&parts.expected),
                json::to_compact_string(&actual)
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures differ:\n{}", failures.len(), paths.len(), failures.join("\n"));
    paths.len()
}

#[test]
fn hapi_pagination_corpus_is_reproduced_exactly() {
    if let Some(dir) = corpus_dir() {
        assert_eq!(replay_dir(&dir), 12);
    }
}

#[test]
fn own_pagination_fixtures_are_reproduced_exactly() {
    let passed = replay_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pagination"));
    assert!(passed >= 10, "only {passed} own pagination fixtures");
}
