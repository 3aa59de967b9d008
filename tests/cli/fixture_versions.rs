//! fixtureVersions 1 and 2 side by side (issue 16, "Done when"): a tree that
//! mixes documents of both versions and has no `VERSION` file is judged with
//! the right verdicts for each; an implementation that declares only
//! version 1 gets `unsupported` on the version 2 cases, passes the others
//! and exits 0; a document of a version no suite reads is still
//! `unsupported-version` (exit 2); `conform adapter` declares and serves
//! both versions.

use crate::common;

use common::{conform, copy_tree, path_arg, python, report, root, write_fixture};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// The suites whose own fixtures mix versions 1 and 2.
const VERSIONED_SUITES: [&str; 4] = ["chat", "sse", "pagination", "catalogs"];

/// A temporary tree with the project's fixtures of the versioned suites (no
/// `VERSION` file, as upstream's version 2 corpus).
fn mixed_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for suite in VERSIONED_SUITES {
        copy_tree(&root().join("fixtures").join(suite), &dir.path().join(suite));
    }
    assert!(!dir.path().join("VERSION").exists());
    dir
}

/// `(id, fixture_version, verdict)` of every case of a JSON report.
fn cases(out: &Path) -> Vec<(String, u64, String)> {
    let report = report(out);
    report["cases"]
        .as_array()
        .expect("the report lists its cases")
        .iter()
        .map(|case| {
            (
                case["id"].as_str().unwrap_or_default().to_owned(),
                case["fixture_version"].as_u64().unwrap_or(0),
                case["verdict"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn count_by_version_and_verdict(cases: &[(String, u64, String)]) -> BTreeMap<(u64, String), usize> {
    let mut counts = BTreeMap::new();
    for (_, version, verdict) in cases {
        *counts.entry((*version, verdict.clone())).or_default() += 1;
    }
    counts
}

fn run_json(tree: &Path, out: &Path, extra: &[&str]) -> common::Finished {
    let mut args = vec!["run".to_owned(), tree.display().to_string(), "--format".to_owned(), "json".to_owned()];
    args.extend(["--out".to_owned(), out.display().to_string(), "--no-diff".to_owned()]);
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    conform(&args)
}

fn a_mixed_tree_without_a_version_file_is_judged_per_document() {
    let tree = mixed_tree();
    let out = tempfile::tempdir().expect("a temporary folder");
    let finished = run_json(tree.path(), out.path(), &[]);
    assert!(finished.success(), "{}", finished.text());
    let cases = cases(out.path());
    let counts = count_by_version_and_verdict(&cases);
    let passed = |version: u64| counts.get(&(version, "pass".to_owned())).copied().unwrap_or(0);
    assert!(passed(1) >= 90, "{counts:?}");
    assert!(passed(2) >= 30, "{counts:?}");
    assert_eq!(passed(1) + passed(2), cases.len(), "every case passes at its own version: {counts:?}");
    // The catalog table has no version member: it takes the tree's highest.
    assert!(cases.contains(&("catalogs/modes-v2".to_owned(), 2, "pass".to_owned())), "{cases:?}");
    // A document labelled 1 with the version 2 reply-clock members is read and
    // judged as version 1 (v2.md M3).
    assert!(cases.contains(&("sse/reply-clock-in-a-version-1-document".to_owned(), 1, "pass".to_owned())));
}

fn the_catalog_takes_its_trees_version_however_it_is_selected() {
    let tree = mixed_tree();
    let catalog = tree.path().join("catalogs").join("modes-v2.json");
    let selections: [Vec<String>; 3] = [
        vec![catalog.display().to_string()],
        vec![tree.path().join("catalogs").display().to_string()],
        vec![tree.path().display().to_string(), "--suite".to_owned(), "catalogs".to_owned()],
    ];
    for selection in selections {
        let out = tempfile::tempdir().expect("a temporary folder");
        let mut args = vec!["run".to_owned()];
        args.extend(selection.iter().cloned());
        args.extend(["--format", "json", "--out"].map(str::to_owned));
        args.push(out.path().display().to_string());
        let finished = conform(&args);
        assert!(finished.success(), "{selection:?}: {}", finished.text());
        assert_eq!(cases(out.path()), [("catalogs/modes-v2".to_owned(), 2, "pass".to_owned())], "{selection:?}");
    }
}

fn an_implementation_of_version_1_only_is_unsupported_on_version_2_cases() {
    let Some(python) = python() else { return };
    let tree = mixed_tree();
    let out = tempfile::tempdir().expect("a temporary folder");
    let adapter =
        format!("{python} {} {}", path_arg("tests/adapters/version_1_only.py"), env!("CARGO_BIN_EXE_conform"));
    let finished = run_json(tree.path(), out.path(), &["--impl-cmd", &adapter]);
    // The adapter exits with status 3 if it is ever sent a version 2 case.
    assert!(finished.success(), "exit 0 expected: {}", finished.text());
    let cases = cases(out.path());
    for (id, version, verdict) in &cases {
        let expected = if *version == 1 { "pass" } else { "unsupported" };
        assert_eq!(verdict, expected, "{id} (fixtureVersion {version})");
    }
    let versions: Vec<u64> = cases.iter().map(|(_, version, _)| *version).collect();
    assert!(versions.contains(&1) && versions.contains(&2), "both versions are in the tree");
    let report = report(out.path());
    let message = report["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|case| case["id"] == "chat/v2-codex-stream-identities"))
        .and_then(|case| case["message"].as_str())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(message, "the implementation declares fixtureVersions [1] of `chat`, not 2");
}

fn a_version_no_suite_reads_is_still_unsupported_version() {
    let tree = mixed_tree();
    let mut document: Value = common::read_document(&root().join("fixtures/chat/v2-codex-stream-identities.json"));
    document["fixtureVersion"] = json!(3);
    document["name"] = json!("version-three");
    write_fixture(&tree.path().join("chat"), &document);
    let out = tempfile::tempdir().expect("a temporary folder");
    let finished = run_json(tree.path(), out.path(), &[]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    let cases = cases(out.path());
    let verdict = cases.iter().find(|(id, _, _)| id == "chat/version-three").map(|(_, _, verdict)| verdict.as_str());
    assert_eq!(verdict, Some("unsupported-version"));
    // The catalog table takes the highest version of its tree, 3 now, so it
    // cannot be judged either; every other case still is.
    let catalog = cases.iter().find(|(id, _, _)| id == "catalogs/modes-v2").map(|(_, _, verdict)| verdict.as_str());
    assert_eq!(catalog, Some("unsupported-version"));
    let others = cases.iter().filter(|(id, _, _)| id != "chat/version-three" && id != "catalogs/modes-v2");
    assert!(others.into_iter().all(|(_, _, verdict)| verdict == "pass"), "the other cases are still judged");
}

fn conform_adapter_declares_and_serves_both_versions() {
    let hello = conform::implementation::serve::hello();
    for suite in VERSIONED_SUITES {
        let declared = hello.suites.iter().find(|(name, _)| name == suite).map(|(_, versions)| versions.as_slice());
        assert_eq!(declared, Some(&[1u64, 2][..]), "{suite}");
    }
    let tree = mixed_tree();
    let out = tempfile::tempdir().expect("a temporary folder");
    let adapter = format!("{} adapter", env!("CARGO_BIN_EXE_conform"));
    let finished = run_json(tree.path(), out.path(), &["--impl-cmd", &adapter]);
    assert!(finished.success(), "{}", finished.text());
    let cases = cases(out.path());
    assert!(cases.iter().any(|(_, version, _)| *version == 2));
    assert!(cases.iter().all(|(_, _, verdict)| verdict == "pass"), "{cases:?}");
}

crate::trials![
    a_mixed_tree_without_a_version_file_is_judged_per_document,
    the_catalog_takes_its_trees_version_however_it_is_selected,
    an_implementation_of_version_1_only_is_unsupported_on_version_2_cases,
    a_version_no_suite_reads_is_still_unsupported_version,
    conform_adapter_declares_and_serves_both_versions
];
