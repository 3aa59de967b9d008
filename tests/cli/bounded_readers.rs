//! Every command that reads a saved report or a baseline reads it as
//! fixtures are read: a regular file within a size bound. A FIFO once hung
//! `report merge`, `compare`, `--baseline` and `baseline write` for ever, and
//! `/dev/zero` made them read until memory ran out (`compare`: 1.3 GB in
//! 10 s); each is now one line and exit 2, at once. A report over its bound
//! names the flag that raises it (it named the fixture size flag).

use crate::common;

use common::{Conform, Finished, chat_fixture, write_fixture};
use std::path::Path;
use std::time::Duration;

/// Far above the milliseconds a refusal takes, far below a hang.
const LIMIT: Duration = Duration::from_secs(30);

fn conform(dir: &Path, args: &[&str]) -> Finished {
    let output = Conform::new(args).dir(dir).limit(LIMIT).run();
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

/// Expects exit 2 and one `error:` line containing `words`.
fn refused(dir: &Path, args: &[&str], words: &str) {
    let output = conform(dir, args);
    assert_eq!(output.code, Some(2), "{args:?}: {}", output.text());
    let stderr = output.stderr.trim_end();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(words), "{args:?}: {stderr}");
}

/// A folder with a chat fixture, a report of its run, a FIFO and a link to
/// `/dev/zero`.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_fixture(&dir.path().join("fixtures/chat"), &chat_fixture("one", "hi", "hi"));
    let run = conform(dir.path(), &["run", "fixtures", "--format", "json", "--out", "out", "-q"]);
    assert_eq!(run.code, Some(0), "{}", run.text());
    let status = std::process::Command::new("mkfifo").arg(dir.path().join("pipe.json")).status().unwrap();
    assert!(status.success());
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.json")).unwrap();
    dir
}

fn a_fifo_or_a_device_is_refused_at_once_by_every_reader() {
    let dir = setup();
    let report = "out/conform-report.json";
    for (special, kind) in
        [("pipe.json", "a FIFO (named pipe), not a regular file"), ("zero.json", "a device, not a regular file")]
    {
        let commands: [&[&str]; 9] = [
            &["report", "merge", report, special, "--out", "merged"],
            &["report", "merge", special, "--out", "merged"],
            &["report", "html", special, "--out", "page.html"],
            &["compare", special, report],
            &["compare", report, special],
            &["baseline", "write", "--from", special],
            &["baseline", "write", "--from", report, "--baseline", special],
            &["baseline", "check", special],
            &["run", "fixtures", "--baseline", special, "--out", "again"],
        ];
        for args in commands {
            refused(dir.path(), args, &format!("{special}: cannot read the "));
            refused(dir.path(), args, kind);
        }
    }
    assert!(!dir.path().join("merged").exists() && !dir.path().join("page.html").exists());
}

fn a_file_over_its_bound_names_the_flag_that_raises_it() {
    let dir = setup();
    let report = "out/conform-report.json";
    let big = dir.path().join("big.json");
    // Sparse: 5 GiB that are never written, and never read.
    std::fs::File::create(&big).unwrap().set_len(5 << 30).unwrap();
    let over = "5368709120 bytes, over the limit of 4294967296 bytes: not read \
                (--max-report-size or CONFORM_MAX_REPORT_SIZE raise it)";
    refused(dir.path(), &["compare", report, "big.json"], over);
    refused(dir.path(), &["report", "merge", "big.json", "--out", "merged"], over);
    refused(dir.path(), &["report", "html", "big.json", "--out", "page.html"], over);
    refused(dir.path(), &["baseline", "write", "--from", "big.json"], over);
    // That flag bounds reports, the fixture size flag does not.
    refused(dir.path(), &["compare", report, report, "--max-report-size", "100"], "(--max-report-size or");
    let other = conform(dir.path(), &["compare", report, report, "--max-fixture-size", "100"]);
    assert_eq!(other.code, Some(0), "{}", other.text());
    let baseline = "5368709120 bytes, over the limit of 67108864 bytes: not read \
                    (--max-fixture-size or CONFORM_MAX_FIXTURE_SIZE raise it)";
    refused(dir.path(), &["baseline", "check", "big.json"], baseline);
}

crate::trials![
    a_fifo_or_a_device_is_refused_at_once_by_every_reader,
    a_file_over_its_bound_names_the_flag_that_raises_it
];
