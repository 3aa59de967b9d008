//! `conform regen`: the drift gate is clean on the project's fixtures (and on
//! the HAPI corpus), catches a moved expectation with its pointer-level
//! diff, writes `.json.new` for review, and rewrites in place only with
//! `--accept`, never in CI.

use crate::common;

use common::{Conform, conform, hapi_corpus, read_document, root, write_fixture};
use std::path::PathBuf;

fn the_gate_is_clean_on_the_project_fixtures() {
    let output = conform(&["regen", "--check", "fixtures"]);
    assert_eq!(output.code, Some(0), "{}", output.text());
    let stdout = output.stdout;
    assert!(stdout.contains(" clean, 0 drifted"), "{stdout}");
    assert!(!stdout.contains("drifted chat/"), "{stdout}");
}

fn the_gate_warns_about_expectations_that_are_not_portable() {
    // The project's two fixtures that tie on position and break the tie by
    // the id collation say so on purpose: one note names them, no warning.
    let output = conform(&["regen", "--check", "fixtures"]);
    assert_eq!(output.code, Some(0), "{}", output.text());
    assert!(!output.stdout.contains("warning"), "a clean clone warns of nothing:\n{}", output.stdout);
    let notes: Vec<&str> = output.stdout.lines().filter(|line| line.starts_with("note: ")).collect();
    assert_eq!(
        notes,
        ["note: 2 fixtures pin an expectation that is not portable, on purpose (as their descriptions say): \
          pagination/display-order-ties-broken-by-id-collation-case, \
          pagination/display-order-ties-broken-by-id-collation-punctuation"],
        "{}",
        output.stdout
    );

    // The same fixture without those words: native ports are asked to
    // compare code units, which orders these ids otherwise, so regen warns.
    let dir = tempfile::tempdir().unwrap();
    let source = root().join("fixtures/pagination/display-order-ties-broken-by-id-collation-punctuation.json");
    let mut document = read_document(&source);
    let description = document["description"].as_str().unwrap().replace("on purpose", "here");
    document["description"] = description.into();
    write_fixture(&dir.path().join("pagination"), &document);
    let output = conform(&["regen", "--check", dir.path().to_str().unwrap()]);
    assert_eq!(output.code, Some(0), "a warning is not a drift: {}", output.text());
    let warnings: Vec<&str> = output.stdout.lines().filter(|line| line.starts_with("warning ")).collect();
    assert!(
        warnings.iter().any(|line| line.starts_with(
            "warning pagination/display-order-ties-broken-by-id-collation-punctuation: not portable: \
             the message window ties rows \"msg_2\" (at 7000, seq 4) and \"msg-1\" (at 7000, seq 4)"
        )),
        "{}",
        output.stdout
    );
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    // The HAPI corpus keeps every position distinct: no warning there.
    if let Some(corpus) = hapi_corpus() {
        let output = conform(&["regen", "--check", corpus.to_str().unwrap()]);
        assert!(!output.stdout.contains("not portable"), "{}", output.stdout);
    }
}

fn the_gate_is_clean_on_the_hapi_corpus_and_reports_suites_it_cannot_check() {
    let Some(corpus) = hapi_corpus() else { return };
    let output = conform(&["regen", "--check", corpus.to_str().unwrap()]);
    assert_eq!(output.code, Some(0), "{}", output.text());
    let stdout = output.stdout;
    assert!(stdout.contains("73 fixtures: "), "{stdout}");
    // Every suite without a reference is named, never passed over silently.
    for line in stdout.lines().filter(|l| l.starts_with("not checked: ")) {
        assert!(line.contains("has no reference implementation"), "{line}");
    }
    let clean: usize = stdout
        .lines()
        .last()
        .and_then(|l| l.split(": ").nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(clean >= 48, "{stdout}");
}

/// The project fixture the drift tests alter.
const SOURCE: &str = "fixtures/chat/claude-tool-result-error-and-tool-use-result.json";

/// A fresh tree holding a copy of one project fixture with one value of its
/// expected part changed, as a stale expectation would look.
struct StaleTree {
    dir: tempfile::TempDir,
    /// The altered fixture.
    target: PathBuf,
    /// The tree, as a command-line word.
    tree: String,
}

fn stale_tree() -> Result<StaleTree, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let mut document = read_document(&root().join(SOURCE));
    let blocks = document["expected"]["blocks"].as_array_mut().ok_or("no blocks")?;
    let tool = blocks.iter_mut().find(|b| b["kind"] == "tool-call").ok_or("no tool call")?;
    tool["tool"]["state"] = "running".into();
    let target = write_fixture(&dir.path().join("fixtures/chat"), &document);
    let tree = dir.path().join("fixtures").to_string_lossy().into_owned();
    Ok(StaleTree { dir, target, tree })
}

fn a_moved_expectation_fails_the_check_with_its_pointer_diff() -> Result<(), Box<dyn std::error::Error>> {
    let StaleTree { dir: _dir, target, tree } = stale_tree()?;
    let before = std::fs::read_to_string(&target)?;

    let check = conform(&["regen", "--check", &tree]);
    assert_eq!(check.code, Some(1), "{}", check.text());
    let stdout = check.stdout;
    assert!(stdout.contains("drifted chat/claude-tool-result-error-and-tool-use-result"), "{stdout}");
    assert!(stdout.contains("/expected/blocks/") && stdout.contains("/tool/state: \"running\" → "), "{stdout}");
    assert!(stdout.contains("@@ current "), "line diff shown: {stdout}");
    assert!(stdout.contains("1 drifted"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&target)?, before, "--check writes nothing");
    assert!(!conform::review::pending_path(&target).exists());

    let regen = conform(&["regen", &tree]);
    assert_eq!(regen.code, Some(0), "{}", regen.text());
    assert_eq!(std::fs::read_to_string(&target)?, before, "the fixture itself is untouched");
    let pending = conform::review::pending_path(&target);
    assert!(pending.exists());
    let listed = conform(&["review", &tree, "--check"]);
    assert_eq!(listed.code, Some(1), "{}", listed.text());

    let refused = Conform::new(&["regen", "--accept", &tree]).env("CI", "1").run();
    assert_eq!(refused.code, Some(2));
    assert!(refused.text().contains("CI environment variable"));

    let accepted = conform(&["regen", "--accept", &tree]);
    assert_eq!(accepted.code, Some(0), "{}", accepted.text());
    assert!(!pending.exists(), "accepting in place clears the pending file");
    assert_eq!(std::fs::read_to_string(&target)?, std::fs::read_to_string(root().join(SOURCE))?);
    let clean = conform(&["regen", "--check", &tree]);
    assert_eq!(clean.code, Some(0), "{}", clean.text());
    Ok(())
}

fn review_rejects_one_by_one_and_accepts_by_glob() -> Result<(), Box<dyn std::error::Error>> {
    let StaleTree { dir: _dir, target, tree } = stale_tree()?;
    assert!(conform(&["regen", &tree]).success());
    let pending = conform::review::pending_path(&target);

    let listed = conform(&["review", &tree, "--list"]);
    let stdout = listed.stdout;
    assert!(stdout.contains("changed ") && stdout.contains("/expected/blocks/"), "{stdout}");

    let rejected = conform(&["review", &tree, "--reject", "chat/claude-*"]);
    assert!(rejected.success(), "{}", rejected.text());
    assert!(!pending.exists());
    assert!(String::from_utf8_lossy(&std::fs::read(&target)?).contains("\"running\""), "rejecting keeps the fixture");

    assert!(conform(&["regen", &tree]).success());
    let in_ci = Conform::new(&["review", &tree, "--accept", "chat/*"]).env("CI", "true").run();
    assert_eq!(in_ci.code, Some(2));
    assert!(pending.exists(), "nothing accepted in CI");
    let accepted = conform(&["review", &tree, "--accept", "*tool-result-error*"]);
    assert!(accepted.success(), "{}", accepted.text());
    assert!(accepted.stdout.contains("1 accepted, 0 rejected, 0 still pending"));
    assert!(!pending.exists());
    assert!(!String::from_utf8_lossy(&std::fs::read(&target)?).contains("\"running\""));
    Ok(())
}

fn review_asks_one_by_one() -> Result<(), Box<dyn std::error::Error>> {
    let StaleTree { dir, target: first, tree } = stale_tree()?;
    let second = first.with_file_name("second.json");
    let text = std::fs::read_to_string(&first)?
        .replace("\"name\": \"claude-tool-result-error-and-tool-use-result\"", "\"name\": \"second\"");
    std::fs::write(&second, text)?;
    assert!(conform(&["regen", &tree]).success());

    let output = Conform::new(&["review", &tree, "--interactive", "--no-diff"]).stdin(b"x\na\nr\n").run();
    let stdout = &output.stdout;
    assert!(output.success(), "{stdout}");
    // Files are reviewed in sorted order: the first answer (`x`) is not one,
    // so it is asked again; `a` accepts it, `r` rejects the second.
    assert!(stdout.contains("[1/2] chat/claude-tool-result-error-and-tool-use-result: [a]ccept"), "{stdout}");
    assert!(stdout.contains("1 accepted, 1 rejected, 0 still pending"), "{stdout}");
    assert!(!String::from_utf8_lossy(&std::fs::read(&first)?).contains("\"running\""));
    assert!(String::from_utf8_lossy(&std::fs::read(&second)?).contains("\"running\""));
    assert!(conform::review::find_pending(&[dir.path().to_path_buf()])?.is_empty());
    Ok(())
}

crate::trials![
    the_gate_is_clean_on_the_project_fixtures,
    the_gate_warns_about_expectations_that_are_not_portable,
    the_gate_is_clean_on_the_hapi_corpus_and_reports_suites_it_cannot_check,
    a_moved_expectation_fails_the_check_with_its_pointer_diff,
    review_rejects_one_by_one_and_accepts_by_glob,
    review_asks_one_by_one
];
