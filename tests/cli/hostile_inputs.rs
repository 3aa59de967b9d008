//! What a hostile or broken environment does to conform, end to end through
//! the binary: special files named like fixtures (a FIFO, a device, a
//! folder), files and documents over the limits, memory running out, a
//! number beyond a double, file names with newlines, a full disk, and
//! versions that are not small integers reaching an implementation.

use crate::common;

use common::{Conform, Finished, chat_fixture, report, write, write_fixture};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Far beyond any of these runs, far below a hang on a FIFO.
const LIMIT: Duration = Duration::from_secs(120);

fn run_in(dir: &Path, args: &[&str]) -> Finished {
    Conform::new(args).dir(dir).limit(LIMIT).run()
}

/// Runs `script` with bash in `dir`, where `$CONFORM` is the binary.
fn bash_in(dir: &Path, script: &str) -> Finished {
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("CONFORM", env!("CARGO_BIN_EXE_conform"))
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .output()
        .expect("bash runs");
    Finished {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed: Duration::ZERO,
    }
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A tree with one valid chat fixture.
fn one_fixture_tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("chat");
    write_fixture(&chat, &chat_fixture("valid", "hi", "hi"));
    (dir, chat)
}

/// Every line on stderr is one whole message.
fn assert_whole_lines(stderr: &str) {
    for line in stderr.lines() {
        assert!(
            ["note: ", "warning: ", "error: ", "wrote "].iter().any(|start| line.starts_with(start)),
            "a message was split: {line:?} in\n{stderr}"
        );
    }
}

#[cfg(unix)]
fn special_files_named_like_fixtures_are_notes_and_never_opened() {
    let (dir, chat) = one_fixture_tree();
    mkfifo(&chat.join("pipe.json"));
    std::os::unix::fs::symlink("/dev/zero", chat.join("zero.json")).unwrap();
    write(&chat.join(".json"), "{}");
    std::fs::create_dir(chat.join("folder.json")).unwrap();
    // Process ids wrap long before this one: its writer is gone.
    write(&chat.join(".conform-4000000000-AbC.tmp"), "half");
    let expected = [
        "chat/pipe.json: skipped: a FIFO (named pipe), not a regular file",
        "chat/zero.json: skipped: a device, not a regular file",
        "chat/.json: skipped: a hidden file",
        "chat/folder.json: a folder, not a fixture file",
        "chat/.conform-4000000000-AbC.tmp: skipped: a temporary file an interrupted conform command left",
    ];
    let out = dir.path().join("out");
    for args in [
        vec!["validate", "."],
        vec!["fmt", "--check", "."],
        vec!["list", "."],
        vec!["run", ".", "--format", "json", "--out", out.to_str().unwrap()],
    ] {
        let finished = run_in(dir.path(), &args);
        assert_eq!(finished.code, Some(0), "{args:?}: {}", finished.text());
        for note in expected {
            let count =
                finished.stderr.lines().filter(|line| line.starts_with("note: ./") && line.contains(note)).count();
            assert_eq!(count, 1, "{args:?}: {note}:\n{}", finished.stderr);
        }
    }
    assert_eq!(report(&out)["summary"]["total"], 1);
    // Named on the command line: one line, no wait for a writer.
    for name in ["pipe.json", "zero.json"] {
        let finished = run_in(dir.path(), &["validate", &format!("chat/{name}")]);
        assert_eq!(finished.code, Some(2), "{}", finished.text());
        assert!(finished.stderr.contains("not a fixture file or folder"), "{}", finished.stderr);
    }
}

#[cfg(unix)]
fn a_fifo_version_file_is_an_error_line_not_a_hang() {
    let (dir, _) = one_fixture_tree();
    mkfifo(&dir.path().join("VERSION"));
    let finished = run_in(dir.path(), &["validate", "."]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    assert!(
        finished.stderr.contains("VERSION: cannot read: a FIFO (named pipe), not a regular file"),
        "{}",
        finished.stderr
    );
}

fn a_fixture_over_the_size_limit_is_refused_before_it_is_read() {
    let (dir, chat) = one_fixture_tree();
    // Sparse: 3 GB on paper, nothing on disk. Reading it would take 3 GB
    // of memory; the limit refuses it from its size alone.
    let huge = std::fs::File::create(chat.join("huge.json")).unwrap();
    huge.set_len(3 << 30).unwrap();
    drop(huge);
    let finished = run_in(dir.path(), &["validate", "."]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    let line = finished.stderr.lines().find(|l| l.contains("huge.json")).unwrap_or_default();
    assert!(line.contains("3221225472 bytes, over the limit of 67108864 bytes: not read"), "{}", finished.stderr);
    assert!(finished.stdout.contains("1 of 2 fixtures valid"), "{}", finished.stdout);
    std::fs::remove_file(chat.join("huge.json")).unwrap();

    // The limit is a flag and an environment variable.
    let size = std::fs::metadata(chat.join("valid.json")).unwrap().len();
    let below = (size - 1).to_string();
    let by_flag = run_in(dir.path(), &["validate", ".", "--max-fixture-size", &below]);
    assert_eq!(by_flag.code, Some(2), "{}", by_flag.text());
    assert!(by_flag.stderr.contains(&format!("over the limit of {below} bytes")), "{}", by_flag.stderr);
    let by_env =
        Conform::new(&["validate", "."]).dir(dir.path()).env("CONFORM_MAX_FIXTURE_SIZE", &below).limit(LIMIT).run();
    assert_eq!(by_env.code, Some(2), "{}", by_env.text());
    let exact = run_in(dir.path(), &["validate", ".", "--max-fixture-size", &size.to_string()]);
    assert_eq!(exact.code, Some(0), "{}", exact.text());
}

/// A chat fixture whose input carries `count` one-digit numbers in an
/// extra member (which its schema refuses, once it is parsed).
fn many_numbers_fixture(chat: &Path, count: usize) {
    let mut document = chat_fixture("numbers", "hi", "hi");
    document["input"]["options"]["padding"] = serde_json::Value::Array(vec![serde_json::json!(7); count]);
    write_fixture(chat, &document);
}

fn a_document_with_too_many_values_is_a_located_error() {
    let (dir, chat) = one_fixture_tree();
    many_numbers_fixture(&chat, 5_000);
    let finished = run_in(dir.path(), &["validate", ".", "--max-json-values", "1000"]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    let line = finished.stderr.lines().find(|l| l.contains("numbers.json")).unwrap_or_default();
    assert!(line.contains("invalid JSON: more than 1000 values"), "{line}");
    assert!(line.starts_with("error: ./chat/numbers.json:"), "located by line and column: {line}");
    // valid.json holds fewer: it still passes, and so does everything by default.
    assert!(finished.stdout.contains("1 of 2 fixtures valid"), "{}", finished.stdout);
    let by_env =
        Conform::new(&["validate", "."]).dir(dir.path()).env("CONFORM_MAX_JSON_VALUES", "1000").limit(LIMIT).run();
    assert_eq!(by_env.code, Some(2), "{}", by_env.text());
    // By default the document is parsed (and judged on its schema).
    let default = run_in(dir.path(), &["validate", "."]);
    assert!(!default.stderr.contains("values"), "{}", default.stderr);
}

fn a_reply_with_too_many_values_is_a_verdict_not_an_allocation() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let (dir, _) = one_fixture_tree();
    // 2 MB of one-digit numbers: a million values, refused above 100,000.
    let adapter = format!("{python} {} 2 numbers", common::path_arg("tests/adapters/huge_reply.py"));
    let out = dir.path().join("out");
    let args = ["run", ".", "--impl-cmd", &adapter, "--max-json-values", "100000"];
    let finished = run_in(dir.path(), &[&args[..], &["--format", "json", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(finished.code, Some(1), "{}", finished.text());
    let case = &report(&out)["cases"][0];
    assert_eq!(case["verdict"], "protocol-error", "{case}");
    assert!(case["message"].as_str().unwrap_or_default().contains("more than 100000 values"), "{case}");
}

#[cfg(unix)]
fn running_out_of_memory_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    // 40 MB of one-digit numbers: 20 million values, 1.4 GB once parsed.
    let mut text = String::with_capacity(40_000_002);
    text.push('[');
    text.push_str(&"1,".repeat(19_999_999));
    text.push_str("1]");
    write(&dir.path().join("chat/numbers.json"), text);
    // With the default value limit: refused before anything is built.
    let refused = bash_in(dir.path(), "ulimit -v 2000000; exec \"$CONFORM\" validate .");
    assert_eq!(refused.code, Some(2), "{}", refused.text());
    assert!(refused.stderr.contains("more than 2000000 values"), "{}", refused.stderr);
    // With the limit raised past what the memory allows: one line, status 2, no abort.
    let starved = bash_in(dir.path(), "ulimit -v 2000000; exec \"$CONFORM\" validate . --max-json-values 30000000");
    assert_eq!(starved.code, Some(2), "killed by a signal? {}", starved.text());
    let lines: Vec<&str> = starved.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", starved.stderr);
    assert!(lines[0].starts_with("error: out of memory: conform could not allocate "), "{}", lines[0]);
    assert!(lines[0].contains("--max-json-values"), "{}", lines[0]);
}

fn a_number_beyond_a_double_is_refused_everywhere_saying_why() {
    let (dir, chat) = one_fixture_tree();
    let text = std::fs::read_to_string(chat.join("valid.json")).unwrap().replace("\"seq\": 1", "\"seq\": 1e400");
    write(&chat.join("infinite.json"), text.replace("\"valid\"", "\"infinite\""));
    let finished = run_in(dir.path(), &["validate", "."]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    let line = finished.stderr.lines().find(|l| l.contains("infinite.json")).unwrap_or_default();
    assert!(line.contains(conform::json::OUT_OF_RANGE), "{line}");
    let decode = Conform::new(&["decode", "--suite", "chat", "-"])
        .stdin(br#"{"messages": [], "agentState": null, "n": -1e400}"#)
        .limit(LIMIT)
        .run();
    assert_eq!(decode.code, Some(2), "{}", decode.text());
    assert!(decode.stderr.contains("JSON.parse reads it as Infinity"), "{}", decode.stderr);
}

#[cfg(unix)]
fn a_newline_in_a_file_name_does_not_split_a_message() {
    let (dir, chat) = one_fixture_tree();
    let evil = "evil\nerror: forged line\r\u{1b}[2K";
    let mut document = chat_fixture("evil", "hi", "hi");
    document["name"] = serde_json::json!("other");
    write(&chat.join(format!("{evil}.json")), conform::json::to_canonical_string(&document).replace("    ", "  "));
    for args in [vec!["validate", "."], vec!["fmt", "."], vec!["list", "."], vec!["run", ".", "--format", "pretty"]] {
        let finished = run_in(dir.path(), &args);
        assert_whole_lines(&finished.stderr);
        assert!(!finished.text().contains("\nerror: forged line"), "{args:?}: {}", finished.text());
        assert!(finished.text().contains("evil\\nerror: forged line\\r\\u{1b}[2K"), "{args:?}: {}", finished.text());
    }
    let listed = run_in(dir.path(), &["list", "."]);
    assert_eq!(listed.stdout.lines().count(), 2, "one id per line: {}", listed.stdout);
}

#[cfg(unix)]
fn a_full_disk_names_the_report_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("chat");
    for index in 0..40 {
        write_fixture(&chat, &chat_fixture(&format!("case-{index:02}"), "hi", "hi"));
    }
    // Files may not grow past 8 KiB (the JSON report of 40 cases is larger);
    // SIGXFSZ ignored makes the write fail with EFBIG, as ENOSPC would.
    let finished = bash_in(
        dir.path(),
        "trap '' XFSZ; ulimit -f 8; exec \"$CONFORM\" run . --format json --out out 2>err.txt >/dev/null",
    );
    let stderr = std::fs::read_to_string(dir.path().join("err.txt")).unwrap();
    assert_eq!(finished.code, Some(2), "{stderr}");
    assert!(stderr.contains("error: cannot write out/conform-report.json: File too large"), "{stderr}");
    assert!(!stderr.contains(".conform-"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("out")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `fixtureVersion` values that are not small integers make a document
/// invalid: the implementation never hears of it, let alone as version 1.
fn an_implementation_is_never_told_a_version_the_document_does_not_hold() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let (dir, chat) = one_fixture_tree();
    let canonical = std::fs::read_to_string(chat.join("valid.json")).unwrap();
    for (index, lexeme) in ["2.0", "1e3", "4294967296", "18446744073709551616", "1.0"].iter().enumerate() {
        let name = format!("version-{index}");
        let text = canonical
            .replace("\"fixtureVersion\": 1", &format!("\"fixtureVersion\": {lexeme}"))
            .replace("\"valid\"", &format!("\"{name}\""));
        write(&chat.join(format!("{name}.json")), text);
    }
    let record = dir.path().join("record.jsonl");
    let adapter = format!(
        "{python} {} {} {}",
        common::path_arg("tests/adapters/recording.py"),
        env!("CARGO_BIN_EXE_conform"),
        record.display()
    );
    let out = dir.path().join("out");
    let finished =
        run_in(dir.path(), &["run", ".", "--impl-cmd", &adapter, "--format", "json", "--out", out.to_str().unwrap()]);
    assert_eq!(finished.code, Some(2), "{}", finished.text());
    let told: Vec<serde_json::Value> =
        std::fs::read_to_string(&record).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!((told[0]["fixture"].as_str(), told[0]["fixtureVersion"].as_u64()), (Some("valid"), Some(1)));
    let report = report(&out);
    for case in report["cases"].as_array().unwrap() {
        let expected = if case["name"] == "valid" { "pass" } else { "invalid" };
        assert_eq!(case["verdict"], expected, "{case}");
    }
}

/// A small reply nested 9,990 deep (inside every limit) once gave a 400 MB
/// report for one case that `compare`, `baseline write`, `report html` and
/// `report merge` then refused ("nesting deeper than 10000 levels").
fn a_deep_reply_gives_a_small_report_every_reader_reads_back() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let (dir, chat) = one_fixture_tree();
    write_fixture(&chat, &chat_fixture("second", "hi", "hi"));
    let adapter = format!("{python} {}", common::path_arg("tests/adapters/deep_reply.py"));
    let out = dir.path().join("out");
    let args = ["run", ".", "--impl-cmd", &adapter, "--format", "json", "--format", "html", "--out"];
    let finished = run_in(dir.path(), &[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(finished.code, Some(1), "{}", finished.text());
    let json = out.join("conform-report.json");
    let size = std::fs::metadata(&json).unwrap().len();
    assert!(size < 10 << 20, "{size} bytes of report for two cases");
    let case = &report(&out)["cases"][0];
    assert_eq!(case["verdict"], "fail", "{case}");
    let cut = case["cut"].to_string();
    assert!(cut.contains("nested deeper than 64 levels elided"), "{cut}");
    let report_path = json.to_str().unwrap();
    let readers: [&[&str]; 4] = [
        &["compare", report_path, report_path],
        &["baseline", "write", "--from", report_path],
        &["report", "html", report_path, "--out", "again.html"],
        &["report", "merge", report_path, "--out", "merged"],
    ];
    for reader in readers {
        let read = run_in(dir.path(), reader);
        assert_ne!(read.code, Some(2), "{reader:?}: {}", read.text());
        assert!(!read.stderr.contains("error:"), "{reader:?}: {}", read.stderr);
    }
}

/// An adapter that prints `GITHUB_TOKEN=ghp_…` and `ANTHROPIC_API_KEY=…` to
/// stderr, and names a key in its error message, once got both into all four
/// report formats.
fn what_an_implementation_prints_reaches_no_report_unscrubbed() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let (dir, _) = one_fixture_tree();
    let adapter = format!("{python} {}", common::path_arg("tests/adapters/chatty.py"));
    let formats = ["--format", "json", "--format", "junit", "--format", "markdown", "--format", "html"];
    let secrets = ["ghp_R8kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh8Jk2Z", "sk-ant-api03-Qm7Zt2Lx9Vb4Nc8Rk1Hs6Jd3Fw5Gy0Pa"];
    for (keep, out) in [(false, "scrubbed"), (true, "kept")] {
        let mut args = vec!["run", ".", "--impl-cmd", &adapter, "--out", out];
        args.extend(formats);
        if keep {
            args.push("--keep-printed-secrets");
        }
        let finished = run_in(dir.path(), &args);
        assert_eq!(finished.code, Some(1), "{}", finished.text());
        let files: Vec<PathBuf> =
            std::fs::read_dir(dir.path().join(out)).unwrap().flatten().map(|entry| entry.path()).collect();
        assert_eq!(files.len(), 4, "{files:?}");
        for file in files.iter().chain([&PathBuf::from("stdout")]) {
            let text =
                if file.ends_with("stdout") { finished.stdout.clone() } else { std::fs::read_to_string(file).unwrap() };
            for secret in secrets {
                // The terminal report shows stderr only in part: only its absence is checked.
                if !keep || !file.ends_with("stdout") {
                    assert_eq!(text.contains(secret), keep, "{}: {secret}", file.display());
                }
            }
            if !keep && !file.ends_with("stdout") {
                assert!(text.contains("GITHUB_TOKEN=REDACTED_GITHUB_TOKEN_"), "{}", file.display());
            }
        }
    }
}

crate::trials![
    special_files_named_like_fixtures_are_notes_and_never_opened,
    a_fifo_version_file_is_an_error_line_not_a_hang,
    a_fixture_over_the_size_limit_is_refused_before_it_is_read,
    a_document_with_too_many_values_is_a_located_error,
    a_reply_with_too_many_values_is_a_verdict_not_an_allocation,
    a_deep_reply_gives_a_small_report_every_reader_reads_back,
    what_an_implementation_prints_reaches_no_report_unscrubbed,
    running_out_of_memory_is_one_clear_line,
    a_number_beyond_a_double_is_refused_everywhere_saying_why,
    a_newline_in_a_file_name_does_not_split_a_message,
    a_full_disk_names_the_report_and_leaves_no_temporary_file,
    an_implementation_is_never_told_a_version_the_document_does_not_hold
];
