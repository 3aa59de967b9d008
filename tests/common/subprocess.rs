//! The fault-adapter scenario of the subprocess tests: a small chat corpus
//! with the answers file the adapters in tests/adapters/ read, and the
//! verdicts read back from a report by fixture name.

use super::{chat_fixture, path_arg, write_fixture};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Names of the cases in [`Scenario`], in run order.
pub const CASES: [&str; 6] = ["case-01", "case-02", "case-03", "case-04", "case-05", "case-06"];

/// A temporary fixture tree of six chat cases (the first has a 200 KB
/// input, more than a pipe holds) and the answers file of the fault adapters.
pub struct Scenario {
    pub dir: tempfile::TempDir,
}

impl Scenario {
    pub fn new() -> Scenario {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut answers = serde_json::Map::new();
        for name in CASES {
            let text = if name == "case-01" { "long ".repeat(40_000) } else { format!("hello from {name}") };
            let fixture = chat_fixture(name, &text, &text);
            answers.insert(name.to_owned(), fixture["expected"].clone());
            write_fixture(&dir.path().join("tree/chat"), &fixture);
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
            path_arg("tests/adapters/fault_adapter.py"),
            self.answers().display()
        )
    }

    /// The command line of the one-shot fault adapter.
    pub fn one_shot_adapter(&self, python: &str, faults: &str) -> String {
        format!("{python} {} {} {faults}", path_arg("tests/adapters/one_shot_fault.py"), self.answers().display())
    }
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

/// Processes the test adapters leave behind on purpose (their pids are
/// appended to the file `$CONFORM_TEST_GRANDCHILD_PIDFILE` names); whatever
/// is still alive when this is dropped is killed.
#[cfg(unix)]
pub struct Grandchildren {
    dir: tempfile::TempDir,
}

#[cfg(unix)]
impl Grandchildren {
    pub fn new() -> Grandchildren {
        Grandchildren { dir: tempfile::tempdir().expect("temp dir") }
    }

    /// The environment variable that tells the adapters where to write.
    pub fn env(&self) -> (&'static str, PathBuf) {
        ("CONFORM_TEST_GRANDCHILD_PIDFILE", self.dir.path().join("pids"))
    }

    /// The pids written so far.
    pub fn pids(&self) -> Vec<i32> {
        let text = std::fs::read_to_string(self.env().1).unwrap_or_default();
        text.lines().filter_map(|line| line.trim().parse().ok()).collect()
    }

    /// Waits up to `limit` until none of them is alive; false if one still is.
    pub fn all_gone_within(&self, limit: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        loop {
            if !self.pids().into_iter().any(alive) {
                return true;
            }
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

#[cfg(unix)]
impl Drop for Grandchildren {
    fn drop(&mut self) {
        for pid in self.pids().into_iter().filter(|&pid| alive(pid)) {
            // SAFETY: plain system call on a process the test adapter started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

#[cfg(unix)]
/// Whether `pid` runs (a zombie that no one reaped yet does not count).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        // SAFETY: signal 0 only checks whether the process exists.
        Err(_) if !std::path::Path::new("/proc/self").exists() => unsafe { libc::kill(pid, 0) == 0 },
        Err(_) => false,
    }
}
