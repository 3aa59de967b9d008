//! What every command does the way users of cargo, ripgrep and nextest
//! expect: a closed stdout ends it quietly with status 0, files honour the
//! umask, and a selection that matches nothing is a usage error everywhere.

mod common;

use common::{Conform, chat_fixture, conform_in, write};
use conform::json::to_canonical_string as canonical;

/// A tree with two chat fixtures.
fn chat_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["one", "two"] {
        write(&dir.path().join("chat").join(format!("{name}.json")), canonical(&chat_fixture(name, "hi", "hi")));
    }
    dir
}

#[test]
fn every_command_that_prints_ends_quietly_with_status_0_when_stdout_is_closed() {
    let dir = chat_tree();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    // Two reports to compare.
    let first = Conform::new(&["run", ".", "--format", "json", "--out", out]).dir(dir.path()).run();
    assert!(first.success(), "{}", first.stderr);
    let report = format!("{out}/conform-report.json");
    let input = dir.path().join("input.json");
    write(&input, "{\"messages\": [], \"agentState\": null, \"options\": {\"hasMoreMessages\": false}}");
    let commands: Vec<Vec<&str>> = vec![
        vec!["list", "."],
        vec!["list", ".", "--paths-too"],
        vec!["validate", "."],
        vec!["fmt", "--check", "."],
        vec!["run", ".", "--format", "pretty", "--out", out],
        vec!["coverage", "."],
        vec!["coverage", "--json", "."],
        vec!["regen", "--check", "."],
        vec!["review", ".", "--check"],
        vec!["compare", &report, &report],
        vec!["compare", &report, &report, "--format", "markdown"],
        vec!["decode", "--suite", "chat", input.to_str().unwrap()],
        vec!["baseline", "write", "--from", &report],
        vec!["--help"],
        vec!["run", "--help"],
    ];
    for args in commands {
        let finished = Conform::new(&args).dir(dir.path()).closed_stdout().run();
        assert_eq!(finished.code, Some(0), "conform {}: {}", args.join(" "), finished.stderr);
        for bad in ["panicked", "Broken pipe", "a bug", "error:"] {
            assert!(!finished.stderr.contains(bad), "conform {}: {}", args.join(" "), finished.stderr);
        }
    }
}

/// Reports, pending fixtures and accepted fixtures get the mode any new file
/// gets under the umask; `fmt` keeps a file's own mode.
#[cfg(unix)]
#[test]
fn new_files_honour_the_umask_and_fmt_keeps_a_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let dir = chat_tree();
        let script = format!(
            "umask {umask} && exec \"$0\" run . --format json --format junit --format markdown --format html --out out"
        );
        let finished = std::process::Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_conform")])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(finished.status.success(), "{}", String::from_utf8_lossy(&finished.stderr));
        for report in ["conform-report.json", "junit.xml", "conform-report.md", "conform-report.html"] {
            assert_eq!(mode(&dir.path().join("out").join(report)), expected, "umask {umask}: {report}");
        }
    }
    // fmt rewrites a non-canonical file and keeps its mode.
    let dir = chat_tree();
    let file = dir.path().join("chat/one.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("    ", "  ")).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let finished = conform_in(dir.path(), &["fmt", "."]);
    assert!(finished.success(), "{}", finished.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(mode(&file), 0o640);
}

#[test]
fn a_selection_that_matches_nothing_is_a_usage_error_in_every_command() {
    let dir = chat_tree();
    for command in ["list", "validate", "fmt", "coverage", "regen", "run"] {
        for selection in [["--suite", "sse"], ["--filter", "chat/nothing-*"]] {
            let mut args = vec![command, "."];
            args.extend(selection);
            let finished = conform_in(dir.path(), &args);
            assert_eq!(finished.code, Some(2), "conform {}: {}", args.join(" "), finished.text());
            assert!(
                finished.stderr.contains("no fixtures match the given --suite/--filter options"),
                "conform {}: {}",
                args.join(" "),
                finished.stderr
            );
        }
    }
}

#[test]
fn every_subcommand_help_has_examples_and_exit_codes_and_suite_options_name_the_suites() {
    let commands = [
        "run",
        "list",
        "validate",
        "fmt",
        "decode",
        "capture",
        "review",
        "regen",
        "reduce",
        "coverage",
        "baseline",
        "compare",
        "report",
        "adapter",
        "check-adapter",
    ];
    for command in commands {
        let help = Conform::new(&[command, "--help"]).run();
        assert!(help.success(), "{command}: {}", help.stderr);
        assert!(help.stdout.contains("\nExamples:\n  conform "), "{command} --help has no examples:\n{}", help.stdout);
        assert!(help.stdout.contains("\nExit codes:"), "{command} --help has no exit codes:\n{}", help.stdout);
    }
    let capture = Conform::new(&["capture", "--help"]).run();
    for format in conform::capture::format_names() {
        assert!(capture.stdout.contains(format), "capture --help does not name format {format}");
    }
    for command in ["run", "list", "validate", "decode"] {
        let help = Conform::new(&[command, "--help"]).run();
        for suite in conform::suites::names() {
            assert!(help.stdout.contains(suite), "{command} --help does not name suite {suite}");
        }
    }
}
