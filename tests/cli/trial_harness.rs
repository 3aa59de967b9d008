//! The trial harness itself (tests/common/harness.rs): a test that skips
//! for want of a resource is reported ignored, with its reason, never as a
//! pass; a failing or panicking one still fails. The demonstration trials
//! run in a child process of this test binary (listed only when
//! [`DEMO`] is set), so that their failures stay out of this run's output.

use crate::common::harness::{record_skip, trial};
use std::process::Command;

/// Set in the child: the binary lists the demonstration trials only.
pub const DEMO: &str = "CONFORM_TRIAL_HARNESS_DEMO";

fn needs_a_program() {
    record_skip("`a-program-no-machine-has` not installed");
}

fn needs_nothing() {}

fn fails() -> Result<(), String> {
    Err("a failure".to_owned())
}

fn panics() {
    panic!("a panic");
}

/// The demonstration trials (in the child).
pub fn demo_trials() -> Vec<libtest_mimic::Trial> {
    vec![
        trial("cli::demo", "needs_a_program", needs_a_program),
        trial("cli::demo", "needs_nothing", needs_nothing),
        trial("cli::demo", "fails", fails),
        trial("cli::demo", "panics", panics),
    ]
}

fn demo_run() -> (Option<i32>, String) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args(["--test-threads", "1", "demo::"])
        .env(DEMO, "1")
        .output()
        .expect("the test binary runs");
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

fn a_skipped_test_is_an_ignored_trial_with_its_reason_not_a_pass() {
    let (code, stdout) = demo_run();
    assert!(
        stdout.lines().any(|line| line.starts_with("test demo::needs_a_program")
            && line.contains("ignored")
            && line.contains("`a-program-no-machine-has` not installed")),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|line| line.starts_with("test demo::needs_nothing") && line.ends_with("ok")),
        "{stdout}"
    );
    assert!(stdout.contains("1 passed; 2 failed; 1 ignored"), "{stdout}");
    assert_eq!(code, Some(101), "{stdout}");
}

fn failures_and_panics_still_fail() {
    let (_, stdout) = demo_run();
    for name in ["fails", "panics"] {
        assert!(
            stdout.lines().any(|line| line.starts_with(&format!("test demo::{name} ")) && line.ends_with("FAILED")),
            "{stdout}"
        );
    }
}

fn trials_are_named_by_module_and_function() {
    assert_eq!(trial("cli::cli_core", "hapi_list", needs_nothing).name(), "cli_core::hapi_list");
}

crate::trials![
    a_skipped_test_is_an_ignored_trial_with_its_reason_not_a_pass,
    failures_and_panics_still_fail,
    trials_are_named_by_module_and_function
];
