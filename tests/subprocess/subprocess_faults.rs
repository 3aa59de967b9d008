//! Every fault an external implementation can commit ends as a verdict on
//! the case it happened during, the other cases are still judged, the run
//! exits 1, and the harness neither panics nor hangs. Each test runs real
//! child processes (tests/adapters/*.py) under a hard time limit.

use crate::common;

use common::subprocess::{CASES, Judged, Scenario, verdicts};
use common::{Conform, Finished, assert_valid_report, python, report};
use std::path::PathBuf;
use std::time::Duration;

/// Hard bound of each run: generous for a loaded CI machine, far below a hang.
const LIMIT: Duration = Duration::from_secs(120);

struct FaultRun {
    /// Owns the temporary tree the run used (and its report folder).
    _scenario: Scenario,
    finished: Finished,
    verdicts: std::collections::BTreeMap<String, Judged>,
    out: std::path::PathBuf,
}

/// Runs the fault adapter over a fresh scenario, or `None` (with the skip
/// note) without python3; `extra` flags come after the defaults
/// (`--timeout 2s -j 1`), which they may override by being given instead:
/// pass `--timeout`/`-j` only through `extra` to change them.
fn run_fault(fault: &str, extra: &[&str]) -> Option<FaultRun> {
    run_fault_with(fault, extra, &[])
}

/// [`run_fault`] with environment variables for the adapter.
fn run_fault_with(fault: &str, extra: &[&str], env: &[(&str, PathBuf)]) -> Option<FaultRun> {
    let python = python()?;
    let scenario = Scenario::new();
    let command = scenario.fault_adapter(python, fault);
    let out = scenario.out(&fault.replace(|c: char| !c.is_ascii_alphanumeric(), "-"));
    let tree = scenario.tree();
    let mut args = vec![
        "run",
        tree.to_str().unwrap(),
        "--impl-cmd",
        &command,
        "--format",
        "pretty",
        "--format",
        "json",
        "--format",
        "junit",
        "--format",
        "markdown",
        "--out",
        out.to_str().unwrap(),
    ];
    if !extra.contains(&"--timeout") {
        args.extend_from_slice(&["--timeout", "2s"]);
    }
    if !extra.contains(&"-j") {
        args.extend_from_slice(&["-j", "1"]);
    }
    args.extend_from_slice(extra);
    let mut conform = Conform::new(&args).limit(LIMIT);
    for (key, value) in env {
        conform = conform.env(key, value);
    }
    let finished = conform.run();
    assert!(!finished.stderr.contains("panicked"), "the harness panicked:\n{}", finished.stderr);
    let verdicts = verdicts(&report(&out));
    assert_eq!(verdicts.len(), CASES.len(), "every case is in the report");
    Some(FaultRun { _scenario: scenario, finished, verdicts, out })
}

/// Asserts that `case` got `verdict` with a message containing `words`, that
/// every other case passed, and that the run exited 1.
fn only_case_faulted(run: &FaultRun, case: &str, verdict: &str, words: &[&str]) {
    let judged = &run.verdicts[case];
    assert_eq!(judged.verdict, verdict, "{case}: {judged:?}");
    for word in words {
        assert!(judged.message.contains(word), "{case}: message {:?} lacks {word:?}", judged.message);
    }
    for (name, other) in run.verdicts.iter().filter(|(name, _)| *name != case) {
        assert_eq!(other.verdict, "pass", "{name}: {other:?}");
    }
    assert_eq!(run.finished.code, Some(1), "stdout:\n{}\nstderr:\n{}", run.finished.stdout, run.finished.stderr);
}

fn a_crash_on_the_third_case_is_a_crash_there_and_the_rest_still_pass() {
    let Some(run) = run_fault("crash", &[]) else { return };
    only_case_faulted(
        &run,
        "case-03",
        "crash",
        &["exit status 3", "while the case was in flight", "fatal error in case-03"],
    );
    let stderr = run.verdicts["case-03"].stderr.as_deref().unwrap_or("");
    assert!(stderr.contains("decoder: fatal error in case-03"), "{stderr}");
    // Every report shows the verdict, the message and the stderr tail.
    let report = report(&run.out);
    assert_valid_report(&report);
    assert_eq!(report["cases"][2]["verdict"], "crash");
    let junit = std::fs::read_to_string(run.out.join("junit.xml")).unwrap();
    assert!(junit.contains(r#"type="crash""#) && junit.contains("exit status 3"), "{junit}");
    assert!(junit.contains("decoder: fatal error in case-03"), "stderr goes to system-err");
    let markdown = std::fs::read_to_string(run.out.join("conform-report.md")).unwrap();
    assert!(markdown.contains("<b>crash</b>") && markdown.contains("decoder: fatal error in case-03"), "{markdown}");
    assert!(run.finished.stdout.contains("CRASH chat/case-03"), "{}", run.finished.stdout);
    assert!(run.finished.stdout.contains("| decoder: fatal error in case-03"), "{}", run.finished.stdout);
    assert!(run.finished.stdout.trim_end().ends_with("5 passed, 1 failed"), "{}", run.finished.stdout);
}

fn adapter_stderr_reaches_the_terminal_with_its_controls_shown_and_the_reports_whole() {
    let Some(run) = run_fault("crash-ansi", &[]) else { return };
    only_case_faulted(&run, "case-03", "crash", &["exit status 3"]);
    let stdout = &run.finished.stdout;
    // NO_COLOR is set, so every escape on stdout would be the adapter's.
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\r'), "raw controls on the terminal:\n{stdout:?}");
    assert!(stdout.contains("| ␛[31mdecoder: fatal␛[0m 50%␍done"), "{stdout}");
    // The report keeps the bytes the adapter wrote (JSON escapes them).
    let stderr = run.verdicts["case-03"].stderr.as_deref().unwrap_or("");
    assert_eq!(stderr, "\u{1b}[31mdecoder: fatal\u{1b}[0m 50%\rdone\n");
}

#[cfg(unix)]
fn a_failed_first_handshake_shows_stderr_controls_too() {
    let command = r#"sh -c 'printf "\033[2J\033[31mboom\r50%%\n" >&2; exit 1'"#;
    let finished = first_handshake_fails(command, &[]);
    assert!(!finished.stderr.contains('\u{1b}'), "{:?}", finished.stderr);
    assert!(finished.stderr.contains("  | ␛[2J␛[31mboom␍50%\n"), "{}", finished.stderr);
}

fn a_case_that_hangs_times_out_and_the_process_is_replaced() {
    let Some(run) = run_fault("hang", &[]) else { return };
    only_case_faulted(&run, "case-03", "timeout", &["no reply within 2 s", "killed"]);
    assert!(run.finished.elapsed < Duration::from_secs(60), "{:?}", run.finished.elapsed);
}

fn a_reply_without_its_newline_times_out_with_a_hint() {
    let Some(run) = run_fault("no-newline", &[]) else { return };
    only_case_faulted(&run, "case-03", "timeout", &["without a final newline", "end each message with \\n and flush"]);
}

fn garbage_on_stdout_is_a_protocol_error_of_the_case_in_flight() {
    let Some(run) = run_fault("garbage", &[]) else { return };
    only_case_faulted(
        &run,
        "case-03",
        "protocol-error",
        &["not JSON", "Loading model weights", "write logs to stderr"],
    );
}

fn a_reply_with_a_wrong_id_is_a_protocol_error() {
    let Some(run) = run_fault("wrong-id", &[]) else { return };
    only_case_faulted(&run, "case-03", "protocol-error", &["carries id 1003", "in flight has id 3"]);
}

fn a_second_reply_makes_the_twice_answered_case_a_protocol_error() {
    let Some(run) = run_fault("twice", &[]) else { return };
    only_case_faulted(&run, "case-03", "protocol-error", &["replied twice to id 3", "first verdict: pass"]);
}

/// Runs `conform run` over the scenario with `command`, which is expected
/// to fail its first handshake: a setup error, one block, no report.
fn first_handshake_fails(command: &str, extra: &[&str]) -> Finished {
    let scenario = Scenario::new();
    let tree = scenario.tree();
    let out = scenario.out("handshake");
    let mut args = vec!["run", tree.to_str().unwrap(), "--impl-cmd", command, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let finished = Conform::new(&args).limit(LIMIT).run();
    assert_eq!(finished.code, Some(2), "a setup error:\n{}{}", finished.stdout, finished.stderr);
    assert!(!finished.stderr.contains("panicked"), "{}", finished.stderr);
    assert_eq!(finished.stderr.matches("error: ").count(), 1, "one block:\n{}", finished.stderr);
    assert!(finished.stderr.contains("error: the implementation failed its first handshake, so no case can run"));
    assert!(finished.stderr.contains(&format!("  command: {command}\n")), "{}", finished.stderr);
    assert!(finished.stderr.contains("  hint: `conform check-adapter --impl-cmd "), "{}", finished.stderr);
    assert!(!finished.text().contains("CRASH") && !finished.text().contains("PROTOCOL-ERROR"), "{}", finished.text());
    assert!(!out.exists(), "no case ran, so no report is written");
    finished
}

#[cfg(unix)]
fn an_implementation_that_exits_at_once_is_a_setup_error_with_its_status_and_stderr() {
    // What `java -jar missing.jar` does.
    let command = "sh -c 'echo Error: Unable to access jarfile missing.jar >&2; exit 1'";
    let finished = first_handshake_fails(command, &[]);
    assert!(finished.stderr.contains("  ended:   exit status 1\n"), "{}", finished.stderr);
    assert!(
        finished.stderr.contains("  stderr (last 1 lines):\n  | Error: Unable to access jarfile missing.jar\n"),
        "{}",
        finished.stderr
    );
}

fn an_implementation_that_never_says_hello_is_a_setup_error() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let command = scenario.fault_adapter(python, "no-hello");
    let finished = first_handshake_fails(&command, &["--hello-timeout", "1s"]);
    assert!(finished.stderr.contains("no hello from the implementation within 1 s"), "{}", finished.stderr);
    assert!(finished.stderr.contains("  ended:   it was still running; conform killed it"), "{}", finished.stderr);
}

fn exiting_with_status_0_mid_run_is_a_crash_of_the_case_in_flight() {
    let Some(run) = run_fault("exit0", &[]) else { return };
    only_case_faulted(&run, "case-03", "crash", &["exit status 0"]);
}

fn ten_mib_of_stderr_neither_blocks_nor_floods_the_report() {
    let Some(run) = run_fault("stderr-flood", &[]) else { return };
    only_case_faulted(&run, "case-03", "error", &["the decoder gave up"]);
    let stderr = run.verdicts["case-03"].stderr.clone().expect("the stderr tail is attached");
    assert!(stderr.len() <= 40 * 1024, "kept {} bytes", stderr.len());
    assert!(stderr.contains("of stderr before this not kept"), "{}", &stderr[..200]);
    assert!(stderr.contains("eeeeeeee"), "the tail of the flood is kept");
}

fn a_100_mib_line_is_cut_off_at_max_output_and_the_stream_stays_in_step() {
    // A generous --timeout: reading 64 MiB in an unoptimized build takes a moment.
    let Some(run) = run_fault("long-line", &["--timeout", "30s"]) else { return };
    only_case_faulted(&run, "case-03", "protocol-error", &["--max-output (64 MiB)", "cut off"]);
}

fn an_implementation_that_never_reads_stdin_times_out_until_the_budget_is_spent() {
    let Some(run) = run_fault("no-read", &["--max-restarts", "2"]) else { return };
    let v = &run.verdicts;
    for case in ["case-01", "case-02", "case-03"] {
        assert_eq!(v[case].verdict, "timeout", "{case}: {:?}", v[case]);
    }
    // case-01's input is larger than a pipe holds: the writer is stuck, the harness is not.
    assert!(v["case-01"].message.contains("it had read only"), "{}", v["case-01"].message);
    for case in ["case-04", "case-05", "case-06"] {
        assert_eq!(v[case].verdict, "error", "{case}");
        assert!(v[case].message.starts_with("not run: restart budget exhausted"), "{}", v[case].message);
    }
    assert_eq!(run.finished.code, Some(1));
}

#[cfg(unix)]
fn an_exit_is_a_crash_at_once_even_while_a_grandchild_holds_stdout() {
    // Without watching the process, the harness would wait for the end of
    // stdout, which the grandchild holds for two minutes: a `timeout`.
    for fault in ["fork-exit", "detach-exit"] {
        let grandchildren = common::subprocess::Grandchildren::new();
        let Some(run) = run_fault_with(fault, &["--timeout", "60s"], &[grandchildren.env()]) else { return };
        only_case_faulted(
            &run,
            "case-03",
            "crash",
            &["exit status 3", "while the case was in flight", "leaving a helper behind"],
        );
        assert_eq!(grandchildren.pids().len(), 1, "{fault}: the adapter left its grandchild");
        if fault == "fork-exit" {
            // One still in the process group is killed with it.
            assert!(grandchildren.all_gone_within(Duration::from_secs(30)), "{fault}: the grandchild survived");
        }
    }
}

fn the_wait_for_an_exit_after_bye_is_five_seconds_whatever_the_timeout() {
    // --timeout limits a case, not the way out: an adapter that takes 3 s to
    // exit after bye exits cleanly under a 1 s --timeout.
    let Some(run) = run_fault("slow-bye", &["--timeout", "1s"]) else { return };
    assert!(run.verdicts.values().all(|j| j.verdict == "pass"), "{:?}", run.verdicts);
    assert_eq!(run.finished.code, Some(0), "{}", run.finished.stderr);
    assert!(!run.finished.stderr.contains("after bye"), "{}", run.finished.stderr);
    // One that never exits is killed after 5 s, with a warning saying so.
    let Some(run) = run_fault("stay", &["--timeout", "1s"]) else { return };
    assert_eq!(run.finished.code, Some(0), "{}", run.finished.stderr);
    assert!(
        run.finished.stderr.contains("warning: the implementation did not exit within 5 s after bye; it was killed"),
        "{}",
        run.finished.stderr
    );
}

fn parallel_processes_contain_a_crash_too() {
    let Some(run) = run_fault("crash", &["-j", "3"]) else { return };
    only_case_faulted(&run, "case-03", "crash", &["exit status 3"]);
}

fn skipped_and_unsupported_cases_are_listed_but_do_not_fail_the_run() {
    let Some(run) = run_fault("skip", &[]) else { return };
    assert_eq!(run.verdicts["case-03"].verdict, "skipped");
    assert_eq!(run.verdicts["case-03"].message, "not implemented yet");
    assert_eq!(run.finished.code, Some(0), "{}", run.finished.stdout);
    assert!(run.finished.stdout.contains("SKIPPED chat/case-03: not implemented yet"), "{}", run.finished.stdout);
    assert!(run.finished.stdout.trim_end().ends_with("5 passed, 0 failed, 1 skipped"), "{}", run.finished.stdout);
}

fn a_run_that_judges_nothing_fails_with_one_line_unless_allowed_or_listed() {
    let Some(run) = run_fault("none --declare chat:2,sse:1", &[]) else { return };
    for judged in run.verdicts.values() {
        assert_eq!(judged.verdict, "unsupported");
        assert_eq!(judged.message, "the implementation declares fixtureVersions [2] of `chat`, not 1");
    }
    assert_eq!(run.finished.code, Some(1), "{}", run.finished.stderr);
    let reason: Vec<&str> = run.finished.stderr.lines().filter(|l| l.contains("no case was judged")).collect();
    assert_eq!(
        reason,
        ["error: no case was judged: 0 skipped, 6 unsupported of 6 (the implementation declares none of the selected \
          suites and fixtureVersions); pass --allow-no-judged or list them in a baseline if that is intended"],
        "{}",
        run.finished.stderr
    );

    let Some(allowed) = run_fault("none --declare chat:2,sse:1", &["--allow-no-judged"]) else { return };
    assert_eq!(allowed.finished.code, Some(0), "{}", allowed.finished.stderr);
    assert!(!allowed.finished.stderr.contains("no case was judged"), "{}", allowed.finished.stderr);

    let listed = tempfile::tempdir().unwrap();
    let baseline = listed.path().join("baseline.toml");
    std::fs::write(
        &baseline,
        "version = 1\n\n[[known-failure]]\nid = \"chat/*\"\nverdict = \"unsupported\"\nreason = \"chat v2 only\"\n",
    )
    .unwrap();
    let Some(listed) = run_fault("none --declare chat:2,sse:1", &["--baseline", baseline.to_str().unwrap()]) else {
        return;
    };
    assert_eq!(listed.finished.code, Some(0), "{}", listed.finished.stderr);
}

fn a_run_warns_about_a_misspelt_suite_in_the_hello_with_the_nearest_name() {
    let Some(run) = run_fault("none --declare chat:1,Chat_:1", &[]) else { return };
    let warnings: Vec<&str> = run.finished.stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(
        warnings,
        ["warning: the implementation declares a suite `Chat_` this harness does not know (the nearest known name is \
          `chat`): none of its cases is sent"],
        "{}",
        run.finished.stderr
    );
    assert!(run.verdicts.values().all(|judged| judged.verdict == "pass"), "{:?}", run.verdicts);
}

/// A one-suite team runs without `--suite` and gets that suite: one note
/// names the suites left out and why; `--quiet` leaves out the note and the
/// `implementation:` line; `--suite` still runs what it names.
fn a_run_without_suite_runs_only_the_declared_suites() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let sse = common::own_fixtures("sse").into_iter().next().unwrap();
    std::fs::create_dir_all(scenario.tree().join("sse")).unwrap();
    std::fs::copy(&sse, scenario.tree().join("sse").join(sse.file_name().unwrap())).unwrap();
    let command = scenario.fault_adapter(python, "none --declare chat:1");
    let tree = scenario.tree();
    let out = scenario.out("declared");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", tree.to_str().unwrap(), "--impl-cmd", &command, "--format", "json"];
        args.extend_from_slice(&["--out", out.to_str().unwrap(), "--no-progress"]);
        args.extend_from_slice(extra);
        let finished = Conform::new(&args).limit(LIMIT).run();
        assert!(!finished.stderr.contains("panicked"), "{}", finished.stderr);
        finished
    };
    let finished = run(&[]);
    assert_eq!(finished.code, Some(0), "{}{}", finished.stdout, finished.stderr);
    let notes: Vec<&str> = finished.stderr.lines().filter(|line| line.starts_with("note: running")).collect();
    assert_eq!(
        notes,
        ["note: running the suites the implementation declares (chat); left out, since every case of theirs would \
          be `unsupported`: sse (1 fixture) (name them with --suite to run them anyway)"],
        "{}",
        finished.stderr
    );
    assert!(finished.stdout.trim_end().ends_with("6 passed, 0 failed"), "{}", finished.stdout);
    assert_eq!(verdicts(&report(&out)).len(), CASES.len());

    let quiet = run(&["--quiet"]);
    assert_eq!(quiet.code, Some(0), "{}", quiet.stderr);
    assert_eq!(quiet.stderr, "", "nothing but warnings and errors");

    let named = run(&["--suite", "sse", "--allow-no-judged"]);
    assert_eq!(named.code, Some(0), "{}", named.stderr);
    assert!(named.stdout.trim_end().ends_with("0 passed, 0 failed, 1 skipped"), "{}", named.stdout);
    assert!(!named.stderr.contains("note: running"), "{}", named.stderr);
}

fn a_well_behaved_adapter_passes_everything() {
    let Some(run) = run_fault("none", &["-j", "2"]) else { return };
    assert!(run.verdicts.values().all(|j| j.verdict == "pass"), "{:?}", run.verdicts);
    assert_eq!(run.finished.code, Some(0), "{}", run.finished.stderr);
    let report = report(&run.out);
    assert_eq!(report["implementation"]["name"], "fault-none");
    assert_eq!(report["implementation"]["language"], "python");
    assert_eq!(report["implementation"]["kind"], "subprocess");
    assert!(!run.finished.stderr.contains("warning:"), "a clean bye leaves no notes: {}", run.finished.stderr);
}

fn a_command_that_cannot_start_is_a_setup_error() {
    let scenario = Scenario::new();
    let tree = scenario.tree();
    for (command, words) in [
        ("conform-no-such-decoder --serve", "`conform-no-such-decoder` was not found on PATH"),
        ("./no/such/adapter", "`./no/such/adapter` was not found"),
        ("python3 'unbalanced", "unbalanced quotes"),
    ] {
        for mode in [&[][..], &["--one-shot"][..]] {
            let mut args = vec!["run", tree.to_str().unwrap(), "--impl-cmd", command];
            args.extend_from_slice(mode);
            let finished = Conform::new(&args).limit(LIMIT).run();
            assert_eq!(finished.code, Some(2), "{command} {mode:?}: {}", finished.stderr);
            assert!(finished.stderr.contains(words), "{command}: {}", finished.stderr);
        }
    }
}

fn one_shot_faults_are_verdicts_too() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let faults = "case-01:exit1,case-02:signal,case-03:hang,case-04:garbage,case-05:huge";
    let command = scenario.one_shot_adapter(python, faults);
    let out = scenario.out("one-shot");
    let tree = scenario.tree();
    let args = [
        "run",
        tree.to_str().unwrap(),
        "--impl-cmd",
        &command,
        "--one-shot",
        "--timeout",
        "5s",
        "--max-output",
        "1MiB",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ];
    let finished = Conform::new(&args).limit(LIMIT).run();
    assert_eq!(finished.code, Some(1), "{}", finished.stderr);
    let v = verdicts(&report(&out));
    let expect = [
        ("case-01", "error", "decoder: cannot decode case-01"),
        ("case-02", "crash", "SIGSEGV"),
        ("case-03", "timeout", "no exit within 5 s"),
        ("case-04", "protocol-error", "stdout is not one JSON value"),
        ("case-05", "protocol-error", "larger than --max-output (1 MiB)"),
        ("case-06", "pass", ""),
    ];
    for (case, verdict, words) in expect {
        assert_eq!(v[case].verdict, verdict, "{case}: {:?}", v[case]);
        assert!(v[case].message.contains(words), "{case}: {:?}", v[case].message);
    }
    assert!(v["case-02"].stderr.as_deref().unwrap_or("").contains("about to crash"));
}

#[cfg(unix)]
fn a_one_shot_case_is_judged_on_what_was_written_before_the_exit() {
    // Each case leaves a grandchild outside the process group holding
    // stdout and stderr: the end of file does not come with the exit.
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let grandchildren = common::subprocess::Grandchildren::new();
    let command = scenario.one_shot_adapter(python, "case-01:detach,case-02:detach-exit1");
    let out = scenario.out("one-shot-detached");
    let tree = scenario.tree();
    let args = ["run", tree.to_str().unwrap(), "--impl-cmd", &command, "--one-shot", "--timeout", "60s"];
    let args = [&args[..], &["--format", "json", "--out", out.to_str().unwrap()]].concat();
    let (key, value) = grandchildren.env();
    let finished = Conform::new(&args).env(key, value).limit(LIMIT).run();
    assert_eq!(finished.code, Some(1), "{}", finished.stderr);
    let v = verdicts(&report(&out));
    assert_eq!(v["case-01"].verdict, "pass", "{:?}", v["case-01"]);
    assert_eq!(v["case-02"].verdict, "error", "{:?}", v["case-02"]);
    assert!(v["case-02"].message.contains("decoder: cannot decode case-02"), "{:?}", v["case-02"]);
    for case in ["case-03", "case-04", "case-05", "case-06"] {
        assert_eq!(v[case].verdict, "pass", "{case}: {:?}", v[case]);
    }
    assert_eq!(grandchildren.pids().len(), 2, "each faulty case left a grandchild");
}

#[cfg(unix)]
fn ctrl_c_stops_the_children_and_still_writes_the_report() {
    let Some(python) = python() else { return };
    let scenario = Scenario::new();
    let command = scenario.fault_adapter(python, "hang");
    let out = scenario.out("interrupted");
    let pidfile = scenario.dir.path().join("pids");
    let tree = scenario.tree();
    let args = ["run", tree.to_str().unwrap(), "--impl-cmd", &command, "--timeout", "60s", "-j", "1"];
    let args = [&args[..], &["--format", "json", "--out", out.to_str().unwrap()]].concat();
    let hanging = scenario.dir.path().join("hanging");
    let conform = Conform::new(&args).env("CONFORM_TEST_PIDFILE", &pidfile).env("CONFORM_TEST_HANG_FILE", &hanging);
    let finished = conform.limit(LIMIT).run_with(|pid| {
        // Interrupt once case-03 hangs: poll for the adapter's word that it does.
        let deadline = std::time::Instant::now() + LIMIT;
        while std::fs::read_to_string(&hanging).unwrap_or_default().trim() != "case-03" {
            assert!(std::time::Instant::now() < deadline, "the adapter never reached case-03");
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: plain system call on the child we just started.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGINT);
        }
    });
    assert_eq!(finished.code, Some(130), "{}", finished.stderr);
    assert!(finished.elapsed < Duration::from_secs(30), "stopped promptly: {:?}", finished.elapsed);
    let v = verdicts(&report(&out));
    assert_eq!(v["case-01"].verdict, "pass");
    assert_eq!(v["case-02"].verdict, "pass");
    assert_eq!(v["case-03"].verdict, "error");
    assert!(v["case-03"].message.starts_with("interrupted"), "{}", v["case-03"].message);
    assert!(!v.contains_key("case-04"), "cases not started are left out");
    let pids = std::fs::read_to_string(&pidfile).unwrap();
    for pid in pids.lines().filter_map(|line| line.trim().parse::<libc::pid_t>().ok()) {
        // SAFETY: signal 0 only checks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        assert!(!alive, "the adapter process {pid} was left running");
    }
}

crate::trials![
    a_run_without_suite_runs_only_the_declared_suites,
    a_crash_on_the_third_case_is_a_crash_there_and_the_rest_still_pass,
    adapter_stderr_reaches_the_terminal_with_its_controls_shown_and_the_reports_whole,
    a_failed_first_handshake_shows_stderr_controls_too,
    a_case_that_hangs_times_out_and_the_process_is_replaced,
    a_reply_without_its_newline_times_out_with_a_hint,
    garbage_on_stdout_is_a_protocol_error_of_the_case_in_flight,
    a_reply_with_a_wrong_id_is_a_protocol_error,
    a_second_reply_makes_the_twice_answered_case_a_protocol_error,
    an_implementation_that_exits_at_once_is_a_setup_error_with_its_status_and_stderr,
    an_implementation_that_never_says_hello_is_a_setup_error,
    exiting_with_status_0_mid_run_is_a_crash_of_the_case_in_flight,
    ten_mib_of_stderr_neither_blocks_nor_floods_the_report,
    a_100_mib_line_is_cut_off_at_max_output_and_the_stream_stays_in_step,
    an_implementation_that_never_reads_stdin_times_out_until_the_budget_is_spent,
    an_exit_is_a_crash_at_once_even_while_a_grandchild_holds_stdout,
    the_wait_for_an_exit_after_bye_is_five_seconds_whatever_the_timeout,
    parallel_processes_contain_a_crash_too,
    skipped_and_unsupported_cases_are_listed_but_do_not_fail_the_run,
    a_run_that_judges_nothing_fails_with_one_line_unless_allowed_or_listed,
    a_run_warns_about_a_misspelt_suite_in_the_hello_with_the_nearest_name,
    a_well_behaved_adapter_passes_everything,
    a_command_that_cannot_start_is_a_setup_error,
    one_shot_faults_are_verdicts_too,
    a_one_shot_case_is_judged_on_what_was_written_before_the_exit,
    ctrl_c_stops_the_children_and_still_writes_the_report
];
