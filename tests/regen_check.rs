//! `conform regen`: the drift gate is clean on the project's fixtures (and on
//! the HAPI corpus), catches a moved expectation with its pointer-level
//! diff, writes `.json.new` for review, and rewrites in place only with
//! `--accept`, never in CI.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|err| panic!("cannot run conform: {err}"))
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn the_gate_is_clean_on_the_project_fixtures() {
    let output = conform(&["regen", "--check", "fixtures"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(" clean, 0 drifted"), "{stdout}");
    assert!(!stdout.contains("drifted chat/"), "{stdout}");
}

#[test]
fn the_gate_is_clean_on_the_hapi_corpus_and_reports_suites_it_cannot_check() {
    if !Path::new("../shared/hapi/fixtures").is_dir() {
        eprintln!("note: ../shared/hapi/fixtures is absent: the corpus drift check is skipped");
        return;
    }
    let output = conform(&["regen", "--check", "../shared/hapi/fixtures"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
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

/// Copies one project fixture into a fresh tree and changes one value of its
/// expected part, as a stale expectation would look.
fn stale_copy(root: &Path) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let source = Path::new("fixtures/chat/claude-tool-result-error-and-tool-use-result.json");
    let folder = root.join("fixtures").join("chat");
    std::fs::create_dir_all(&folder)?;
    let target = folder.join(source.file_name().ok_or("no file name")?);
    let mut document = conform::json::parse_value(&std::fs::read_to_string(source)?)?;
    let blocks = document["expected"]["blocks"].as_array_mut().ok_or("no blocks")?;
    let tool = blocks.iter_mut().find(|b| b["kind"] == "tool-call").ok_or("no tool call")?;
    tool["tool"]["state"] = "running".into();
    std::fs::write(&target, conform::json::to_canonical_string(&document))?;
    Ok(target)
}

#[test]
fn a_moved_expectation_fails_the_check_with_its_pointer_diff() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let target = stale_copy(root.path())?;
    let tree = root.path().join("fixtures");
    let tree = tree.to_string_lossy();
    let before = std::fs::read_to_string(&target)?;

    let check = conform(&["regen", "--check", &tree]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(stdout.contains("drifted chat/claude-tool-result-error-and-tool-use-result"), "{stdout}");
    assert!(stdout.contains("/expected/blocks/") && stdout.contains("/tool/state: \"running\" → "), "{stdout}");
    assert!(stdout.contains("@@ current "), "line diff shown: {stdout}");
    assert!(stdout.contains("1 drifted"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&target)?, before, "--check writes nothing");
    assert!(!conform::review::pending_path(&target).exists());

    let regen = conform(&["regen", &tree]);
    assert_eq!(regen.status.code(), Some(0), "{}", text(&regen));
    assert_eq!(std::fs::read_to_string(&target)?, before, "the fixture itself is untouched");
    let pending = conform::review::pending_path(&target);
    assert!(pending.exists());
    let listed = conform(&["review", &tree, "--check"]);
    assert_eq!(listed.status.code(), Some(1), "{}", text(&listed));

    let refused =
        Command::new(env!("CARGO_BIN_EXE_conform")).args(["regen", "--accept", &tree]).env("CI", "1").output()?;
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused).contains("CI environment variable"));

    let accepted = conform(&["regen", "--accept", &tree]);
    assert_eq!(accepted.status.code(), Some(0), "{}", text(&accepted));
    assert!(!pending.exists(), "accepting in place clears the pending file");
    assert_eq!(
        std::fs::read_to_string(&target)?,
        std::fs::read_to_string("fixtures/chat/claude-tool-result-error-and-tool-use-result.json")?
    );
    let clean = conform(&["regen", "--check", &tree]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
    Ok(())
}

#[test]
fn review_rejects_one_by_one_and_accepts_by_glob() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let target = stale_copy(root.path())?;
    let tree = root.path().join("fixtures");
    let tree = tree.to_string_lossy();
    assert!(conform(&["regen", &tree]).status.success());
    let pending = conform::review::pending_path(&target);

    let listed = conform(&["review", &tree, "--list"]);
    let stdout = String::from_utf8_lossy(&listed.stdout);
    assert!(stdout.contains("changed ") && stdout.contains("/expected/blocks/"), "{stdout}");

    let rejected = conform(&["review", &tree, "--reject", "chat/claude-*"]);
    assert!(rejected.status.success(), "{}", text(&rejected));
    assert!(!pending.exists());
    assert!(String::from_utf8_lossy(&std::fs::read(&target)?).contains("\"running\""), "rejecting keeps the fixture");

    assert!(conform(&["regen", &tree]).status.success());
    let in_ci = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(["review", &tree, "--accept", "chat/*"])
        .env("CI", "true")
        .output()?;
    assert_eq!(in_ci.status.code(), Some(2));
    assert!(pending.exists(), "nothing accepted in CI");
    let accepted = conform(&["review", &tree, "--accept", "*tool-result-error*"]);
    assert!(accepted.status.success(), "{}", text(&accepted));
    assert!(String::from_utf8_lossy(&accepted.stdout).contains("1 accepted, 0 rejected, 0 still pending"));
    assert!(!pending.exists());
    assert!(!String::from_utf8_lossy(&std::fs::read(&target)?).contains("\"running\""));
    Ok(())
}

#[test]
fn review_asks_one_by_one() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    let root = tempfile::tempdir()?;
    let first = stale_copy(root.path())?;
    let second = first.with_file_name("second.json");
    let text = std::fs::read_to_string(&first)?
        .replace("\"name\": \"claude-tool-result-error-and-tool-use-result\"", "\"name\": \"second\"");
    std::fs::write(&second, text)?;
    let tree = root.path().join("fixtures");
    let tree = tree.to_string_lossy();
    assert!(conform(&["regen", &tree]).status.success());

    let mut child = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(["review", &tree, "--interactive", "--no-diff"])
        .env_remove("CI")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    child.stdin.take().ok_or("no stdin")?.write_all(b"x\na\nr\n")?;
    let output = child.wait_with_output()?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    // Files are reviewed in sorted order: the first answer (`x`) is not one,
    // so it is asked again; `a` accepts it, `r` rejects the second.
    assert!(stdout.contains("[1/2] chat/claude-tool-result-error-and-tool-use-result: [a]ccept"), "{stdout}");
    assert!(stdout.contains("1 accepted, 1 rejected, 0 still pending"), "{stdout}");
    assert!(!String::from_utf8_lossy(&std::fs::read(&first)?).contains("\"running\""));
    assert!(String::from_utf8_lossy(&std::fs::read(&second)?).contains("\"running\""));
    assert!(conform::review::find_pending(&[root.path().to_path_buf()])?.is_empty());
    Ok(())
}
