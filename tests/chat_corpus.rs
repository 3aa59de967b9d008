//! The chat reference against the HAPI golden corpus (when `../shared` is
//! present) and against the project's own chat fixtures.

use conform::json::{parse_value, to_canonical_string};
use conform::reference::NoTrace;
use conform::reference::chat::run;
use std::path::{Path, PathBuf};

const HAPI_CHAT: &str = "../shared/hapi/fixtures/chat";

fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// The first differing lines of two canonical texts, with a little context.
fn first_difference(expected: &str, actual: &str) -> String {
    let expected_lines: Vec<&str> = expected.lines().collect();
    let actual_lines: Vec<&str> = actual.lines().collect();
    let at = expected_lines
        .iter()
        .zip(&actual_lines)
        .position(|(e, a)| e != a)
        .unwrap_or(expected_lines.len().min(actual_lines.len()));
    let from = at.saturating_sub(3);
    let mut out = format!("first difference at line {}\n", at + 1);
    for (label, lines) in [("expected", &expected_lines), ("actual", &actual_lines)] {
        out.push_str(&format!("  {label}:\n"));
        for (n, line) in lines.iter().enumerate().skip(from).take(8) {
            out.push_str(&format!("  {}{:>4} {line}\n", if n == at { '>' } else { ' ' }, n + 1));
        }
    }
    out
}

/// Runs every fixture of a folder; returns (passed, failure reports).
fn check_folder(dir: &Path) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    for path in fixture_files(dir) {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let document = parse_value(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let expected = to_canonical_string(&document["expected"]);
        match run(&document["input"], &mut NoTrace) {
            Ok(actual) => {
                let actual = to_canonical_string(&actual);
                if actual == expected {
                    passed += 1;
                } else {
                    failures.push(format!("{}\n{}", path.display(), first_difference(&expected, &actual)));
                }
            }
            Err(err) => failures.push(format!("{}: the reference failed: {err}", path.display())),
        }
    }
    (passed, failures)
}

fn assert_folder_passes(dir: &Path, at_least: usize) {
    let (passed, failures) = check_folder(dir);
    let total = passed + failures.len();
    for failure in failures.iter().take(5) {
        eprintln!("{failure}");
    }
    assert!(failures.is_empty(), "{} of {total} fixtures in {} differ", failures.len(), dir.display());
    assert!(total >= at_least, "expected at least {at_least} fixtures in {}, found {total}", dir.display());
}

#[test]
fn reference_reproduces_the_hapi_chat_corpus() {
    let dir = Path::new(HAPI_CHAT);
    if !dir.is_dir() {
        eprintln!("skipped: {HAPI_CHAT} is absent (the HAPI corpus is not checked out beside this repository)");
        return;
    }
    assert_folder_passes(dir, 48);
}
