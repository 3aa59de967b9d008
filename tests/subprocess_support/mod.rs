//! Helpers for the subprocess tests: a small chat corpus with an answers
//! file for the fault adapters, running `conform` under a watchdog, and
//! reading verdicts back from the JSON report.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Names of the cases in [`Scenario`], in run order.
pub const CASES: [&str; 6] = ["case-01", "case-02", "case-03", "case-04", "case-05", "case-06"];

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `python3`, or `None` with a visible notice when it is not installed.
pub fn python() -> Option<&'static str> {
    available("python3")
}

/// `node`, or `None` with a visible notice.
pub fn node() -> Option<&'static str> {
    available("node")
}

fn available(program: &'static str) -> Option<&'static str> {
    let found = Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if found.is_ok_and(|status| status.success()) {
        Some(program)
    } else {
        eprintln!("note: `{program}` is not installed: this test is skipped");
        None
    }
}

/// A chat fixture whose expectation follows the projection contract (one
/// user text message becomes one user-text block).
pub fn chat_fixture(name: &str, text: &str) -> Value {
    let block = json!({"createdAt": 1000, "id": "m1", "kind": "user-text", "localId": null, "text": text});
    json!({
        "fixtureVersion": 1,
        "name": name,
        "description": "One user text message becomes one user-text block.",
        "input": {
            "messages": [{
                "id": "m1", "seq": 1, "localId": null, "createdAt": 1000,
                "content": {"role": "user", "content": {"type": "text", "text": text}}
            }],
            "agentState": null,
            "options": {"hasMoreMessages": false}
        },
        "expected": {"blocks": [block.clone()], "hasReadyEvent": false, "latestUsage": null, "visibleBlocks": [block]}
    })
}

/// A temporary fixture tree of six chat cases (the first has a 200 KB
/// input, more than a pipe holds) and the answers file of the fault adapters.
pub struct Scenario {
    pub dir: tempfile::TempDir,
}

impl Scenario {
    pub fn new() -> Scenario {
        let dir = tempfile::tempdir().expect("temp dir");
        let chat = dir.path().join("tree/chat");
        std::fs::create_dir_all(&chat).unwrap();
        let mut answers = serde_json::Map::new();
        for name in CASES {
            let text = if name == "case-01" { "long ".repeat(40_000) } else { format!("hello from {name}") };
            let fixture = chat_fixture(name, &text);
            answers.insert(name.to_owned(), fixture["expected"].clone());
            std::fs::write(chat.join(format!("{name}.json")), conform::json::to_canonical_string(&fixture)).unwrap();
        }
        std::fs::write(dir.path().join("answers.json"), Value::Object(answers).to_string()).unwrap();
        Scenario { dir }
    }

    pub fn tree(&self) -> PathBuf {
        self.dir.path().join("tree")
    }

    pub fn answers(&self) -> PathBuf {
        self.dir.path().join("answers.json")
    }

    pub fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("out").join(name)
    }

    /// The command line of the persistent fault adapter.
    pub fn fault_adapter(&self, python: &str, fault: &str) -> String {
        format!(
            "{python} {} --fault {fault} --answers {}",
            root().join("tests/adapters/fault_adapter.py").display(),
            self.answers().display()
        )
    }

    /// The command line of the one-shot fault adapter.
    pub fn one_shot_adapter(&self, python: &str, faults: &str) -> String {
        format!(
            "{python} {} {} {faults}",
            root().join("tests/adapters/one_shot_fault.py").display(),
            self.answers().display()
        )
    }
}

/// What a finished `conform` process left behind.
#[derive(Debug)]
pub struct Finished {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `conform` with `args`, killing it and failing the test if it runs
/// longer than `limit` (the hard time bound of every subprocess test).
pub fn conform(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Finished {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conform"));
    command.args(args).current_dir(root()).env("NO_COLOR", "1");
    for (key, value) in env {
        command.env(key, value);
    }
    run_bounded(command, limit, |_| {})
}

/// Runs a prepared command with output captured in files (no pipe can fill
/// up), calling `during` once with the child's pid right after it starts.
pub fn run_bounded(mut command: Command, limit: Duration, during: impl FnOnce(u32)) -> Finished {
    let logs = tempfile::tempdir().unwrap();
    let stdout_path = logs.path().join("stdout");
    let stderr_path = logs.path().join("stderr");
    command
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    let started = Instant::now();
    let mut child = command.spawn().expect("conform starts");
    during(child.id());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "conform did not finish within {limit:?}: it hung\nstderr:\n{}",
                std::fs::read_to_string(&stderr_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        code: status.code(),
        stdout: std::fs::read_to_string(&stdout_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

/// The JSON report written into `out`.
pub fn report(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("conform-report.json")).expect("the JSON report was written");
    serde_json::from_str(&text).expect("the JSON report parses")
}

/// One case of a report.
#[derive(Clone, Debug)]
pub struct Judged {
    pub verdict: String,
    pub message: String,
    pub stderr: Option<String>,
}

/// Verdicts by fixture name.
pub fn verdicts(report: &Value) -> BTreeMap<String, Judged> {
    report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| {
            (
                case["name"].as_str().unwrap().to_owned(),
                Judged {
                    verdict: case["verdict"].as_str().unwrap().to_owned(),
                    message: case["message"].as_str().unwrap_or("").to_owned(),
                    stderr: case["stderr"].as_str().map(str::to_owned),
                },
            )
        })
        .collect()
}

/// `(id, verdict)` of every case, in report order.
pub fn verdict_list(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| (case["id"].as_str().unwrap().to_owned(), case["verdict"].as_str().unwrap().to_owned()))
        .collect()
}
