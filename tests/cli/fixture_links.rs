//! Symlinks among fixtures: a link to nothing once was a note and exit 0,
//! so a fixture linked into a missing folder dropped out of a green run;
//! it is an error (exit 2) unless `--allow-dangling-links` makes it a note.
//! A symlink loop is a note that says its cause once (it said "not a
//! regular file" twice).

use crate::common;

use common::{Conform, Finished, chat_fixture, write_fixture};
use std::path::Path;

fn conform(dir: &Path, args: &[&str]) -> Finished {
    let output = Conform::new(args).dir(dir).run();
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

/// The lines of `stderr` naming `name`.
fn lines_about<'a>(stderr: &'a str, name: &str) -> Vec<&'a str> {
    stderr.lines().filter(|line| line.contains(name)).collect()
}

fn a_symlink_to_nothing_is_an_error_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("chat");
    write_fixture(&chat, &chat_fixture("valid", "hi", "hi"));
    std::os::unix::fs::symlink("../shared/gone.json", chat.join("linked.json")).unwrap();

    let run = conform(dir.path(), &["run", ".", "--format", "pretty"]);
    assert_eq!(run.code, Some(2), "{}", run.text());
    let lines = lines_about(&run.stderr, "linked.json");
    assert_eq!(
        lines,
        ["error: ./chat/linked.json: a symlink to nothing (`../shared/gone.json` does not exist): its fixture is \
          missing (--allow-dangling-links makes this a note)"],
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("1 passed, 0 failed"), "the other fixtures still run: {}", run.stdout);
    let validate = conform(dir.path(), &["validate", "."]);
    assert_eq!(validate.code, Some(2), "{}", validate.text());

    let allowed = conform(dir.path(), &["run", ".", "--format", "pretty", "--allow-dangling-links"]);
    assert_eq!(allowed.code, Some(0), "{}", allowed.text());
    assert_eq!(
        lines_about(&allowed.stderr, "linked.json"),
        ["note: ./chat/linked.json: skipped: a symlink to nothing (`../shared/gone.json` does not exist)"]
    );
}

fn a_symlink_loop_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("chat");
    write_fixture(&chat, &chat_fixture("valid", "hi", "hi"));
    std::os::unix::fs::symlink("loop.json", chat.join("loop.json")).unwrap();
    let run = conform(dir.path(), &["run", ".", "--format", "pretty"]);
    assert_eq!(run.code, Some(0), "{}", run.text());
    assert_eq!(
        lines_about(&run.stderr, "loop.json"),
        ["note: ./chat/loop.json: skipped: a symlink loop (following it leads back to itself)"]
    );
}

crate::trials![a_symlink_to_nothing_is_an_error_unless_allowed, a_symlink_loop_says_its_cause_once];
