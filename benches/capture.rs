//! `conform capture` at the size of real sessions: wall time, MB/s and peak
//! resident memory of the release `conform` binary on synthetic dumps.
//!
//! * `hapi-messages`: NDJSON dumps of `DecryptedMessage` rows (user text,
//!   Claude `tool_use`/`tool_result` pairs with log output, codex tool calls,
//!   Edits whose permissions sit in `agentState`, Tasks with sidechain
//!   messages, a few secrets and home paths), of 4, 16, 64 and 500 MB, with
//!   the session object and an overlapping latest page beside the stream,
//!   captured with `--window 200`;
//! * `claude-stream-json`: a session transcript (`~/.claude/projects/…`
//!   entries) for `claude-display`, and a stream-json log of many `query()`
//!   runs for `claude-events`.
//!
//! Each row is one `conform capture` process; peak RSS is the child's
//! `ru_maxrss`. The dumps are built once in `target/capture-bench/` and
//! reused (they are deterministic).
//!
//! ```sh
//! cargo bench --bench capture                         # every size
//! cargo bench --bench capture -- 4 16                 # only these hapi sizes (MB), and the transcripts
//! cargo bench --bench capture -- --dumps-only DIR     # only write the dumps into DIR
//! ```

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const MB: u64 = 1024 * 1024;
const HAPI_SIZES: [u64; 4] = [4, 16, 64, 500];
const TRANSCRIPT_SIZE: u64 = 64;
const STREAM_SIZE: u64 = 64;
const BASE_TIME: u64 = 1_755_000_000_000;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: [&str; 24] = [
    "retry", "config", "parser", "window", "session", "fixture", "decoder", "stream", "buffer", "handler", "queue",
    "socket", "schema", "module", "import", "cache", "index", "token", "render", "layout", "worker", "signal",
    "format", "report",
];

const PEOPLE: [&str; 4] = ["dana", "marco", "kwame", "ingrid"];

/// A line of log output.
fn log_line(rng: &mut Rng, out: &mut String) {
    let level = rng.pick(&["INFO", "WARN", "DEBUG", "ERROR"]);
    let (a, b, c) = (rng.pick(&WORDS), rng.pick(&WORDS), rng.pick(&WORDS));
    let n = rng.below(100_000);
    match rng.below(40) {
        0 => {
            let _ = write!(out, "{level} loading /home/{}/src/{a}/{b}.rs ({n} bytes)\\n", rng.pick(&PEOPLE));
        }
        1 => {
            let _ = write!(out, "API_TOKEN=a8f5{n:05}c0ffee{:06} exported for {a}\\n", rng.below(1_000_000));
        }
        2 => {
            let _ = write!(out, "{level} notify {}.{a}@corp-mail.net about {b}\\n", rng.pick(&PEOPLE));
        }
        _ => {
            let _ = write!(out, "{level} {a}::{b} {c} finished in {n} µs (attempt {})\\n", rng.below(9));
        }
    }
}

/// Log output of about `lines` lines, as JSON string content (escaped).
fn log(rng: &mut Rng, lines: u64) -> String {
    let mut out = String::new();
    for _ in 0..lines {
        log_line(rng, &mut out);
    }
    out
}

/// Builds HAPI `DecryptedMessage` rows, one NDJSON line each.
struct HapiSession {
    rng: Rng,
    seq: u64,
    tools: u64,
    completed: Vec<String>,
    out: BufWriter<std::fs::File>,
    written: u64,
    /// The last rows, for the overlapping latest page.
    tail: std::collections::VecDeque<String>,
}

impl HapiSession {
    fn push(&mut self, role: &str, content: &str) {
        self.seq += 1;
        let seq = self.seq;
        let row = format!(
            "{{\"id\":\"msg-{seq:07}\",\"seq\":{seq},\"localId\":null,\"createdAt\":{},\"content\":{{\"role\":\"{role}\",\"content\":{content}}}}}",
            BASE_TIME + seq * 1500
        );
        self.written += row.len() as u64 + 1;
        let _ = writeln!(self.out, "{row}");
        if self.tail.len() == 50 {
            self.tail.pop_front();
        }
        self.tail.push_back(row);
    }

    fn claude(&mut self, data: &str) {
        let content = format!("{{\"type\":\"output\",\"data\":{data}}}");
        self.push("agent", &content);
    }

    fn tool_id(&mut self, prefix: &str) -> String {
        self.tools += 1;
        format!("{prefix}_{:08}", self.tools)
    }

    fn user(&mut self, text: &str) {
        self.push("user", &format!("{{\"type\":\"text\",\"text\":\"{text}\"}}"));
    }

    fn assistant(&mut self, blocks: &str) {
        let seq = self.seq + 1;
        let data = format!(
            "{{\"type\":\"assistant\",\"uuid\":\"u-{seq:07}\",\"message\":{{\"role\":\"assistant\",\"model\":\"claude-opus-4-1-20250805\",\"content\":{blocks},\"usage\":{{\"input_tokens\":{},\"output_tokens\":40}}}}}}",
            1200 + seq % 5000
        );
        self.claude(&data);
    }

    fn tool_result(&mut self, tool: &str, content: &str, is_error: bool) {
        let seq = self.seq + 1;
        let data = format!(
            "{{\"type\":\"user\",\"uuid\":\"u-{seq:07}\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"{tool}\",\"content\":\"{content}\",\"is_error\":{is_error}}}]}}}}"
        );
        self.claude(&data);
    }

    fn bash_turn(&mut self, round: u64) {
        let (a, b) = (self.rng.pick(&WORDS), self.rng.pick(&WORDS));
        self.user(&format!("Round {round}: the {a} tests fail after the {b} change, can you look?"));
        let tool = self.tool_id("toolu");
        self.assistant(&format!(
            "[{{\"type\":\"text\",\"text\":\"Running the {a} tests.\"}},{{\"type\":\"tool_use\",\"id\":\"{tool}\",\"name\":\"Bash\",\"input\":{{\"command\":\"cargo test -p {a} -- {b}\",\"description\":\"Run the {a} tests\"}}}}]"
        ));
        let lines = 4 + self.rng.below(40);
        let output = log(&mut self.rng, lines);
        self.tool_result(&tool, &output, round % 7 == 3);
        self.assistant(&format!(
            "[{{\"type\":\"text\",\"text\":\"The {a} failure comes from {b}; round {round} is done.\"}}]"
        ));
    }

    fn codex_turn(&mut self, round: u64) {
        let a = self.rng.pick(&WORDS);
        self.user(&format!("Round {round}: run the linter on the {a} crate."));
        let call = self.tool_id("call");
        self.push(
            "agent",
            &format!(
                "{{\"type\":\"codex\",\"data\":{{\"type\":\"tool-call\",\"callId\":\"{call}\",\"name\":\"CodexBash\",\"input\":{{\"command\":[\"bash\",\"-lc\",\"cargo clippy -p {a}\"]}}}}}}"
            ),
        );
        let lines = 2 + self.rng.below(20);
        let stdout = log(&mut self.rng, lines);
        self.push(
            "agent",
            &format!(
                "{{\"type\":\"codex\",\"data\":{{\"type\":\"tool-call-result\",\"callId\":\"{call}\",\"is_error\":false,\"output\":{{\"exit_code\":0,\"stdout\":\"{stdout}\"}}}}}}"
            ),
        );
        self.push(
            "agent",
            &format!(
                "{{\"type\":\"codex\",\"data\":{{\"type\":\"message\",\"message\":\"Lint clean (round {round}).\"}}}}"
            ),
        );
    }

    fn edit_turn(&mut self, round: u64) {
        let (a, person) = (self.rng.pick(&WORDS), self.rng.pick(&PEOPLE));
        self.user(&format!("Round {round}: rename the {a} option."));
        let edit = self.tool_id("toolu");
        let path = format!("/Users/{person}/code/app/src/{a}.ts");
        self.assistant(&format!(
            "[{{\"type\":\"tool_use\",\"id\":\"{edit}\",\"name\":\"Edit\",\"input\":{{\"file_path\":\"{path}\",\"old_string\":\"{a}\",\"new_string\":\"{a}Option\"}}}}]"
        ));
        self.completed.push(format!(
            "\"{edit}\":{{\"tool\":\"Edit\",\"arguments\":{{\"file_path\":\"{path}\"}},\"status\":\"approved\",\"decision\":\"approved\",\"createdAt\":{BASE_TIME},\"completedAt\":{}}}",
            BASE_TIME + 1
        ));
        self.tool_result(&edit, "Applied 1 edit.", false);
    }

    fn task_turn(&mut self, round: u64) {
        let a = self.rng.pick(&WORDS);
        self.user(&format!("Round {round}: find who wrote the {a} logic."));
        let task = self.tool_id("toolu");
        let prompt = format!("Find the author of the {a} logic (round {round}).");
        self.assistant(&format!(
            "[{{\"type\":\"tool_use\",\"id\":\"{task}\",\"name\":\"Task\",\"input\":{{\"description\":\"Find author\",\"prompt\":\"{prompt}\",\"subagent_type\":\"Explore\"}}}}]"
        ));
        self.claude(&format!(
            "{{\"type\":\"user\",\"isSidechain\":true,\"parentToolUseId\":\"{task}\",\"message\":{{\"content\":\"{prompt}\"}}}}"
        ));
        let grep = self.tool_id("toolu");
        self.claude(&format!(
            "{{\"type\":\"assistant\",\"isSidechain\":true,\"parentToolUseId\":\"{task}\",\"message\":{{\"content\":[{{\"type\":\"tool_use\",\"id\":\"{grep}\",\"name\":\"Grep\",\"input\":{{\"pattern\":\"{a}\"}}}}]}}}}"
        ));
        let lines = 2 + self.rng.below(12);
        let found = log(&mut self.rng, lines);
        self.claude(&format!(
            "{{\"type\":\"user\",\"isSidechain\":true,\"parentToolUseId\":\"{task}\",\"message\":{{\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"{grep}\",\"content\":\"{found}\"}}]}}}}"
        ));
        self.tool_result(&task, "The platform team wrote it.", false);
        self.assistant("[{\"type\":\"text\",\"text\":\"The platform team wrote it.\"}]");
    }
}

/// Writes a HAPI dump of about `size` bytes into `folder`: `stream.ndjson`
/// (every row), `page-latest.json` (the last 50 rows again, as the latest
/// page) and `session.json` (agentState). Returns the files.
fn hapi_dump(folder: &Path, size: u64) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(folder)?;
    let stream = folder.join("stream.ndjson");
    let mut session = HapiSession {
        rng: Rng(0x9E37_79B9_7F4A_7C15 ^ size),
        seq: 0,
        tools: 0,
        completed: Vec::new(),
        out: BufWriter::new(std::fs::File::create(&stream)?),
        written: 0,
        tail: std::collections::VecDeque::new(),
    };
    let mut round = 0;
    while session.written < size {
        match session.rng.below(10) {
            0..=4 => session.bash_turn(round),
            5 | 6 => session.codex_turn(round),
            7 | 8 => session.edit_turn(round),
            _ => session.task_turn(round),
        }
        round += 1;
    }
    session.out.flush()?;
    let rows: Vec<String> = session.tail.iter().cloned().collect();
    let page = format!(
        "{{\"messages\":[{}],\"page\":{{\"direction\":\"latest\",\"limit\":50,\"hasMore\":true}}}}",
        rows.join(",")
    );
    let page_path = folder.join("page-latest.json");
    std::fs::write(&page_path, page)?;
    let state = format!(
        "{{\"session\":{{\"id\":\"sess-bench-{}\",\"agentState\":{{\"requests\":{{}},\"completedRequests\":{{{}}}}}}}}}",
        size / MB,
        session.completed.join(",")
    );
    let session_path = folder.join("session.json");
    std::fs::write(&session_path, state)?;
    Ok(vec![stream, page_path, session_path])
}

/// Writes a Claude session transcript of about `size` bytes.
fn transcript(path: &Path, size: u64) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut written, mut n, mut parent) = (0u64, 0u64, String::from("null"));
    let mut entry = |out: &mut BufWriter<std::fs::File>,
                     ty: &str,
                     message: &str,
                     extra: &str|
     -> std::io::Result<u64> {
        n += 1;
        let uuid = format!("00000000-0000-4000-8000-{n:012}");
        let line = format!(
            "{{\"parentUuid\":{parent},\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"/home/dana/projects/app\",\"sessionId\":\"d6e0bada-1959-4eec-a9d2-0bfade768d8f\",\"version\":\"2.1.38\",\"gitBranch\":\"main\",\"type\":\"{ty}\",\"message\":{message}{extra},\"uuid\":\"{uuid}\",\"timestamp\":\"2026-02-10T22:{:02}:{:02}.{:03}Z\"}}",
            (n / 60) % 60,
            n % 60,
            n % 1000
        );
        parent = format!("\"{uuid}\"");
        writeln!(out, "{line}")?;
        Ok(line.len() as u64 + 1)
    };
    let mut tool = 0u64;
    while written < size {
        let (a, b) = (rng.pick(&WORDS), rng.pick(&WORDS));
        written += entry(
            &mut out,
            "user",
            &format!("{{\"role\":\"user\",\"content\":\"Why does the {a} {b} test fail?\"}}"),
            "",
        )?;
        tool += 1;
        let id = format!("toolu_{tool:08}");
        written += entry(
            &mut out,
            "assistant",
            &format!(
                "{{\"model\":\"claude-opus-4-1-20250805\",\"id\":\"msg_{tool:08}\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{{\"type\":\"text\",\"text\":\"Checking {a}.\"}},{{\"type\":\"tool_use\",\"id\":\"{id}\",\"name\":\"Bash\",\"input\":{{\"command\":\"cargo test {a}\"}}}}],\"stop_reason\":null,\"usage\":{{\"input_tokens\":10,\"output_tokens\":5}}}}"
            ),
            "",
        )?;
        let lines = 4 + rng.below(40);
        let output = log(&mut rng, lines);
        written += entry(
            &mut out,
            "user",
            &format!(
                "{{\"role\":\"user\",\"content\":[{{\"tool_use_id\":\"{id}\",\"type\":\"tool_result\",\"content\":\"{output}\",\"is_error\":false}}]}}"
            ),
            &format!(",\"toolUseResult\":{{\"stdout\":\"{output}\",\"stderr\":\"\",\"interrupted\":false}}"),
        )?;
        written += entry(
            &mut out,
            "assistant",
            &format!(
                "{{\"model\":\"claude-opus-4-1-20250805\",\"id\":\"msg_{tool:08}b\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{{\"type\":\"text\",\"text\":\"The {a} test fails because of {b}.\"}}],\"stop_reason\":\"end_turn\",\"usage\":{{\"input_tokens\":10,\"output_tokens\":5}}}}"
            ),
            "",
        )?;
    }
    out.flush()
}

/// Writes a stream-json log of many `query()` runs, about `size` bytes.
fn stream_json(path: &Path, size: u64) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    let session = "9b1c2d3e-4f50-4a6b-8c7d-0e1f2a3b4c5d";
    let (mut written, mut tool) = (0u64, 0u64);
    let line = |out: &mut BufWriter<std::fs::File>, text: String| -> std::io::Result<u64> {
        writeln!(out, "{text}")?;
        Ok(text.len() as u64 + 1)
    };
    while written < size {
        written += line(
            &mut out,
            format!(
                "{{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/home/dana/app\",\"session_id\":\"{session}\",\"tools\":[\"Bash\",\"Read\"],\"model\":\"claude-opus-4-1-20250805\",\"permissionMode\":\"default\",\"apiKeySource\":\"none\"}}"
            ),
        )?;
        for _ in 0..(2 + rng.below(6)) {
            tool += 1;
            let a = rng.pick(&WORDS);
            let id = format!("toolu_{tool:08}");
            written += line(
                &mut out,
                format!(
                    "{{\"type\":\"assistant\",\"message\":{{\"id\":\"msg_{tool:08}\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-opus-4-1-20250805\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"{id}\",\"name\":\"Bash\",\"input\":{{\"command\":\"cargo test {a}\"}}}}],\"stop_reason\":null,\"usage\":{{\"input_tokens\":10,\"output_tokens\":5}}}},\"parent_tool_use_id\":null,\"session_id\":\"{session}\"}}"
                ),
            )?;
            let lines = 4 + rng.below(40);
            let output = log(&mut rng, lines);
            written += line(
                &mut out,
                format!(
                    "{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":[{{\"tool_use_id\":\"{id}\",\"type\":\"tool_result\",\"content\":\"{output}\",\"is_error\":false}}]}},\"parent_tool_use_id\":null,\"session_id\":\"{session}\"}}"
                ),
            )?;
        }
        written += line(
            &mut out,
            format!(
                "{{\"type\":\"assistant\",\"message\":{{\"id\":\"msg_{tool:08}z\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-opus-4-1-20250805\",\"content\":[{{\"type\":\"text\",\"text\":\"Done.\"}}],\"stop_reason\":\"end_turn\",\"usage\":{{\"input_tokens\":10,\"output_tokens\":5}}}},\"parent_tool_use_id\":null,\"session_id\":\"{session}\"}}"
            ),
        )?;
        written += line(
            &mut out,
            format!(
                "{{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":1200,\"num_turns\":3,\"result\":\"Done.\",\"session_id\":\"{session}\",\"total_cost_usd\":0.01,\"usage\":{{\"input_tokens\":10,\"output_tokens\":5}}}}"
            ),
        )?;
    }
    out.flush()
}

/// What one capture cost.
struct Measured {
    seconds: f64,
    peak_rss_mb: f64,
    summary: String,
}

/// Runs `conform capture …` and measures it (peak RSS from wait4).
fn measure(conform: &Path, args: &[String], out: &Path) -> Measured {
    let _ = std::fs::remove_dir_all(out);
    let log = out.with_extension("log");
    let stdout = std::fs::File::create(&log).unwrap_or_else(|err| panic!("{}: {err}", log.display()));
    let started = Instant::now();
    // Reaped by `wait4` (which also gives the peak RSS), not by `Child::wait`.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(conform)
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|err| panic!("{}: {err}", conform.display()));
    let (status, peak) = wait_with_rusage(child.id());
    let seconds = started.elapsed().as_secs_f64();
    let printed = std::fs::read_to_string(&log).unwrap_or_default();
    let summary = printed.lines().filter(|line| !line.starts_with("wrote ")).collect::<Vec<_>>().join(" | ");
    assert_eq!(status, 0, "conform {args:?} failed:\n{printed}");
    Measured { seconds, peak_rss_mb: peak as f64 / 1024.0, summary }
}

/// Waits for `pid` and returns its exit status and peak RSS in KiB.
#[cfg(unix)]
fn wait_with_rusage(pid: u32) -> (i32, i64) {
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter; the pid is our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = libc::pid_t::try_from(pid).unwrap_or(0);
    // SAFETY: waiting for our own child with valid out-pointers.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    (code, usage.ru_maxrss)
}

fn size_of(files: &[PathBuf]) -> u64 {
    files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum()
}

fn row(label: &str, bytes: u64, measured: &Measured) {
    let mb = bytes as f64 / MB as f64;
    println!(
        "{label:<40} {mb:>8.1} MB {:>8.2} s {:>8.1} MB/s {:>8.1} MB peak RSS  {}",
        measured.seconds,
        mb / measured.seconds,
        measured.peak_rss_mb,
        measured.summary
    );
}

fn build_dumps(root: &Path, sizes: &[u64]) -> std::io::Result<Vec<(u64, Vec<PathBuf>)>> {
    let mut dumps = Vec::new();
    for &size in sizes {
        let folder = root.join(format!("hapi-{size}mb"));
        let stream = folder.join("stream.ndjson");
        let files = if std::fs::metadata(&stream).is_ok_and(|m| m.len() >= size * MB) {
            vec![stream, folder.join("page-latest.json"), folder.join("session.json")]
        } else {
            hapi_dump(&folder, size * MB)?
        };
        dumps.push((size, files));
    }
    Ok(dumps)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let Some(at) = args.iter().position(|a| a == "--dumps-only") {
        let root = PathBuf::from(args.get(at + 1).map_or("capture-dumps", String::as_str));
        let sizes: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
        let sizes = if sizes.is_empty() { HAPI_SIZES.to_vec() } else { sizes };
        build_dumps(&root, &sizes)?;
        transcript(&root.join("transcript.jsonl"), TRANSCRIPT_SIZE * MB)?;
        stream_json(&root.join("stream-json.jsonl"), STREAM_SIZE * MB)?;
        println!("dumps written to {}", root.display());
        return Ok(());
    }
    let sizes: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { HAPI_SIZES.to_vec() } else { sizes };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/capture-bench");
    let conform = PathBuf::from(env!("CARGO_BIN_EXE_conform"));
    let out = root.join("out");
    let dumps = build_dumps(&root, &sizes)?;
    println!("conform capture, {} cores", std::thread::available_parallelism().map_or(1, |n| n.get()));
    for (size, files) in &dumps {
        let mut args: Vec<String> =
            ["capture", "chat", "--from", "hapi-messages", "--window", "200", "--out"].map(str::to_owned).to_vec();
        args.push(out.display().to_string());
        args.extend(files.iter().map(|f| f.display().to_string()));
        row(&format!("hapi-messages {size} MB --window 200"), size_of(files), &measure(&conform, &args, &out));
    }
    let transcript_path = root.join("transcript.jsonl");
    if !std::fs::metadata(&transcript_path).is_ok_and(|m| m.len() >= TRANSCRIPT_SIZE * MB) {
        transcript(&transcript_path, TRANSCRIPT_SIZE * MB)?;
    }
    let stream_path = root.join("stream-json.jsonl");
    if !std::fs::metadata(&stream_path).is_ok_and(|m| m.len() >= STREAM_SIZE * MB) {
        stream_json(&stream_path, STREAM_SIZE * MB)?;
    }
    for (suite, path, label) in [
        ("claude-display", &transcript_path, "claude-display transcript"),
        ("claude-events", &stream_path, "claude-events stream-json runs"),
    ] {
        let files = [path.clone()];
        let args: Vec<String> = vec![
            "capture".into(),
            suite.into(),
            "--from".into(),
            "claude-stream-json".into(),
            "--out".into(),
            out.display().to_string(),
            path.display().to_string(),
        ];
        row(label, size_of(&files), &measure(&conform, &args, &out));
    }
    Ok(())
}
