//! `conform check-adapter` catches every fault adapter and explains it in
//! plain words; a well-behaved adapter gets a clean bill.

use crate::common;

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

fn check_adapter_refuses_a_command_that_cannot_start() {
    let scenario = Scenario::new();
    let (exit, _) = check(&scenario, "conform-no-such-adapter", &[]);
    assert_eq!(exit, Some(2));
}

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

fn check_adapter_waits_five_seconds_for_the_exit_after_bye_whatever_the_timeout() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let (exit, stdout) = check(&scenario, &scenario.fault_adapter(python, "slow-bye"), &["--timeout", "1s"]);
    assert_eq!(exit, Some(0), "{stdout}");
    assert!(stdout.contains("ok       bye: exited with status 0"), "{stdout}");
}

fn check_adapter_makes_an_unknown_suite_name_a_problem_naming_the_nearest_one() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let command = scenario.fault_adapter(python, "none --declare chat:1,tool_policy:1");
    let (exit, stdout) = check(&scenario, &command, &[]);
    assert_eq!(exit, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "PROBLEM  declares a suite `tool_policy` this harness does not know (the nearest known name is \
             `tool-policy`)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("the suites this harness knows: "), "{stdout}");
}

fn check_adapter_counts_the_smoke_cases_it_sends() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    // Six chat cases are selected; an adapter of another suite gets none of them.
    let (exit, stdout) = check(&scenario, &scenario.fault_adapter(python, "none --declare sse:1"), &[]);
    assert_eq!(exit, Some(0), "{stdout}");
    assert!(stdout.contains("(protocol v1, 6 smoke cases selected, --timeout 2 s)"), "{stdout}");
    assert!(stdout.contains("note     6 of the 6 smoke cases were not sent"), "{stdout}");
    assert!(stdout.contains("smoke cases: 0 of 6 sent: 0 passed, 0 failed, 0 errors, 0 skipped"), "{stdout}");
    let (_, stdout) = check(&scenario, &scenario.fault_adapter(python, "none"), &[]);
    assert!(stdout.contains("smoke cases: 6 of 6 sent: 6 passed"), "{stdout}");
}

fn check_adapter_into_a_closed_pipe_ends_quietly() {
    use std::io::BufRead;
    // `conform check-adapter … | head -1`: the reader leaves after the first line.
    let scenario = Scenario::new();
    let tree = scenario.tree();
    let adapter = format!("{} adapter", env!("CARGO_BIN_EXE_conform"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(["check-adapter", "--impl-cmd", &adapter, tree.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("conform starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("conform check-adapter: "), "{first}");
    // The reader is dropped: every later write meets a broken pipe.
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr_pipe, &mut text);
        text
    });
    let deadline = std::time::Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            panic!("check-adapter did not end within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = stderr.join().unwrap();
    assert!(!stderr.contains("panicked") && !stderr.contains("a bug"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}

fn check_adapter_shows_stderr_controls_instead_of_sending_them_to_the_terminal() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let (exit, stdout) = check(&scenario, &scenario.fault_adapter(python, "crash-ansi"), &[]);
    assert_eq!(exit, Some(1), "{stdout}");
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\r'), "{stdout:?}");
    assert!(stdout.contains("| ␛[31mdecoder: fatal␛[0m 50%␍done"), "{stdout}");
}

fn check_adapter_quotes_a_long_stderr_line_whole() {
    if cfg!(not(unix)) {
        return common::skip("sh (a Unix shell) is needed for this adapter");
    }
    // What python3 says of a script path that does not exist, with a path as long as a CI checkout's.
    let path = format!("/home/runner/work/{}/conform_adapter.py", "checkout/".repeat(12));
    let line = format!("python3: can't open file '{path}': [Errno 2] No such file or directory");
    let command = format!("sh -c {}", shlex::try_quote(&format!("echo \"{line}\" >&2; exit 2")).unwrap());
    let scenario = Scenario::new();
    let (exit, stdout) = check(&scenario, &command, &[]);
    assert_eq!(exit, Some(1), "{stdout}");
    assert!(stdout.contains("PROBLEM  the implementation ended (exit status 2) before sending its hello"), "{stdout}");
    assert!(stdout.contains(&format!("  | {line}\n")), "the line whole:\n{stdout}");
}

crate::trials![
    check_adapter_explains_each_fault,
    check_adapter_explains_one_shot_faults,
    check_adapter_refuses_a_command_that_cannot_start,
    check_adapter_flags_malformed_hellos_against_the_schema,
    check_adapter_waits_five_seconds_for_the_exit_after_bye_whatever_the_timeout,
    check_adapter_makes_an_unknown_suite_name_a_problem_naming_the_nearest_one,
    check_adapter_counts_the_smoke_cases_it_sends,
    check_adapter_into_a_closed_pipe_ends_quietly,
    check_adapter_shows_stderr_controls_instead_of_sending_them_to_the_terminal,
    check_adapter_quotes_a_long_stderr_line_whole
];
