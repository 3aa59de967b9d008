//! `explore --time` bounds wall time, cases in flight included: with an
//! adapter that hangs on its first case, `--time 3s --timeout 60s` once ran
//! until the case timed out (and then reduced the timeout cluster with more
//! such cases; the attack measured 103 s for `--time 5s --timeout 20s`).
//! Now the case in flight is cut once the budget and a grace of 1 s are
//! spent, the adapter is killed, and the report covers what ran. And an
//! adapter outlived an explore killed by SIGKILL (which no handler sees):
//! the kernel now kills it with its harness.

use crate::common;

use common::{Conform, python, read_json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An adapter that hangs on every case, and the file each of its processes
/// writes its pid to (`CONFORM_TEST_PIDFILE`).
fn hanging_adapter(python: &str, dir: &Path) -> (String, PathBuf) {
    let answers = dir.join("answers.json");
    std::fs::write(&answers, "{}").unwrap();
    let adapter = format!(
        "{python} {} --fault hang --on '*' --answers {}",
        common::path_arg("tests/adapters/fault_adapter.py"),
        answers.display()
    );
    (adapter, dir.join("pids"))
}

fn a_hanging_adapter_cannot_hold_explore_past_its_time() {
    let Some(python) = python() else { return common::skip("python3 is not installed") };
    let dir = tempfile::tempdir().unwrap();
    let (adapter, pids) = hanging_adapter(python, dir.path());
    let out = dir.path().join("reports");
    let args = ["explore", "--impl-cmd", &adapter, "--suite", "chat", "--time", "3s", "--timeout", "60s", "-j", "1"];
    let finished =
        Conform::new(&[&args[..], &["--seed", "1", "--format", "json", "--out", out.to_str().unwrap()]].concat())
            .env("CONFORM_TEST_PIDFILE", &pids)
            .limit(Duration::from_secs(120))
            .run();
    assert!(finished.code.is_some_and(|code| code <= 1), "{}", finished.text());
    // 3 s of budget, 1 s of grace, and the start (a loaded machine may take a few seconds).
    assert!(finished.elapsed < Duration::from_secs(15), "{:?}: {}", finished.elapsed, finished.text());
    let report = read_json(&out.join("explore-report.json"));
    let chat = &report["suites"][0];
    assert_eq!(chat["judged"], 0, "the cut input is not judged: {chat}");
    assert_eq!(report["clusters"], serde_json::json!([]), "nothing ran to the end, nothing to reduce");
    // Every adapter process it started is gone.
    let started = std::fs::read_to_string(&pids).unwrap();
    assert!(!started.trim().is_empty());
    for pid in started.lines() {
        assert!(gone(pid), "adapter {pid} outlived explore");
    }
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
fn gone(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| stat.contains(") Z "))
}

fn no_adapter_outlives_an_explore_killed_by_sigkill() {
    let Some(python) = python() else { return common::skip("python3 is not installed") };
    let dir = tempfile::tempdir().unwrap();
    let (adapter, pids) = hanging_adapter(python, dir.path());
    let out = dir.path().join("reports");
    let args = ["explore", "--impl-cmd", &adapter, "--suite", "chat", "--time", "60s", "--timeout", "60s", "-j", "2"];
    let finished =
        Conform::new(&[&args[..], &["--seed", "1", "--no-pending", "--out", out.to_str().unwrap()]].concat())
            .env("CONFORM_TEST_PIDFILE", &pids)
            .limit(Duration::from_secs(60))
            .run_with(|pid| {
                let started = std::time::Instant::now();
                while std::fs::read_to_string(&pids).unwrap_or_default().lines().count() < 2 {
                    assert!(started.elapsed() < Duration::from_secs(30), "the adapters never started");
                    std::thread::sleep(Duration::from_millis(20));
                }
                // SAFETY: a plain system call on the child's pid.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            });
    assert_eq!(finished.code, None, "killed by a signal: {}", finished.text());
    let started = std::fs::read_to_string(&pids).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    for pid in started.lines() {
        while !gone(pid) {
            assert!(std::time::Instant::now() < deadline, "adapter {pid} outlived explore by 2 s");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

crate::trials![a_hanging_adapter_cannot_hold_explore_past_its_time, no_adapter_outlives_an_explore_killed_by_sigkill];
