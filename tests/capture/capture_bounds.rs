//! What `conform capture` refuses, and how: a FIFO or a device is one line
//! and exit 2 at once, a line longer than a fixture may be is refused without
//! reading the file whole, a file with nothing of its format writes no empty
//! fixture, a fixture conform could not load is never written, and a key in
//! a capture file's name is never printed.

use crate::common;

use common::run::Conform;
use common::{conform, files_ending};
use std::path::Path;
use std::time::Duration;

/// Every (suite, format) pair `conform capture` knows.
const FORMATS: [(&str, &str); 5] = [
    ("chat", "hapi-messages"),
    ("claude-events", "claude-stream-json"),
    ("claude-display", "claude-stream-json"),
    ("codex-app-server-events", "codex-app-server-jsonl"),
    ("codex-exec-events", "codex-exec-jsonl"),
];

/// A `codex exec --json` log of one whole turn.
const EXEC_LOG: &str = "{\"type\":\"thread.started\",\"thread_id\":\"t-1\"}\n{\"type\":\"turn.started\"}\n\
{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"agent_message\",\"text\":\"Done.\"}}\n\
{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"cached_input_tokens\":0,\"output_tokens\":1}}\n";

/// A key of the shape GitHub hands out, to plant in file names.
const KEY: &str = "ghp_0123456789abcdefABCDEF0123456789abcd";

fn capture_args(suite: &str, format: &str, out: &Path, extra: &[&str], file: &Path) -> Vec<String> {
    let mut args: Vec<String> = ["capture", suite, "--from", format].iter().map(|s| s.to_string()).collect();
    args.extend(["--out".to_owned(), out.to_string_lossy().into_owned()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(file.to_string_lossy().into_owned());
    args
}

/// Runs a capture that must fail: exit 2 within `limit`, one `error:` line
/// holding every one of `wanted`, and nothing written into `out`.
fn refused(args: &[String], out: &Path, limit: Duration, wanted: &[&str]) {
    let finished = Conform::new(args).limit(limit).run();
    assert_eq!(finished.code, Some(2), "{args:?}: {}", finished.text());
    let errors: Vec<&str> = finished.stderr.lines().filter(|line| line.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {}", finished.stderr);
    for part in wanted {
        assert!(errors[0].contains(part), "{args:?}: {part:?} not in {}", errors[0]);
    }
    assert!(files_ending(out, ".json.new").is_empty() && files_ending(out, ".json").is_empty(), "{args:?}");
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap_or_default();
    // SAFETY: a valid C string and mode.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
}

#[cfg(unix)]
fn a_fifo_or_a_device_is_one_line_and_exit_2_at_once() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let fifo = dir.path().join("capture.jsonl");
    make_fifo(&fifo);
    let out = dir.path().join("out");
    for (suite, format) in FORMATS {
        // Before, opening the FIFO waited for a writer forever.
        let args = capture_args(suite, format, &out, &[], &fifo);
        refused(&args, &out, Duration::from_secs(60), &["capture.jsonl", "a FIFO (named pipe), not a regular file"]);
        let args = capture_args(suite, format, &out, &[], Path::new("/dev/zero"));
        refused(&args, &out, Duration::from_secs(60), &["/dev/zero", "a device, not a regular file"]);
    }
    Ok(())
}

fn a_line_longer_than_a_fixture_may_be_is_refused_without_reading_the_file_whole()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    // 1 GiB of NUL bytes, sparse: one line far over the 64 MiB limit.
    let zeros = dir.path().join("zeros.jsonl");
    std::fs::File::create(&zeros)?.set_len(1 << 30)?;
    let out = dir.path().join("out");
    for (suite, format) in FORMATS {
        // Before: read whole (3 GB and more); the codex formats then wrote an empty fixture.
        let args = capture_args(suite, format, &out, &[], &zeros);
        refused(&args, &out, Duration::from_secs(120), &["zeros.jsonl: line 1 is longer than 67108864 bytes"]);
    }
    Ok(())
}

fn a_file_with_no_line_of_its_format_writes_no_fixture() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    // A writer that crashed before its first line: NUL bytes where the file was preallocated.
    let nul = dir.path().join("crashed.jsonl");
    std::fs::write(&nul, [0u8; 4096])?;
    // Another tool's lines only.
    let foreign = dir.path().join("foreign.jsonl");
    std::fs::write(&foreign, "{\"shipyard_fixture\":{\"v\":1}}\n{\"kind\":\"other\"}\n")?;
    let out = dir.path().join("out");
    for (suite, format) in FORMATS {
        // Before: the codex formats exited 0 with a fixture of no lines.
        refused(&capture_args(suite, format, &out, &[], &nul), &out, common::run::DEFAULT_LIMIT, &["crashed.jsonl"]);
        refused(
            &capture_args(suite, format, &out, &[], &foreign),
            &out,
            common::run::DEFAULT_LIMIT,
            &["foreign.jsonl"],
        );
    }
    let args = capture_args("codex-exec-events", "codex-exec-jsonl", &out, &[], &nul);
    refused(&args, &out, common::run::DEFAULT_LIMIT, &["crashed.jsonl: no lines of --from codex-exec-jsonl in it"]);
    Ok(())
}

fn a_fixture_conform_could_not_load_is_never_written() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let log = dir.path().join("long.jsonl");
    let filler = "x".repeat(1000);
    let mut text = String::from("{\"type\":\"thread.started\",\"thread_id\":\"t-1\"}\n{\"type\":\"turn.started\"}\n");
    for n in 0..8 {
        text.push_str(&format!(
            "{{\"type\":\"item.completed\",\"item\":{{\"id\":\"item_{n}\",\"type\":\"agent_message\",\"text\":\"{filler}\"}}}}\n"
        ));
    }
    text.push_str(
        "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"cached_input_tokens\":0,\"output_tokens\":1}}\n",
    );
    std::fs::write(&log, text)?;
    let out = dir.path().join("out");
    // Every line is under the limit; the document is not. Before, it was
    // written, and `validate` with the same limit refused it.
    let args = capture_args("codex-exec-events", "codex-exec-jsonl", &out, &["--max-fixture-size", "4096"], &log);
    let wanted =
        ["long: refusing to write: the fixture would be", "over the 4096 bytes conform loads", "split the capture"];
    refused(&args, &out, common::run::DEFAULT_LIMIT, &wanted);
    let fits = conform(&capture_args("codex-exec-events", "codex-exec-jsonl", &out, &[], &log));
    assert!(fits.success(), "{}", fits.text());
    Ok(())
}

/// What a run shows, its (suite, format), its file and extra flags.
type NamedRun<'a> = (&'a str, (&'a str, &'a str), std::path::PathBuf, Vec<&'a str>);

/// Every path that prints a capture file's name: the notices, the written
/// list, the review hint and each kind of error.
fn a_key_in_a_capture_file_name_is_never_printed() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let out = dir.path().join(format!("out-{KEY}"));
    let named = |case: &str, bytes: &[u8]| -> std::io::Result<std::path::PathBuf> {
        let folder = dir.path().join(case);
        std::fs::create_dir_all(&folder)?;
        let path = folder.join(format!("session-{KEY}.jsonl"));
        std::fs::write(&path, bytes)?;
        Ok(path)
    };
    let exec = ("codex-exec-events", "codex-exec-jsonl");
    let cut_last_line = format!("{EXEC_LOG}{{\"type\":\"item.");
    let runs: Vec<NamedRun> = vec![
        ("written list, review hint, notice", exec, named("ok", cut_last_line.as_bytes())?, vec![]),
        ("another format", ("chat", "hapi-messages"), named("other", EXEC_LOG.as_bytes())?, vec![]),
        ("not UTF-8", exec, named("latin1", b"{\"type\":\"turn.started\",\"x\":\"\xe9\"}\n")?, vec![]),
        ("a broken line", exec, named("broken", format!("{{oops\n{EXEC_LOG}").as_bytes())?, vec![]),
        ("nothing of the format", exec, named("nul", &[0u8; 64])?, vec![]),
        ("a fixture too large", exec, named("large", EXEC_LOG.as_bytes())?, vec!["--max-fixture-size", "300"]),
    ];
    for (what, (suite, format), path, extra) in &runs {
        let finished = conform(&capture_args(suite, format, &out, extra, path));
        let text = finished.text();
        assert!(!text.contains(KEY), "{what}: the key is printed:\n{text}");
        assert!(text.contains("session-REDACTED_GITHUB_TOKEN_"), "{what}: the file is not named:\n{text}");
    }
    #[cfg(unix)]
    {
        let fifo = dir.path().join(format!("fifo-{KEY}.jsonl"));
        make_fifo(&fifo);
        let finished =
            Conform::new(&capture_args(exec.0, exec.1, &out, &[], &fifo)).limit(Duration::from_secs(60)).run();
        assert!(!finished.text().contains(KEY) && finished.code == Some(2), "a FIFO: {}", finished.text());
    }
    Ok(())
}

#[cfg(unix)]
crate::trials![
    a_fifo_or_a_device_is_one_line_and_exit_2_at_once,
    a_line_longer_than_a_fixture_may_be_is_refused_without_reading_the_file_whole,
    a_file_with_no_line_of_its_format_writes_no_fixture,
    a_fixture_conform_could_not_load_is_never_written,
    a_key_in_a_capture_file_name_is_never_printed
];

#[cfg(not(unix))]
crate::trials![
    a_line_longer_than_a_fixture_may_be_is_refused_without_reading_the_file_whole,
    a_file_with_no_line_of_its_format_writes_no_fixture,
    a_fixture_conform_could_not_load_is_never_written,
    a_key_in_a_capture_file_name_is_never_printed
];
