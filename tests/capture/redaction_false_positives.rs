//! The redaction rules against real data: the HAPI golden corpus and the
//! recorded captures in ../shared (read in place). What they hold that
//! looks like a key or personal data — timestamps, sequence numbers,
//! uuids, git hashes, versions, loopback addresses, ports — must not be
//! taken for one. The only findings allowed are user names in home paths,
//! which the recordings really hold (`/home/dev`, `/Users/<name>`).

use crate::common;

use common::shared;
use conform::redact::Redactor;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Rules whose findings in the recordings are real: user names.
const REAL_IN_RECORDINGS: [&str; 4] = ["home-path-unix", "home-path-dashed", "home-path-windows", "known-user-name"];

fn json_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(folder)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(|entry| entry.into_path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "json" || ext == "jsonl"))
        .collect();
    files.sort();
    files
}

/// The documents of a file: the file itself, or each line of a JSONL file.
fn documents(path: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let parse = |text: &str| serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()));
    if path.extension().is_some_and(|ext| ext == "json") {
        vec![(text.clone(), parse(&text))]
    } else {
        text.lines().filter(|line| !line.trim().is_empty()).map(|line| (line.to_owned(), parse(line))).collect()
    }
}

/// Lints every document under `folder` (learning user names per file, as a
/// capture would) and returns the findings per rule, and the unexpected ones.
fn lint_tree(folder: &Path) -> (usize, BTreeMap<String, usize>, Vec<String>) {
    let files = json_files(folder);
    let mut per_rule = BTreeMap::new();
    let mut unexpected = Vec::new();
    for path in &files {
        let documents = documents(path);
        let mut redactor = Redactor::new(&[]).unwrap_or_else(|err| panic!("{err}"));
        for (_, value) in &documents {
            redactor.learn_user_names(value);
        }
        for (text, value) in &documents {
            for finding in redactor.lint(text, value) {
                *per_rule.entry(finding.rule.clone()).or_insert(0) += 1;
                if !REAL_IN_RECORDINGS.contains(&finding.rule.as_str()) {
                    unexpected.push(format!("{}: {finding}", path.display()));
                }
            }
        }
    }
    (files.len(), per_rule, unexpected)
}

fn the_rules_take_nothing_in_the_hapi_corpus_and_the_recordings_for_a_secret() {
    for relative in ["hapi/fixtures", "captures"] {
        let Some(folder) = shared(relative) else { continue };
        let (files, per_rule, unexpected) = lint_tree(&folder);
        assert!(files > 0, "no files under ../shared/{relative}");
        assert!(unexpected.is_empty(), "false positives in ../shared/{relative}:\n{}", unexpected.join("\n"));
        eprintln!("../shared/{relative}: {files} files; findings per rule: {per_rule:?}");
    }
}

crate::trials![the_rules_take_nothing_in_the_hapi_corpus_and_the_recordings_for_a_secret];
