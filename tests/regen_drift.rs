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

mod common;

use common::{conform, own_fixtures, root};
use std::collections::BTreeSet;

/// The fixtures whose expected part has a tool-call block in state `error`
/// that came from a Claude tool_result: the ones the changed rule moves.
fn fixtures_with_claude_error_results() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for path in own_fixtures("chat") {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let claude_error = text.contains("\"tool_result\"") && text.contains("\"is_error\": true");
        if claude_error && text.contains("\"state\": \"error\"") {
            names.insert(format!("chat/{}", path.file_stem().unwrap_or_default().to_string_lossy()));
        }
    }
    names
}

#[test]
fn a_changed_rule_fails_the_gate_and_names_the_moved_fixtures() -> Result<(), Box<dyn std::error::Error>> {
    let output = conform(&["regen", "--check", "fixtures"]);
    let stdout = &output.stdout;
    assert_eq!(output.code, Some(1), "{}", output.text());

    let moved: BTreeSet<String> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("drifted "))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_owned)
        .collect();
    let expected = fixtures_with_claude_error_results();
    assert!(!expected.is_empty());
    assert!(expected.is_subset(&moved), "expected {expected:?} among the moved {moved:?}");
    // The pointer-level diff names the state that moved.
    assert!(stdout.contains("/tool/state: \"error\" → \"completed\""), "{stdout}");
    assert!(stdout.contains(&format!("{} drifted", moved.len())), "{stdout}");
    eprintln!("drift-demo: {} fixtures moved: {}", moved.len(), moved.iter().cloned().collect::<Vec<_>>().join(", "));

    // Without --check the moved expectations become pending files.
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("fixtures").join("chat");
    std::fs::create_dir_all(&folder)?;
    for name in &moved {
        let file = format!("{}.json", name.trim_start_matches("chat/"));
        std::fs::copy(root().join("fixtures/chat").join(&file), folder.join(&file))?;
    }
    let tree = dir.path().join("fixtures");
    let regen = conform(&["regen", &tree.to_string_lossy()]);
    assert_eq!(regen.code, Some(0));
    let pending = conform::review::find_pending(&[tree])?;
    assert_eq!(pending.len(), moved.len());
    Ok(())
}
