//! `conform upgrade --to 2`: version 1 fixtures become version 2 documents
//! through the usual review; an expectation version 2 changes is recomputed
//! and the description says so; what cannot move says why.

use crate::common;

use common::{Conform, conform, files_ending, read_document, root, write};
use conform::suite_api::NoTrace;
use conform::suites::catalogs::reference::{CatalogVersion, catalog};
use serde_json::{Value, json};
use std::path::Path;

fn copy_fixture(tree: &Path, suite: &str, name: &str) {
    let from = root().join("fixtures").join(suite).join(format!("{name}.json"));
    std::fs::create_dir_all(tree.join(suite)).expect("mkdir");
    std::fs::copy(&from, tree.join(suite).join(format!("{name}.json"))).expect("copy");
}

fn pending(tree: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(tree)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".json.new"))
        .map(|entry| entry.path().strip_prefix(tree).unwrap_or(entry.path()).display().to_string())
        .collect();
    names.sort();
    names
}

/// A tree without VERSION: a version 1 chat fixture whose expectation
/// version 2 changes, one it does not change, a version 1 sse fixture, a
/// version 2 fixture, a fixture of a suite with no version 2, and a broken one.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_fixture(dir.path(), "chat", "version-1-rules-kept-for-v2-inputs");
    copy_fixture(dir.path(), "chat", "claude-skip-filters");
    copy_fixture(dir.path(), "chat", "v2-codex-stream-identities");
    copy_fixture(dir.path(), "sse", "wire-patch-normalized-before-fold");
    copy_fixture(dir.path(), "claude-display", "notice-hook");
    let mut broken = read_document(&root().join("fixtures/chat/claude-skip-filters.json"));
    broken["name"] = json!("not-the-file-name");
    write(&dir.path().join("chat/broken.json"), format!("{}\n", serde_json::to_string(&broken).unwrap_or_default()));
    dir
}

fn upgrade_writes_version_2_documents_for_review_and_says_what_cannot_move() {
    let dir = tree();
    let tree = dir.path();
    let finished = conform(&["upgrade", "--to", "2", tree.to_str().unwrap_or_default()]);
    assert_eq!(finished.code, Some(2), "an invalid fixture is a setup problem: {}", finished.text());
    let out = &finished.stdout;
    assert!(out.contains("recomputed chat/version-1-rules-kept-for-v2-inputs"), "{out}");
    assert!(out.contains("not upgraded chat/broken: the fixture is invalid"), "{out}");
    assert!(
        out.contains("not upgraded: 1 claude-display fixtures: the suite reads no document of that version"),
        "{out}"
    );
    assert!(out.contains("6 fixtures: 2 upgraded, 1 recomputed"), "{out}");
    assert!(out.contains("1 at version 2 or newer already, 2 cannot be upgraded"), "{out}");
    assert_eq!(
        pending(tree),
        [
            "chat/claude-skip-filters.json.new",
            "chat/version-1-rules-kept-for-v2-inputs.json.new",
            "sse/wire-patch-normalized-before-fold.json.new"
        ]
    );

    // Carried over: only the version number changes.
    let original = read_document(&tree.join("chat/claude-skip-filters.json"));
    let mut upgraded = read_document(&tree.join("chat/claude-skip-filters.json.new"));
    assert_eq!(upgraded["fixtureVersion"], 2);
    upgraded["fixtureVersion"] = json!(1);
    assert_eq!(upgraded, original);

    // Recomputed: the version 2 expectation, and a description that says why.
    let stored = read_document(&tree.join("chat/version-1-rules-kept-for-v2-inputs.json"));
    let recomputed = read_document(&tree.join("chat/version-1-rules-kept-for-v2-inputs.json.new"));
    assert_eq!(recomputed["fixtureVersion"], 2);
    assert_eq!(recomputed["input"], stored["input"]);
    assert_ne!(recomputed["expected"], stored["expected"]);
    let version_2 = conform::suites::chat::reference::run(&stored["input"], &mut NoTrace).expect("decodes");
    assert_eq!(recomputed["expected"], version_2);
    let description = recomputed["description"].as_str().unwrap_or_default();
    assert!(description.starts_with(stored["description"].as_str().unwrap_or("?")), "{description}");
    assert!(description.ends_with(&conform::upgrade::recomputed_note(1, 2)), "{description}");

    // Accepted through the review, the upgraded documents pass as version 2.
    std::fs::remove_file(tree.join("chat/broken.json")).expect("rm");
    let review = conform(&["review", tree.to_str().unwrap_or_default(), "--accept-all"]);
    assert!(review.success(), "{}", review.text());
    assert!(pending(tree).is_empty());
    let run = conform(&["run", tree.to_str().unwrap_or_default(), "--suite", "chat", "--suite", "sse", "--no-diff"]);
    assert!(run.success() && run.stdout.contains("4 passed, 0 failed"), "{}", run.text());
    let again = conform(&["upgrade", "--to", "2", "--check", tree.to_str().unwrap_or_default()]);
    assert!(again.stdout.contains("5 fixtures: 0 upgraded, 0 recomputed"), "{}", again.stdout);
}

fn check_writes_nothing_and_accept_is_refused_in_ci() {
    let dir = tree();
    let tree = dir.path().to_str().unwrap_or_default().to_owned();
    let check = conform(&["upgrade", "--to", "2", "--check", &tree]);
    assert!(check.stdout.contains("recomputed chat/version-1-rules-kept-for-v2-inputs"), "{}", check.stdout);
    assert!(pending(dir.path()).is_empty(), "--check writes nothing");
    let in_ci = Conform::new(&["upgrade", "--to", "2", "--accept", &tree]).env("CI", "true").run();
    assert_eq!(in_ci.code, Some(2));
    assert!(in_ci.stderr.contains("refusing to accept while the CI environment variable is set"), "{}", in_ci.stderr);
    assert!(pending(dir.path()).is_empty());
    let to_one = conform(&["upgrade", "--to", "1", &tree]);
    assert_eq!(to_one.code, Some(2), "there is nothing older to move to: {}", to_one.text());
}

fn write_table(tree: &Path, version: CatalogVersion) {
    let text = conform::json::to_canonical_string(&catalog(version, &mut NoTrace));
    write(&tree.join("catalogs/modes.json"), text);
}

fn a_table_moves_with_its_tree_unless_a_version_file_pins_it() {
    // No VERSION: the table follows the documents to version 2.
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_fixture(dir.path(), "sse", "wire-patch-normalized-before-fold");
    write_table(dir.path(), CatalogVersion::V1);
    let finished = conform(&["upgrade", "--to", "2", dir.path().to_str().unwrap_or_default()]);
    assert!(finished.success(), "{}", finished.text());
    assert!(finished.stdout.contains("recomputed catalogs/modes"), "{}", finished.stdout);
    let table = read_document(&dir.path().join("catalogs/modes.json.new"));
    assert_eq!(table, catalog(CatalogVersion::V2, &mut NoTrace));
    let grok: Vec<&Value> =
        table["permissionModesByFlavor"]["grok"].as_array().map(|o| o.iter().collect()).unwrap_or_default();
    assert_eq!(grok.len(), 3, "grok without plan (v2.md K1)");

    // A VERSION file: the table follows it, and upgrade leaves both alone.
    let pinned = tempfile::tempdir().expect("a temporary folder");
    copy_fixture(pinned.path(), "sse", "wire-patch-normalized-before-fold");
    write_table(pinned.path(), CatalogVersion::V1);
    write(&pinned.path().join("VERSION"), "1\n");
    let finished = conform(&["upgrade", "--to", "2", pinned.path().to_str().unwrap_or_default()]);
    assert!(finished.success(), "{}", finished.text());
    assert!(
        finished.stdout.contains("not upgraded catalogs/modes: a table takes its version from"),
        "{}",
        finished.stdout
    );
    assert_eq!(files_ending(&pinned.path().join("catalogs"), ".json.new"), Vec::<std::path::PathBuf>::new());
}

/// v2.md §1: the 72 cases HAPI carried over from version 1 keep their
/// expectations under the version 2 rules, so upgrading the version 1 corpus
/// recomputes none of them (the catalog follows the corpus's VERSION file).
fn the_hapi_version_1_corpus_upgrades_without_a_recomputed_expectation() {
    let Some(corpus) = common::hapi_corpus() else { return };
    let finished = conform(&["upgrade", "--to", "2", "--check", corpus.to_str().unwrap_or_default()]);
    assert!(finished.success(), "{}", finished.text());
    assert!(!finished.stdout.lines().any(|line| line.starts_with("recomputed ")), "{}", finished.stdout);
    assert!(finished.stdout.contains("73 fixtures: 72 upgraded, 0 recomputed"), "{}", finished.stdout);
    assert!(
        finished.stdout.contains("not upgraded catalogs/modes: a table takes its version from"),
        "{}",
        finished.stdout
    );
}

crate::trials![
    upgrade_writes_version_2_documents_for_review_and_says_what_cannot_move,
    check_writes_nothing_and_accept_is_refused_in_ci,
    a_table_moves_with_its_tree_unless_a_version_file_pins_it,
    the_hapi_version_1_corpus_upgrades_without_a_recomputed_expectation
];
