//! Interrupting the commands that write: real signals (SIGINT, SIGTERM,
//! SIGKILL) sent to a real `conform` process at times spread over its
//! writing, in rounds. Nothing may be left half-written: no `.conform-*.tmp`
//! file survives a catchable signal, every file holds its old or its new
//! bytes, and what an uncatchable kill leaves is removed, and named, by the
//! next run of the command.

#![cfg(unix)]

use crate::common;

use common::session::{SessionBuilder, write_dump};
use common::{Conform, Finished, chat_fixture, write, write_fixture};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// The temporary files under `folder`, recursively.
fn temporaries(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if entry.file_name().to_string_lossy().starts_with(".conform-") {
                found.push(path);
            }
        }
    }
    found
}

fn signal(pid: u32, signal: i32) {
    // SAFETY: sending a signal to the child this test started.
    unsafe { libc::kill(libc::pid_t::try_from(pid).unwrap(), signal) };
}

/// Runs `args` in `dir` and sends `signals` (each after its delay from the
/// start).
fn interrupted(dir: &Path, args: &[String], signals: &[(Duration, i32)]) -> Finished {
    let signals = signals.to_vec();
    Conform::new(args).dir(dir).limit(LIMIT).run_with(move |pid| {
        let started = Instant::now();
        for (at, number) in signals {
            std::thread::sleep(at.saturating_sub(started.elapsed()));
            signal(pid, number);
        }
    })
}

/// `rounds` runs of a fresh `setup()` tree, each interrupted by `signal` at
/// a time spread over the duration of an uninterrupted run; after each,
/// `check` sees the tree. Returns how many rounds the signal cut short.
fn rounds(
    setup: &dyn Fn() -> (tempfile::TempDir, Vec<String>),
    rounds: u32,
    signals: &dyn Fn(Duration) -> Vec<(Duration, i32)>,
    check: &dyn Fn(&Path),
) -> u32 {
    let (calibration, args) = setup();
    let started = Instant::now();
    let whole = Conform::new(&args).dir(calibration.path()).limit(LIMIT).run();
    let duration = started.elapsed();
    assert!(matches!(whole.code, Some(0) | Some(1)), "{args:?}: {}", whole.text());
    let mut cut_short = 0;
    for round in 1..=rounds {
        let (dir, args) = setup();
        let at = duration * round / (rounds + 1);
        let finished = interrupted(dir.path(), &args, &signals(at));
        // 130: interrupted; 0 or 1: done before the signal; no code: the
        // signal came before the handler was installed (nothing written yet).
        assert!(matches!(finished.code, Some(0) | Some(1) | Some(130) | None), "{}", finished.text());
        if finished.code == Some(130) {
            cut_short += 1;
        }
        let left = temporaries(dir.path());
        assert!(left.is_empty(), "{args:?}, signal at {at:?}: left {left:?}\n{}", finished.text());
        check(dir.path());
    }
    cut_short
}

const FIXTURES: usize = 120;

/// A tree of fixtures written with two-space indentation (not canonical).
fn loose_tree() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    for index in 0..FIXTURES {
        let document = chat_fixture(&format!("case-{index:03}"), "hi", "hi");
        let text = conform::json::to_canonical_string(&document).replace("    ", "  ");
        write(&dir.path().join(format!("chat/case-{index:03}.json")), text);
    }
    (dir, vec!["fmt".into(), ".".into()])
}

/// Each fixture holds its old (loose) or its new (canonical) bytes.
fn old_or_new(dir: &Path) {
    for index in 0..FIXTURES {
        let name = format!("case-{index:03}");
        let canonical = conform::json::to_canonical_string(&chat_fixture(&name, "hi", "hi"));
        let text = std::fs::read_to_string(dir.join(format!("chat/{name}.json"))).unwrap();
        assert!(text == canonical || text == canonical.replace("    ", "  "), "{name} is damaged:\n{text}");
    }
}

fn fmt_interrupted_leaves_no_temporary_file() {
    for number in [libc::SIGINT, libc::SIGTERM] {
        let cut = rounds(&loose_tree, 6, &|at| vec![(at, number)], &old_or_new);
        assert!(cut > 0, "signal {number}: no round was cut short");
    }
}

/// A tree whose every fixture drifted: `regen` writes a `.json.new` each.
fn drifted_tree() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    for index in 0..FIXTURES {
        write_fixture(&dir.path().join("chat"), &chat_fixture(&format!("case-{index:03}"), "hi", "drifted"));
    }
    (dir, vec!["regen".into(), ".".into(), "--no-diff".into()])
}

fn regen_interrupted_leaves_no_temporary_file() {
    let pending_whole = |dir: &Path| {
        for entry in std::fs::read_dir(dir.join("chat")).unwrap().flatten() {
            if entry.file_name().to_string_lossy().ends_with(".json.new") {
                let text = std::fs::read_to_string(entry.path()).unwrap();
                assert!(conform::json::parse_value(&text).is_ok(), "{}: half-written", entry.path().display());
            }
        }
    };
    let cut = rounds(&drifted_tree, 6, &|at| vec![(at, libc::SIGINT)], &pending_whole);
    assert!(cut > 0, "no round was cut short");
}

/// A run of failing cases writing every report format; the first signal
/// lets it write the reports, a second one during the writing stops it.
fn failing_run() -> (tempfile::TempDir, Vec<String>) {
    let (dir, _) = drifted_tree();
    let args = ["run", ".", "--out", "out", "--format", "json", "--format", "junit", "--format", "markdown"];
    (dir, [&args[..], &["--format", "html"]].concat().into_iter().map(str::to_owned).collect())
}

fn report_writing_interrupted_leaves_no_temporary_file() {
    let whole_reports = |dir: &Path| {
        for entry in std::fs::read_dir(dir.join("out")).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") {
                let text = std::fs::read_to_string(entry.path()).unwrap();
                assert!(conform::json::parse_value(&text).is_ok(), "{name}: half-written");
            }
        }
    };
    let twice = |at: Duration| vec![(at, libc::SIGINT), (at + Duration::from_millis(5), libc::SIGINT)];
    rounds(&failing_run, 6, &twice, &whole_reports);
    rounds(&failing_run, 4, &|at| vec![(at, libc::SIGTERM)], &whole_reports);
}

/// A 200-message session captured in windows of five: many pending files.
fn capture_tree() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dump");
    std::fs::create_dir_all(&dump).unwrap();
    let (messages, agent_state) = SessionBuilder::build();
    let files = write_dump(&dump, &messages, &agent_state);
    let mut args: Vec<String> = ["capture", "chat", "--from", "hapi-messages", "--out", "out/chat", "--window", "5"]
        .map(str::to_owned)
        .to_vec();
    args.extend(files.iter().map(|file| file.to_string_lossy().into_owned()));
    (dir, args)
}

/// What an interrupted capture may leave: whole pending files, nothing else.
fn whole_pending_files_only(dir: &Path) {
    for entry in std::fs::read_dir(dir.join("out/chat")).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(name.ends_with(".json.new"), "{name}: an interrupted capture leaves only pending files");
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(conform::json::parse_value(&text).is_ok(), "{name}: half-written");
    }
}

fn capture_interrupted_leaves_no_temporary_file() {
    // Fixtures are written as their windows are ready: a signal during the
    // capture leaves the windows written so far, each whole.
    for number in [libc::SIGINT, libc::SIGTERM] {
        rounds(&capture_tree, 4, &|at| vec![(at, number)], &whole_pending_files_only);
    }
}

/// `--accept` writes in place only once every window passed (they wait in
/// temporary files until then): an interrupted capture leaves none of them,
/// or, when the signal comes while they are renamed into place, some, each
/// whole, and never a temporary file.
fn capture_with_accept_interrupted_leaves_whole_fixtures_only() {
    let accepting = || {
        let (dir, mut args) = capture_tree();
        args.insert(1, "--accept".into());
        (dir, args)
    };
    rounds(&accepting, 4, &|at| vec![(at, libc::SIGINT)], &|dir| {
        for entry in std::fs::read_dir(dir.join("out/chat")).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(name.ends_with(".json") && !name.starts_with('.'), "{name}");
            let text = std::fs::read_to_string(entry.path()).unwrap();
            assert!(conform::json::parse_value(&text).is_ok(), "{name}: half-written");
        }
    });
}

fn what_a_kill_leaves_is_removed_and_named_by_the_next_run() {
    // An uncatchable kill at times spread over an uninterrupted fmt (the
    // machine decides how long that takes), in rounds: most leave a
    // temporary file, and the next fmt removes and names it. A round whose
    // fmt finished before the kill has nothing to sweep and proves nothing.
    let (calibration, args) = loose_tree();
    let started = Instant::now();
    let whole = Conform::new(&args).dir(calibration.path()).limit(LIMIT).run();
    let duration = started.elapsed();
    assert_eq!(whole.code, Some(0), "{}", whole.text());
    const ROUNDS: u32 = 12;
    let (mut swept, mut killed_rounds) = (0, 0);
    for round in 1..=ROUNDS {
        let (dir, args) = loose_tree();
        let at = duration * round / (ROUNDS + 1);
        let killed = interrupted(dir.path(), &args, &[(at, libc::SIGKILL)]);
        assert!(matches!(killed.code, None | Some(0)), "{}", killed.text());
        if killed.code.is_none() {
            killed_rounds += 1;
        }
        let left = temporaries(dir.path());
        let again = Conform::new(&args).dir(dir.path()).limit(LIMIT).run();
        assert_eq!(again.code, Some(0), "{}", again.text());
        for path in &left {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                again.stderr.lines().any(|line| line.starts_with("note: ")
                    && line.contains(&name)
                    && line.contains("removed a temporary file an interrupted conform command left")),
                "{name} is not named:\n{}",
                again.stderr
            );
        }
        assert!(temporaries(dir.path()).is_empty());
        old_or_new(dir.path());
        swept += left.len();
    }
    assert!(killed_rounds > 0, "every fmt finished before its kill ({duration:?} uninterrupted)");
    assert!(swept > 0, "no kill left a temporary file to sweep ({killed_rounds} rounds killed)");
}

fn a_check_leaves_leftovers_alone_and_names_them() {
    let (dir, _) = loose_tree();
    // Process ids wrap long before this one: its writer is gone.
    let leftover = dir.path().join("chat/.conform-4000000000-Xy.tmp");
    write(&leftover, "half");
    let check = Conform::new(&["fmt", "--check", "."]).dir(dir.path()).limit(LIMIT).run();
    assert!(check.stderr.contains("chat/.conform-4000000000-Xy.tmp: skipped: a temporary file"), "{}", check.stderr);
    assert!(leftover.exists(), "a check changes nothing");
    let fmt = Conform::new(&["fmt", "."]).dir(dir.path()).limit(LIMIT).run();
    assert!(fmt.stderr.contains("removed a temporary file"), "{}", fmt.stderr);
    assert!(!leftover.exists());
}

crate::trials![
    fmt_interrupted_leaves_no_temporary_file,
    regen_interrupted_leaves_no_temporary_file,
    report_writing_interrupted_leaves_no_temporary_file,
    capture_interrupted_leaves_no_temporary_file,
    capture_with_accept_interrupted_leaves_whole_fixtures_only,
    what_a_kill_leaves_is_removed_and_named_by_the_next_run,
    a_check_leaves_leftovers_alone_and_names_them
];
