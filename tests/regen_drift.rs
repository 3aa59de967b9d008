//! The drift gate catches a changed rule. Built only with the `drift-demo`
//! feature, which changes one rule of the chat reference on purpose (a
//! tool_result's `is_error` is ignored):
//!
//! ```sh
//! cargo test --features drift-demo --test regen_drift
//! ```
//!
//! `conform regen --check fixtures` must then fail and name every fixture
//! whose expectation moved, with pointer-level differences; plain `regen`
//! proposes the moved expectations as `.json.new` files for review.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|err| panic!("cannot run conform: {err}"))
}

/// The fixtures whose expected part has a tool-call block in state `error`
/// that came from a Claude tool_result: the ones the changed rule moves.
fn fixtures_with_claude_error_results(folder: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(folder).into_iter().flatten().filter_map(Result::ok) {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let claude_error = text.contains("\"tool_result\"") && text.contains("\"is_error\": true");
        if claude_error && text.contains("\"state\": \"error\"") {
            names.insert(format!("chat/{}", entry.path().file_stem().unwrap_or_default().to_string_lossy()));
        }
    }
    names
}

#[test]
fn a_changed_rule_fails_the_gate_and_names_the_moved_fixtures() -> Result<(), Box<dyn std::error::Error>> {
    let output = conform(&["regen", "--check", "fixtures"]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&output.stderr));

    let moved: BTreeSet<String> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("drifted "))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_owned)
        .collect();
    let expected = fixtures_with_claude_error_results(Path::new("fixtures/chat"));
    assert!(!expected.is_empty());
    assert!(expected.is_subset(&moved), "expected {expected:?} among the moved {moved:?}");
    // The pointer-level diff names the state that moved.
    assert!(stdout.contains("/tool/state: \"error\" → \"completed\""), "{stdout}");
    assert!(stdout.contains(&format!("{} drifted", moved.len())), "{stdout}");
    eprintln!("drift-demo: {} fixtures moved: {}", moved.len(), moved.iter().cloned().collect::<Vec<_>>().join(", "));

    // Without --check the moved expectations become pending files.
    let root = tempfile::tempdir()?;
    let folder = root.path().join("fixtures").join("chat");
    std::fs::create_dir_all(&folder)?;
    for name in &moved {
        let file = format!("{}.json", name.trim_start_matches("chat/"));
        std::fs::copy(Path::new("fixtures/chat").join(&file), folder.join(&file))?;
    }
    let tree = root.path().join("fixtures");
    let regen = conform(&["regen", &tree.to_string_lossy()]);
    assert_eq!(regen.status.code(), Some(0));
    let pending = conform::review::find_pending(&[tree])?;
    assert_eq!(pending.len(), moved.len());
    Ok(())
}
