//! `conform check-adapter` catches every fault adapter and explains it in
//! plain words; a well-behaved adapter gets a clean bill.

mod common;

use common::subprocess::Scenario;
use common::{Conform, python};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

fn check(scenario: &Scenario, command: &str, extra: &[&str]) -> (Option<i32>, String) {
    let tree = scenario.tree();
    let mut args = vec!["check-adapter", "--impl-cmd", command, tree.to_str().unwrap(), "--per-suite", "0"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--timeout") {
        args.extend_from_slice(&["--timeout", "2s"]);
    }
    let finished = Conform::new(&args).limit(LIMIT).run();
    assert!(!finished.stderr.contains("panicked"), "{}", finished.stderr);
    (finished.code, finished.stdout)
}

#[test]
fn check_adapter_explains_each_fault() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let cases: [(&str, &[&str], i32, &[&str]); 11] = [
        (
            "none",
            &[],
            0,
            &["ok       hello: fault-none", "bye: exited with status 0", "0 protocol problems", "6 passed"],
        ),
        (
            "crash",
            &[],
            1,
            &[
                "PROBLEM  the implementation ended (exit status 3) while chat/case-03 was in flight",
                "| decoder: fatal error in case-03",
            ],
        ),
        ("hang", &[], 1, &["PROBLEM  chat/case-03: no reply within 2 s", "flush stdout after each result"]),
        (
            "garbage",
            &[],
            1,
            &[
                "chat/case-03: stdout line 4 is not a protocol message: not JSON",
                "`Loading model weights",
                "print logs to stderr",
            ],
        ),
        (
            "wrong-id",
            &[],
            1,
            &["chat/case-03: the reply carries id 1003, but this case was sent with id 3", "copy the `id`"],
        ),
        ("twice", &[], 1, &["id 3 (chat/case-03) was answered twice"]),
        (
            "no-hello",
            &["--hello-timeout", "1s"],
            1,
            &["PROBLEM  no hello within 1 s", "\"suites\":{\"chat\":[1]}", "flush stdout"],
        ),
        ("exit0", &[], 1, &["ended (exit status 0) while chat/case-03 was in flight", "until {\"op\":\"bye\"}"]),
        (
            "stderr-flood",
            &[],
            0,
            &[
                "warning  chat/case-03: the implementation wrote ",
                " MiB to stderr during this case",
                "keeps only the last 32 KiB",
            ],
        ),
        ("long-line", &["--timeout", "30s"], 1, &["chat/case-03: stdout line 4 is longer than --max-output (64 MiB)"]),
        (
            "no-read",
            &[],
            1,
            &["chat/case-01: no reply within 2 s", "it had read only", "it must read stdin while it works"],
        ),
    ];
    for (fault, extra, code, phrases) in cases {
        let (exit, stdout) = check(&scenario, &scenario.fault_adapter(python, fault), extra);
        assert_eq!(exit, Some(code), "{fault}:\n{stdout}");
        for phrase in phrases {
            assert!(stdout.contains(phrase), "{fault}: missing {phrase:?} in\n{stdout}");
        }
    }
}

#[test]
fn check_adapter_explains_one_shot_faults() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let command = scenario.one_shot_adapter(python, "case-02:signal,case-04:garbage");
    let (exit, stdout) = check(&scenario, &command, &["--one-shot", "--timeout", "10s"]);
    assert_eq!(exit, Some(1), "{stdout}");
    for phrase in [
        "PROBLEM  chat/case-02: the implementation was killed by signal 11 (SIGSEGV",
        "PROBLEM  chat/case-04: stdout is not one JSON value",
        "stdout must hold exactly one JSON value",
        "one-shot mode took",
    ] {
        assert!(stdout.contains(phrase), "missing {phrase:?} in\n{stdout}");
    }
}

#[test]
fn check_adapter_refuses_a_command_that_cannot_start() {
    let scenario = Scenario::new();
    let (exit, _) = check(&scenario, "conform-no-such-adapter", &[]);
    assert_eq!(exit, Some(2));
}

#[test]
fn check_adapter_flags_malformed_hellos_against_the_schema() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let script = scenario.dir.path().join("bad_hello.py");
    std::fs::write(
        &script,
        "import sys\nsys.stdin.readline()\nprint('{\"op\":\"hello\",\"protocol\":1,\"implementation\":{\"name\":\"x\",\"version\":\"1\"},\"suites\":{\"chat\":\"1\"}}', flush=True)\nsys.stdin.readline()\n",
    )
    .unwrap();
    let (exit, stdout) = check(&scenario, &format!("{python} {}", script.display()), &[]);
    assert_eq!(exit, Some(1), "{stdout}");
    assert!(
        stdout.contains("PROBLEM  the hello is malformed: the hello message has no \"implementation.language\" member"),
        "{stdout}"
    );
    assert!(stdout.contains("schema hello-response.schema.json: /implementation:"), "{stdout}");
    assert!(stdout.contains("schema hello-response.schema.json: /suites/chat:"), "{stdout}");
}

#[test]
fn check_adapter_waits_five_seconds_for_the_exit_after_bye_whatever_the_timeout() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let (exit, stdout) = check(&scenario, &scenario.fault_adapter(python, "slow-bye"), &["--timeout", "1s"]);
    assert_eq!(exit, Some(0), "{stdout}");
    assert!(stdout.contains("ok       bye: exited with status 0"), "{stdout}");
}
