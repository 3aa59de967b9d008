//! A report file that cannot be written is named, every one of them: on a
//! full disk with several formats, a failed `conform-report.json` was not
//! named (the first other failure stopped the command before the JSON
//! report was finished). Here each target is a folder, which no rename can
//! replace, so the writes fail as they would on a full disk, as any user.

use crate::common;

use common::{Conform, chat_fixture, write_fixture};

fn every_failed_report_write_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write_fixture(&dir.path().join("fixtures/chat"), &chat_fixture("one", "hi", "hi"));
    for blocked in ["conform-report.json", "junit.xml"] {
        std::fs::create_dir_all(dir.path().join("out").join(blocked).join("keep")).unwrap();
    }
    let args = ["run", "fixtures", "--format", "json", "--format", "junit", "--format", "html", "--out", "out"];
    let run = Conform::new(&args).dir(dir.path()).run();
    assert_eq!(run.code, Some(2), "{}", run.text());
    let errors: Vec<&str> = run.stderr.lines().filter(|line| line.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 2, "{}", run.stderr);
    assert!(errors[0].starts_with("error: cannot write out/conform-report.json: "), "{}", run.stderr);
    assert!(errors[1].starts_with("error: cannot write out/junit.xml: "), "{}", run.stderr);
    assert!(run.stderr.contains("wrote out/conform-report.html"), "the other report is written: {}", run.stderr);
    assert!(dir.path().join("out/conform-report.html").is_file());

    // `report merge` too.
    std::fs::remove_dir_all(dir.path().join("out/conform-report.json")).unwrap();
    let run = Conform::new(&["run", "fixtures", "--format", "json", "--out", "out"]).dir(dir.path()).run();
    assert_eq!(run.code, Some(0), "{}", run.text());
    for blocked in ["conform-report.json", "conform-report.md"] {
        std::fs::create_dir_all(dir.path().join("merged").join(blocked).join("keep")).unwrap();
    }
    let merge = Conform::new(&["report", "merge", "out/conform-report.json", "--out", "merged"]).dir(dir.path()).run();
    assert_eq!(merge.code, Some(2), "{}", merge.text());
    let errors: Vec<&str> = merge.stderr.lines().filter(|line| line.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 2, "{}", merge.stderr);
    assert!(errors[0].starts_with("error: cannot write merged/conform-report.json: "), "{}", merge.stderr);
    assert!(errors[1].starts_with("error: cannot write merged/conform-report.md: "), "{}", merge.stderr);
}

crate::trials![every_failed_report_write_is_named];
