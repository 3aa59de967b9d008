//! Fixture documents and files: a small chat fixture whose expectation
//! follows the projection contract, writing documents in canonical bytes,
//! listing and reading the project's own fixtures, and loading documents
//! through the real corpus loader.

use super::root;
use conform::fixture::{Corpus, SuiteFilter, load_corpus};
use conform::json::{parse_document, to_canonical_string};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A chat fixture: one user text message `text` whose expected projection is
/// one user-text block with `expected_text`. When the two differ the
/// reference fails it at `/blocks/0/text` and `/visibleBlocks/0/text`.
pub fn chat_fixture(name: &str, text: &str, expected_text: &str) -> Value {
    let block = json!({"createdAt": 1000, "id": "m1", "kind": "user-text", "localId": null, "text": expected_text});
    json!({
        "fixtureVersion": 1,
        "name": name,
        "description": "One user text message becomes one user-text block.",
        "input": {
            "messages": [{
                "id": "m1", "seq": 1, "localId": null, "createdAt": 1000,
                "content": {"role": "user", "content": {"type": "text", "text": text}}
            }],
            "agentState": null,
            "options": {"hasMoreMessages": false}
        },
        "expected": {"blocks": [block.clone()], "hasReadyEvent": false, "latestUsage": null, "visibleBlocks": [block]}
    })
}

/// Writes `bytes` to `path`, creating its folders.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|err| panic!("{}: {err}", parent.display()));
    }
    std::fs::write(path, bytes).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
}

/// Writes `document` in canonical bytes as `<folder>/<name>.json` and
/// returns the path.
pub fn write_fixture(folder: &Path, document: &Value) -> PathBuf {
    let name = document["name"].as_str().expect("the document has a name");
    let path = folder.join(format!("{name}.json"));
    write(&path, to_canonical_string(document));
    path
}

/// The files directly in `folder` whose names end with `suffix`, sorted
/// (none when the folder does not exist).
pub fn files_ending(folder: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|entries| entries.filter_map(Result::ok).map(|entry| entry.path()).collect())
        .unwrap_or_default();
    files.retain(|path| path.is_file() && path.to_string_lossy().ends_with(suffix));
    files.sort();
    files
}

/// The `*.json` files directly in `folder`, sorted; the folder must exist.
pub fn fixture_files(folder: &Path) -> Vec<PathBuf> {
    assert!(folder.is_dir(), "{} is not a folder", folder.display());
    files_ending(folder, ".json")
}

/// The project's own fixture files of `suite` (`fixtures/<suite>/*.json`), sorted.
pub fn own_fixtures(suite: &str) -> Vec<PathBuf> {
    fixture_files(&root().join("fixtures").join(suite))
}

/// A JSON document read with the crate's parser (exact numbers, insertion order).
pub fn read_document(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    parse_document(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display())).value
}

/// Copies a folder tree (used to alter copies of corpus files, never the originals).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walkable");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Writes `documents` as fixtures of `suite` into a temporary tree and loads
/// it the way `conform run` does.
pub fn load_documents<'a>(suite: &str, documents: impl IntoIterator<Item = &'a Value>) -> Corpus {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for document in documents {
        write_fixture(&dir.path().join(suite), document);
    }
    load_corpus(&[dir.path().to_path_buf()], &SuiteFilter::default()).expect("the tree loads")
}
