//! The live progress display of `conform run`: on a terminal (stderr) once a
//! run takes about a second, never on stdout, off with `--no-progress` and
//! `--quiet`, and nothing for a short run whose stderr is not a terminal.

use crate::common;
use crate::common::run::conform;
use crate::common::subprocess::Scenario;

/// Runs `conform run` over the scenario's six slow cases (about 2.4 s, one
/// worker) under a pseudo-terminal made by `script`, and returns what the
/// terminal showed; `None` (a visible skip) without python3 or `script`.
fn on_a_terminal(extra: &[&str]) -> Option<String> {
    let python = common::python()?;
    if std::process::Command::new("script").arg("--version").output().is_err() {
        common::skip("`script` (util-linux) not installed");
        return None;
    }
    let scenario = Scenario::new();
    let mut command = vec![
        env!("CARGO_BIN_EXE_conform").to_owned(),
        "run".to_owned(),
        scenario.tree().display().to_string(),
        "-j1".to_owned(),
        "--format".to_owned(),
        "json".to_owned(),
        "--out".to_owned(),
        scenario.out("tty").display().to_string(),
        "--impl-cmd".to_owned(),
        scenario.fault_adapter(python, "slow"),
    ];
    command.extend(extra.iter().map(|s| (*s).to_owned()));
    let line = command.iter().map(|word| shlex::try_quote(word).unwrap().into_owned()).collect::<Vec<_>>().join(" ");
    let output = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &format!("stty cols 200; {line}"), "/dev/null"])
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{shown}{}", String::from_utf8_lossy(&output.stderr));
    Some(shown)
}

fn a_run_longer_than_a_second_shows_progress_on_a_terminal() {
    let Some(shown) = on_a_terminal(&[]) else { return };
    assert!(shown.contains("/6 cases, 0 failed, "), "{shown:?}");
    assert!(shown.contains("cases/s"), "{shown:?}");
    // The case running longest (the line is cut to the terminal's width).
    assert!(shown.contains(", slowest: chat/"), "{shown:?}");
    // The report that follows is as it always was.
    assert!(shown.contains("6 passed, 0 failed"), "{shown:?}");
}

fn no_progress_and_quiet_switch_the_terminal_progress_off() {
    for flag in ["--no-progress", "--quiet"] {
        let Some(shown) = on_a_terminal(&[flag]) else { return };
        assert!(!shown.contains(" cases, "), "{flag}: {shown:?}");
        assert!(shown.contains("6 passed, 0 failed"), "{flag}: {shown:?}");
    }
}

fn progress_never_reaches_piped_output() {
    let Some(python) = common::python() else { return };
    let scenario = Scenario::new();
    let adapter = scenario.fault_adapter(python, "slow");
    let (tree, out) = (scenario.tree(), scenario.out("piped"));
    let args = ["run", tree.to_str().unwrap(), "-j1", "--out", out.to_str().unwrap(), "--impl-cmd", &adapter];
    let output = conform(&args);
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    assert!(!output.stdout.contains(" cases, "), "{}", output.stdout);
    // Not a terminal, and shorter than the plain line's interval: nothing.
    assert!(!output.stderr.contains(" cases, "), "{}", output.stderr);
    assert!(output.stdout.ends_with("6 passed, 0 failed\n"), "{}", output.stdout);
}

crate::trials![
    a_run_longer_than_a_second_shows_progress_on_a_terminal,
    no_progress_and_quiet_switch_the_terminal_progress_off,
    progress_never_reaches_piped_output
];
