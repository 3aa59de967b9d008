//! Capture's memory per case stays within a small multiple of the case's
//! input: a few-MiB session transcript imported into `claude-display` is
//! measured by the peak resident set of the `conform capture` child.

use crate::common;

/// The most a capture may hold per byte of its input, at its peak. The old
/// code (the case input copied when it was one window, every escape level
/// of the document decoded and held at once by the lint, the input alive
/// while the document was copied) peaked at about 86 times a 16 MiB
/// transcript; see docs/limits.md for the figures.
#[cfg(target_os = "linux")]
const MAX_MULTIPLE: u64 = 70;

/// A synthetic Claude Code session transcript of about `bytes` bytes: turns
/// of a prompt, an assistant tool call and a tool result holding escaped
/// JSON (decoded by the lint level by level), each entry with its own uuid.
#[cfg(target_os = "linux")]
fn transcript(bytes: usize) -> String {
    let session = "5e551011-0000-4000-8000-000000000000";
    let payload =
        "{\\\"path\\\":\\\"/srv/app/lib/module.ex\\\",\\\"lines\\\":[\\\"defmodule App do\\\\n  use Phoenix\\\"]}";
    let mut text = String::new();
    let mut parent = "null".to_owned();
    let mut turn = 0u64;
    while text.len() < bytes {
        let uuid = |n: u64| format!("\"{:08x}-0000-4000-8000-{:012x}\"", turn, n);
        let tool = format!("toolu_{turn:020}");
        let (user, assistant, result) = (uuid(1), uuid(2), uuid(3));
        text.push_str(&format!(
            "{{\"parentUuid\":{parent},\"isSidechain\":false,\"sessionId\":\"{session}\",\"type\":\"user\",\
             \"message\":{{\"role\":\"user\",\"content\":\"read the module, turn {turn}\"}},\"uuid\":{user},\
             \"timestamp\":\"2026-02-10T21:11:56.846Z\"}}\n"
        ));
        text.push_str(&format!(
            "{{\"parentUuid\":{user},\"isSidechain\":false,\"sessionId\":\"{session}\",\"message\":{{\
             \"model\":\"claude-opus-4-6\",\"id\":\"msg_{turn:020}\",\"type\":\"message\",\"role\":\"assistant\",\
             \"content\":[{{\"type\":\"tool_use\",\"id\":\"{tool}\",\"name\":\"Read\",\"input\":{{\"file_path\":\
             \"/srv/app/lib/module.ex\"}}}}],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{{\
             \"input_tokens\":3,\"output_tokens\":13}}}},\"type\":\"assistant\",\"uuid\":{assistant},\
             \"timestamp\":\"2026-02-10T21:11:57.846Z\"}}\n"
        ));
        let content = payload.repeat(8);
        text.push_str(&format!(
            "{{\"parentUuid\":{assistant},\"isSidechain\":false,\"sessionId\":\"{session}\",\"type\":\"user\",\
             \"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"content\":\"{content}\",\
             \"is_error\":false,\"tool_use_id\":\"{tool}\"}}]}},\"uuid\":{result},\
             \"timestamp\":\"2026-02-10T21:11:58.846Z\"}}\n"
        ));
        parent = result;
        turn += 1;
    }
    text
}

/// Runs `conform` with `args` and returns its exit code and its peak
/// resident set in bytes. `wait4` gives the rusage of this one child (the
/// RUSAGE_CHILDREN of `getrusage` would be the largest child any trial of
/// this test process ever waited for).
#[cfg(target_os = "linux")]
fn peak_rss_of(args: &[String]) -> Result<(i32, u64), Box<dyn std::error::Error>> {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = libc::pid_t::try_from(child.id())?;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value of a plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, not yet reaped; both pointers are valid.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    // ru_maxrss is in kilobytes on Linux.
    Ok((code, u64::try_from(usage.ru_maxrss)? * 1024))
}

#[cfg(target_os = "linux")]
fn a_session_transcript_captures_within_a_small_multiple_of_its_size() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("session.jsonl");
    std::fs::write(&file, transcript(4 << 20))?;
    let input = std::fs::metadata(&file)?.len();
    let out = dir.path().join("out");
    let args: Vec<String> = ["capture", "claude-display", "--from", "claude-stream-json", "--out"]
        .iter()
        .map(|s| s.to_string())
        .chain([out.to_string_lossy().into_owned(), file.to_string_lossy().into_owned()])
        .collect();
    let (code, peak) = peak_rss_of(&args)?;
    assert_eq!(code, 0, "conform {args:?}");
    assert_eq!(common::files_ending(&out, ".json.new").len(), 1, "one fixture proposed");
    assert!(
        peak <= MAX_MULTIPLE * input,
        "capture of {input} bytes peaked at {peak} bytes: {:.1} times its input, over {MAX_MULTIPLE}",
        peak as f64 / input as f64
    );
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn a_session_transcript_captures_within_a_small_multiple_of_its_size() {
    common::harness::record_skip(
        "the peak resident set of a child (wait4 ru_maxrss in kilobytes) is read on Linux only",
    );
}

crate::trials![a_session_transcript_captures_within_a_small_multiple_of_its_size];
