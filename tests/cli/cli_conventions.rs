//! What every command does the way users of cargo, ripgrep and nextest
//! expect: a closed stdout ends it quietly with status 0, files honour the
//! umask, a selection that matches nothing is a usage error everywhere, and
//! colors follow NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE.

use crate::common;

use common::{Conform, chat_fixture, conform_in, write};
use conform::json::to_canonical_string as canonical;
use serde_json::json;

/// A tree with two chat fixtures.
fn chat_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["one", "two"] {
        write(&dir.path().join("chat").join(format!("{name}.json")), canonical(&chat_fixture(name, "hi", "hi")));
    }
    dir
}

/// The subcommands a help page lists under `Commands:` (without `help`).
fn subcommands(args: &[&str]) -> Vec<String> {
    let help = Conform::new(&[args, &["--help"]].concat()).run();
    assert!(help.success(), "{}", help.stderr);
    help.stdout
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command `conform --help` lists, with its subcommands (`baseline
/// write`, `report merge`…), as argument lists.
fn every_command() -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for command in subcommands(&[]) {
        let nested = subcommands(&[command.as_str()]);
        if nested.is_empty() {
            commands.push(vec![command.clone()]);
        }
        for sub in nested {
            commands.push(vec![command.clone(), sub]);
        }
    }
    assert!(commands.len() > 15, "{commands:?}");
    commands
}

fn every_command_that_prints_ends_quietly_with_status_0_when_stdout_is_closed() {
    let dir = chat_tree();
    // A fixture the reference fails, for reduce (outside the tree the other commands read).
    let elsewhere = tempfile::tempdir().unwrap();
    let failing = elsewhere.path().join("chat/bad.json");
    write(&failing, canonical(&chat_fixture("bad", "hi", "bye")));
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    // Two reports to compare.
    let first = Conform::new(&["run", ".", "--format", "json", "--out", out]).dir(dir.path()).run();
    assert!(first.success(), "{}", first.stderr);
    let report = format!("{out}/conform-report.json");
    let input = dir.path().join("input.json");
    write(&input, "{\"messages\": [], \"agentState\": null, \"options\": {\"hasMoreMessages\": false}}");
    let page = dir.path().join("page.json");
    let message = json!({"id": "m1", "seq": 1, "localId": null, "createdAt": 1000,
        "content": {"role": "user", "content": {"type": "text", "text": "hi"}}});
    write(&page, canonical(&json!({"messages": [message]})));
    let baseline = dir.path().join("baseline.toml");
    write(&baseline, "[[known-failure]]\nid = \"chat/one\"\nverdict = \"fail\"\nreason = \"r\"\n");
    let hello = "{\"op\":\"hello\",\"protocol\":1,\"harness\":{\"name\":\"t\",\"version\":\"1\"}}\n";
    let commands: Vec<Vec<&str>> = vec![
        vec!["list", "."],
        vec!["list", ".", "--paths-too"],
        vec!["validate", "."],
        vec!["fmt", "--check", "."],
        vec!["run", ".", "--format", "pretty", "--out", out],
        vec!["run", ".", "-v", "--format", "pretty", "--out", out],
        vec!["coverage", "."],
        vec!["coverage", "--json", "."],
        vec!["regen", "--check", "."],
        vec!["review", ".", "--check"],
        vec!["review", "."],
        vec!["upgrade", "--to", "2", "--check", "chat"],
        vec!["compare", &report, &report],
        vec!["compare", &report, &report, "--format", "markdown"],
        vec!["decode", "--suite", "chat", input.to_str().unwrap()],
        vec!["capture", "chat", "--from", "hapi-messages", page.to_str().unwrap(), "--out", "captured"],
        vec!["reduce", failing.to_str().unwrap(), "--out", "reduced"],
        vec!["baseline", "write", "--from", &report],
        vec!["baseline", "check", baseline.to_str().unwrap()],
        vec!["report", "merge", &report, "--out", "merged"],
        vec!["report", "html", &report, "--out", "matrix.html"],
        vec!["adapter"],
        vec!["check-adapter", "--impl-cmd", "conform adapter", "."],
        vec![
            "explore",
            "--impl-cmd",
            "conform adapter",
            ".",
            "--count",
            "20",
            "--seed",
            "1",
            "--no-pending",
            "--out",
            out,
        ],
        vec!["--help"],
        vec!["help", "run"],
        vec!["run", "--help"],
    ];
    // Every command `conform --help` lists is here.
    for command in every_command() {
        let covered =
            commands.iter().any(|args| args.iter().zip(&command).all(|(a, c)| a == c) && args.len() >= command.len());
        assert!(covered, "conform {} is not tried with a closed stdout", command.join(" "));
    }
    for args in commands {
        let finished = Conform::new(&args).dir(dir.path()).stdin(hello.as_bytes()).closed_stdout().run();
        assert_eq!(finished.code, Some(0), "conform {}: {}", args.join(" "), finished.stderr);
        for bad in ["panicked", "Broken pipe", "a bug", "error:"] {
            assert!(!finished.stderr.contains(bad), "conform {}: {}", args.join(" "), finished.stderr);
        }
    }
}

/// Reports, pending fixtures and accepted fixtures get the mode any new file
/// gets under the umask; `fmt` keeps a file's own mode.
#[cfg(unix)]
fn new_files_honour_the_umask_and_fmt_keeps_a_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let dir = chat_tree();
        let message = json!({"id": "m1", "seq": 1, "localId": null, "createdAt": 1000,
            "content": {"role": "user", "content": {"type": "text", "text": "hi"}}});
        write(&dir.path().join("page.json"), canonical(&json!({"messages": [message]})));
        // Reports, a capture's pending fixtures, then the same accepted by review.
        let script = format!(
            "umask {umask} && \"$0\" run chat --format json --format junit --format markdown --format html --out out \
             && \"$0\" capture chat --from hapi-messages page.json --out captured && cp -r captured pending \
             && exec \"$0\" review captured --accept-all"
        );
        let finished = std::process::Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_conform")])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            // review refuses to accept under CI (as .ci/run sets it).
            .env_remove("CI")
            .output()
            .unwrap();
        assert!(finished.status.success(), "{}", String::from_utf8_lossy(&finished.stderr));
        for report in ["conform-report.json", "junit.xml", "conform-report.md", "conform-report.html"] {
            assert_eq!(mode(&dir.path().join("out").join(report)), expected, "umask {umask}: {report}");
        }
        let pending = common::files_ending(&dir.path().join("pending"), ".json.new");
        let accepted = common::files_ending(&dir.path().join("captured"), ".json");
        assert!(!pending.is_empty() && !accepted.is_empty(), "{pending:?} {accepted:?}");
        for file in pending.iter().chain(&accepted) {
            assert_eq!(mode(file), expected, "umask {umask}: {}", file.display());
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

fn a_selection_that_matches_nothing_is_a_usage_error_in_every_command() {
    let dir = chat_tree();
    // Every command whose help offers --suite and --filter selects fixtures with them
    // (decode's --suite names its input's suite instead).
    let selecting: Vec<Vec<String>> = every_command()
        .into_iter()
        .filter(|command| {
            let help = Conform::new(&[command.as_slice(), &["--help".to_owned()]].concat()).run().stdout;
            help.contains("--suite <SUITE>") && help.contains("--filter <GLOB>")
        })
        .collect();
    let names: Vec<String> = selecting.iter().map(|command| command.join(" ")).collect();
    for expected in ["run", "list", "validate", "fmt", "regen", "upgrade", "coverage", "check-adapter"] {
        assert!(names.iter().any(|name| name == expected), "{expected} takes --suite and --filter: {names:?}");
    }
    for command in selecting {
        let extra: &[&str] = match command[0].as_str() {
            "upgrade" => &["--to", "2"],
            "check-adapter" => &["--impl-cmd", "conform adapter"],
            _ => &[],
        };
        for selection in [["--suite", "sse"], ["--filter", "chat/nothing-*"]] {
            let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
            args.push(".");
            args.extend(extra);
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

fn every_subcommand_help_has_examples_and_exit_codes_and_suite_options_name_the_suites() {
    for command in every_command() {
        let name = command.join(" ");
        let help = Conform::new(&[command.as_slice(), &["--help".to_owned()]].concat()).run();
        assert!(help.success(), "{name}: {}", help.stderr);
        assert!(help.stdout.contains("\nExamples:\n  conform "), "{name} --help has no examples:\n{}", help.stdout);
        assert!(help.stdout.contains("\nExit codes:"), "{name} --help has no exit codes:\n{}", help.stdout);
        // Every --suite option names the suites.
        if help.stdout.contains("--suite <SUITE>") {
            for suite in conform::suites::names() {
                assert!(help.stdout.contains(suite), "{name} --help does not name suite {suite}");
            }
        }
    }
    let capture = Conform::new(&["capture", "--help"]).run();
    for (suite, format) in conform::capture::formats() {
        assert!(capture.stdout.contains(format.name), "capture --help does not name format {}", format.name);
        assert!(
            capture.stdout.contains(&format!("{} → {}", format.name, suite.name())),
            "capture --help does not name suite {}",
            suite.name()
        );
    }
}

fn colors_follow_no_color_force_color_and_clicolor_force() {
    let dir = chat_tree();
    let colored = |env: &[(&str, &str)]| {
        let mut command = Conform::new(&["run", ".", "--format", "pretty", "-v"]).dir(dir.path());
        for key in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
            command = command.env_remove(key);
        }
        for (key, value) in env {
            command = command.env(key, value);
        }
        let finished = command.run();
        assert!(finished.success(), "{}", finished.stderr);
        finished.stdout.contains("\x1b[")
    };
    // stdout is a file here, not a terminal: no color unless forced.
    assert!(!colored(&[]));
    assert!(colored(&[("FORCE_COLOR", "1")]));
    assert!(colored(&[("FORCE_COLOR", "3")]));
    assert!(!colored(&[("FORCE_COLOR", "0")]));
    assert!(!colored(&[("FORCE_COLOR", "false")]));
    assert!(colored(&[("CLICOLOR_FORCE", "1")]));
    assert!(!colored(&[("CLICOLOR_FORCE", "0")]));
    assert!(!colored(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1")]), "NO_COLOR wins");
    assert!(!colored(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]), "NO_COLOR wins");
}

crate::trials![
    every_command_that_prints_ends_quietly_with_status_0_when_stdout_is_closed,
    new_files_honour_the_umask_and_fmt_keeps_a_files_mode,
    a_selection_that_matches_nothing_is_a_usage_error_in_every_command,
    every_subcommand_help_has_examples_and_exit_codes_and_suite_options_name_the_suites,
    colors_follow_no_color_force_color_and_clicolor_force
];
