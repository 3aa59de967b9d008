//! The harness core end to end, through the real binary: discovery, loading,
//! validation, formatting, running and the report files.

use crate::common;

use common::{assert_valid_report, chat_fixture, conform, conform_in, copy_tree, hapi_corpus, report, write};
use conform::json::to_canonical_string as canonical;
use serde_json::{Value, json};

/// A valid chat fixture whose expectation follows the projection contract.
fn valid_chat_fixture(name: &str) -> Value {
    chat_fixture(name, "hello", "hello")
}

/// The broken-fixture tree of issue 2: one file per kind of breakage, next
/// to a valid fixture that must still run.
fn broken_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let chat = root.join("chat");
    write(&chat.join("valid-user-text.json"), canonical(&valid_chat_fixture("valid-user-text")));
    write(&chat.join("invalid-json.json"), "{\n    \"fixtureVersion\": 1,\n    \"name\" \"invalid-json\"\n}\n");
    write(&chat.join("bom.json"), format!("\u{feff}{}", canonical(&valid_chat_fixture("bom"))));
    write(&chat.join("crlf.json"), canonical(&valid_chat_fixture("crlf")).replace('\n', "\r\n"));
    write(&chat.join("wrong-name.json"), canonical(&valid_chat_fixture("another-name")));
    let mut missing = valid_chat_fixture("missing-expected");
    missing.as_object_mut().unwrap().remove("expected");
    write(&chat.join("missing-expected.json"), canonical(&missing));
    let mut wrong_types = valid_chat_fixture("wrong-types");
    wrong_types["input"]["messages"] = json!("nope");
    wrong_types["expected"]["hasReadyEvent"] = json!("no");
    write(&chat.join("wrong-types.json"), canonical(&wrong_types));
    write(&chat.join("deep-nesting.json"), format!("{}{}", "[".repeat(50_000), "]".repeat(50_000)));
    let mut newer = valid_chat_fixture("newer-version");
    newer["fixtureVersion"] = json!(99);
    write(&chat.join("newer-version.json"), canonical(&newer));
    write(&chat.join("duplicate-name.json"), canonical(&valid_chat_fixture("duplicate-name")));
    write(&chat.join("more/duplicate-name.json"), canonical(&valid_chat_fixture("duplicate-name")));
    write(&chat.join("notes.txt"), "not a fixture\n");
    std::fs::create_dir_all(root.join("sse")).unwrap();
    write(&root.join("sse/.gitkeep"), "");
    write(&root.join("push/envelope.json"), "{\"key\": 1}\n");
    write(&root.join("README.md"), "# fixtures\n");
    dir
}

const BROKEN_FILES: [&str; 9] = [
    "invalid-json.json",
    "bom.json",
    "crlf.json",
    "wrong-name.json",
    "missing-expected.json",
    "wrong-types.json",
    "deep-nesting.json",
    "newer-version.json",
    "more/duplicate-name.json",
];

fn validate_gives_one_error_line_per_broken_file_and_exit_2() {
    let dir = broken_tree();
    let output = conform_in(dir.path(), &["validate", "."]);
    let err = output.stderr;
    assert_eq!(output.code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let error_lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    for file in BROKEN_FILES {
        assert!(error_lines.iter().any(|l| l.contains(&format!("chat/{file}"))), "no error for {file}:\n{err}");
    }
    assert!(!error_lines.iter().any(|l| l.contains("valid-user-text")), "{err}");
    // The empty suite folder is an error; the unknown folder and README are notes.
    assert!(error_lines.iter().any(|l| l.contains("sse") && l.contains("holds no fixtures")), "{err}");
    assert!(err.lines().any(|l| l.starts_with("note: ") && l.contains("push") && l.contains("no suite named")));
    assert!(err.lines().any(|l| l.starts_with("note: ") && l.contains("README.md")));
    assert!(err.lines().any(|l| l.starts_with("note: ") && l.contains("notes.txt")));
}

fn validate_errors_carry_line_column_and_pointer() {
    let dir = broken_tree();
    let err = conform_in(dir.path(), &["validate", "."]).stderr;
    let line_for = |file: &str| err.lines().find(|l| l.contains(file)).unwrap_or_default().to_owned();
    assert!(line_for("invalid-json.json").contains("invalid-json.json:3:12: invalid JSON: expected `:`"), "{err}");
    assert!(line_for("deep-nesting.json").contains("nesting deeper than 10000 levels"), "{err}");
    let wrong_types: Vec<&str> = err.lines().filter(|l| l.contains("wrong-types.json")).collect();
    assert!(wrong_types.iter().any(|l| l.contains(":/input/messages:") || l.contains(": /input/messages:")), "{err}");
    assert!(wrong_types.iter().any(|l| l.contains("/expected/hasReadyEvent")), "{err}");
    assert!(line_for("wrong-name.json").contains("/name: `another-name` does not match the file name `wrong-name`"));
    assert!(line_for("missing-expected.json").contains("\"expected\" is a required property"), "{err}");
    assert!(line_for("newer-version.json").contains("fixtureVersion 99"), "{err}");
}

fn run_judges_what_it_can_and_lists_every_broken_fixture() {
    let dir = broken_tree();
    let out = dir.path().join("out");
    let output = conform_in(dir.path(), &["run", ".", "--format", "json", "--out", out.to_str().unwrap()]);
    assert_eq!(output.code, Some(2), "{}", output.stderr);
    assert!(!output.stderr.contains("panicked"));
    let report = report(&out);
    let verdict = |name: &str| -> String {
        let case = report["cases"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap();
        case["verdict"].as_str().unwrap().to_owned()
    };
    // The valid fixture and the ones with mere form problems are judged.
    for name in ["valid-user-text", "bom", "crlf"] {
        assert!(["pass", "fail", "error"].contains(&verdict(name).as_str()), "{name}: {}", verdict(name));
    }
    for name in ["invalid-json", "wrong-name", "missing-expected", "wrong-types", "deep-nesting"] {
        assert_eq!(verdict(name), "invalid", "{name}");
    }
    assert_eq!(verdict("newer-version"), "unsupported-version");
    let duplicates: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "duplicate-name")
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(duplicates.len(), 2);
    assert!(duplicates.contains(&"invalid"));
    let notices: Vec<&str> =
        report["notices"].as_array().unwrap().iter().map(|n| n["message"].as_str().unwrap()).collect();
    assert!(notices.iter().any(|n| n.contains("bom.json") && n.contains("byte order mark")));
    assert!(notices.iter().any(|n| n.contains("crlf.json") && n.contains("CRLF")));
}

/// `fixtureVersion` must be a JSON integer in range: a fraction, an exponent
/// or an out-of-range integer is a broken document, never another version.
fn a_version_that_is_not_a_small_integer_is_invalid_not_version_one() {
    let dir = tempfile::tempdir().unwrap();
    let lexemes = ["2.0", "1e3", "1.0", "4294967296", "18446744073709551616", "0", "-1", "\"1\""];
    for (index, lexeme) in lexemes.iter().enumerate() {
        let name = format!("version-{index}");
        let text = canonical(&valid_chat_fixture(&name))
            .replace("\"fixtureVersion\": 1", &format!("\"fixtureVersion\": {lexeme}"));
        assert!(text.contains(lexeme));
        write(&dir.path().join("chat").join(format!("{name}.json")), text);
    }
    let validate = conform_in(dir.path(), &["validate", "."]);
    assert_eq!(validate.code, Some(2), "{}", validate.stderr);
    for (index, lexeme) in lexemes.iter().enumerate() {
        let line = validate.stderr.lines().find(|l| l.contains(&format!("version-{index}.json"))).unwrap_or_default();
        assert!(line.contains("/fixtureVersion"), "{lexeme}: {}", validate.stderr);
        assert!(line.contains(&format!("{lexeme} is not a fixtureVersion")), "as written: {line}");
    }
    let out = dir.path().join("out");
    let run = conform_in(dir.path(), &["run", ".", "--format", "json", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let report = report(&out);
    for case in report["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "invalid", "{case}");
    }
}

fn fmt_fixes_form_and_never_touches_an_unparsable_file() {
    let dir = broken_tree();
    let chat = dir.path().join("chat");
    let invalid_before = std::fs::read(chat.join("invalid-json.json")).unwrap();
    let output = conform_in(dir.path(), &["fmt", "chat"]);
    assert_eq!(output.code, Some(2), "unparsable files make fmt exit 2");
    assert_eq!(std::fs::read(chat.join("invalid-json.json")).unwrap(), invalid_before);
    for name in ["bom", "crlf"] {
        let text = std::fs::read_to_string(chat.join(format!("{name}.json"))).unwrap();
        assert_eq!(text, canonical(&valid_chat_fixture(name)), "{name} was rewritten canonically");
    }
    // No temporary files are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&chat)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".conform-"))
        .collect();
    assert!(leftovers.is_empty());
}

fn an_empty_tree_and_a_missing_path_are_setup_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output = conform_in(dir.path(), &["run", "."]);
    assert_eq!(output.code, Some(2));
    assert!(output.stderr.contains("no fixtures found"), "{}", output.stderr);
    let output = conform_in(dir.path(), &["run", "missing"]);
    assert_eq!(output.code, Some(2));
    assert!(output.stderr.contains("missing: no such file or directory"));
    let output = conform_in(dir.path(), &["run", ".", "--suite", "nope"]);
    assert_eq!(output.code, Some(2));
    assert!(output.stderr.contains("unknown suite `nope`"));
    // A misspelt name gets the nearest known one, first.
    for command in [&["run", "--suite", "codex-exec-event"][..], &["decode", "--suite", "codex-exec-event", "x.json"]] {
        let output = conform_in(dir.path(), command);
        assert_eq!(output.code, Some(2), "{command:?}");
        assert!(
            output
                .stderr
                .starts_with("error: unknown suite `codex-exec-event`: did you mean `codex-exec-events`? (known: "),
            "{command:?}: {}",
            output.stderr
        );
    }
}

fn hapi_list_prints_73_ids() {
    let Some(corpus) = hapi_corpus() else { return };
    let output = conform(&["list", corpus.to_str().unwrap()]);
    assert_eq!(output.code, Some(0));
    let ids: Vec<String> = output.stdout.lines().map(str::to_owned).collect();
    assert_eq!(ids.len(), 73);
    for (suite, count) in [("chat", 48), ("sse", 12), ("pagination", 12), ("catalogs", 1)] {
        let found = ids.iter().filter(|id| id.starts_with(&format!("{suite}/"))).count();
        assert_eq!(found, count, "HAPI {suite} fixtures");
    }
    assert!(ids.iter().all(|id| id.split_once('/').is_some_and(|(s, n)| !s.is_empty() && !n.is_empty())));
    assert!(ids.contains(&"chat/claude-tool-use-result-pair".to_owned()));
    assert!(ids.contains(&"catalogs/modes".to_owned()));
    assert!(output.stderr.contains("push"), "push/ is skipped with a notice");
}

fn hapi_validate_passes() {
    let Some(corpus) = hapi_corpus() else { return };
    let output = conform(&["validate", corpus.to_str().unwrap()]);
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    assert!(output.stdout.contains("73 of 73 fixtures valid"));
}

fn the_bundled_fixtures_and_the_hapi_corpus_load_together() {
    // The README's tour judges both trees in one run: no fixture id of one may
    // repeat an id of the other.
    let Some(corpus) = hapi_corpus() else { return };
    let output = conform(&["validate", "fixtures", corpus.to_str().unwrap()]);
    assert_eq!(output.code, Some(0), "{}{}", output.stdout, output.stderr);
    assert!(!output.stdout.contains("duplicate fixture id"), "{}", output.stdout);
}

fn hapi_fmt_check_is_clean_and_one_altered_byte_is_caught() {
    let Some(corpus) = hapi_corpus() else { return };
    let output = conform(&["fmt", "--check", corpus.to_str().unwrap()]);
    assert_eq!(output.code, Some(0), "{}", output.stdout);
    assert!(output.stdout.contains("73 files: 73 canonical"));

    let dir = tempfile::tempdir().unwrap();
    copy_tree(&corpus, dir.path());
    let altered = dir.path().join("sse/team-state-null-clear.json");
    let mut bytes = std::fs::read(&altered).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = b' ';
    std::fs::write(&altered, bytes).unwrap();
    let output = conform_in(dir.path(), &["fmt", "--check", "."]);
    assert_eq!(output.code, Some(1));
    let out = output.stdout;
    assert!(out.contains("not canonical: ./sse/team-state-null-clear.json"), "{out}");
    assert!(out.contains("72 canonical, 1 would be reformatted"), "{out}");
}

fn json_junit_and_markdown_reports_are_written_and_consistent() {
    let Some(corpus) = hapi_corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let output = conform(&[
        "run",
        corpus.to_str().unwrap(),
        "--format",
        "json",
        "--format",
        "junit",
        "--format",
        "markdown",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(output.code.is_some_and(|c| c == 0 || c == 1), "{}", output.stderr);
    let report = report(dir.path());
    assert_valid_report(&report);
    assert_eq!(report["summary"]["total"], 73);

    let xml = std::fs::read_to_string(dir.path().join("junit.xml")).unwrap();
    let junit = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(junit.tests, 73);
    let passed = report["summary"]["passed"].as_u64().unwrap() as usize;
    assert_eq!(junit.tests - junit.failures - junit.errors - junit.skipped, passed);
    assert_eq!(junit.test_suites.len(), report["suites"].as_array().unwrap().len());

    let markdown = std::fs::read_to_string(dir.path().join("conform-report.md")).unwrap();
    assert!(markdown.contains(&report["summary"]["passed"].to_string()));
    assert!(markdown.contains("| suite | total |"));
}

/// Runs tests/tools/check_junit.py on `reports` against ../shared/schemas/junit-10.xsd: one line per
/// report (`valid TESTS FAILURES ERRORS SKIPPED FILES`), or `None` when python3, the schema or the python
/// packages are missing (a visible skip; a failure under CONFORM_REQUIRE_ALL=1).
fn check_junit(reports: &[&std::path::Path]) -> Option<Vec<String>> {
    let schema = common::shared("schemas/junit-10.xsd")?;
    let Some(python) = common::python() else {
        common::skip("python3 is not installed");
        return None;
    };
    let output = std::process::Command::new(python)
        .arg(common::path_arg("tests/tools/check_junit.py"))
        .arg(schema)
        .args(reports)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.code() == Some(3) {
        common::skip(&format!(
            "{} (pip install xmlschema junitparser)",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
        return None;
    }
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    Some(stdout.lines().map(str::to_owned).collect())
}

fn junit_reports_are_valid_against_junit_10_xsd_and_read_by_junitparser_junit2html_and_xunit_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let passing = dir.path().join("passing");
    let args = ["run", "fixtures", "--format", "junit", "--format", "json", "--out", passing.to_str().unwrap()];
    let output = conform(&args);
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    let xml = std::fs::read_to_string(passing.join("junit.xml")).unwrap();
    let root = xml.lines().nth(1).unwrap_or("");
    assert!(root.starts_with("<testsuites ") && !root.contains("skipped=") && !root.contains("timestamp="), "{root}");

    // A run with a crash, once as the default writes it and once with the fixture file on each testcase.
    let scenario = common::subprocess::Scenario::new();
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let adapter = scenario.fault_adapter(python, "crash");
    let tree = scenario.tree();
    let mixed = dir.path().join("mixed");
    let with_files = dir.path().join("with-files");
    for (out, extra) in [(&mixed, None), (&with_files, Some("--junit-testcase-file"))] {
        let mut args = vec!["run", tree.to_str().unwrap(), "--impl-cmd", &adapter, "--format", "junit"];
        args.extend(extra);
        args.extend(["--out", out.to_str().unwrap()]);
        let output = conform(&args);
        assert_eq!(output.code, Some(1), "{}", output.stderr);
    }
    let with_files_xml = std::fs::read_to_string(with_files.join("junit.xml")).unwrap();
    assert!(with_files_xml.contains(&format!("file=\"{}", tree.display())), "{with_files_xml}");

    let reports = [passing.join("junit.xml"), mixed.join("junit.xml"), with_files.join("junit.xml")];
    let fixtures = report(&passing)["summary"]["total"].clone();
    // xunit-viewer (npm) reads all three and counts what junitparser counts.
    let passing_summary = format!("{fixtures} passed");
    for (xml, expected) in [
        (&reports[0], vec![passing_summary.as_str()]),
        (&reports[1], vec!["5 passed", "1 error"]),
        (&reports[2], vec!["5 passed", "1 error"]),
    ] {
        let Some(summary) = xunit_viewer_summary(xml) else { break };
        assert!(expected.iter().all(|count| summary.contains(count)), "{}: {summary}", xml.display());
    }
    let Some(lines) = check_junit(&reports.iter().map(|p| p.as_path()).collect::<Vec<_>>()) else { return };
    let junitparser: Vec<&String> = lines.iter().filter(|line| !line.starts_with("junit2html ")).collect();
    let junit2html: Vec<&String> = lines.iter().filter(|line| line.starts_with("junit2html ")).collect();
    assert_eq!(
        junitparser.first().map(|l| l.as_str()),
        Some(format!("valid {fixtures} 0 0 0 0").as_str()),
        "{lines:?}"
    );
    assert_eq!(junitparser.get(1).map(|l| l.as_str()), Some("valid 6 0 1 0 0"), "{lines:?}");
    // junit-10.xsd has no `file` on testcase: the opt-in attribute makes the document invalid against it;
    // junitparser still reads it, each case with its file.
    assert!(junitparser.iter().any(|l| l.contains("'file' attribute not allowed")), "{lines:?}");
    assert_eq!(junitparser.last().map(|l| l.as_str()), Some("invalid 6 0 1 0 6"), "{lines:?}");
    // junit2html reads and renders all three (it counts the error as failed).
    let expected = [format!("junit2html {fixtures} 0 0"), "junit2html 6 1 0".to_owned(), "junit2html 6 1 0".to_owned()];
    assert_eq!(junit2html, expected.iter().collect::<Vec<_>>(), "{lines:?}");
}

/// The console summary xunit-viewer (npm, in tests/junit-readers) prints for a
/// JUnit file, e.g. `5 passed, 1 error`, or `None` with a visible skip (a
/// failure under CONFORM_REQUIRE_ALL=1) when node or the package is missing.
fn xunit_viewer_summary(xml: &std::path::Path) -> Option<String> {
    let node = common::node()?;
    let viewer = common::root().join("tests/junit-readers/node_modules/xunit-viewer/bin/xunit-viewer.js");
    if !viewer.is_file() {
        common::skip("npm package `xunit-viewer` not installed (npm ci --prefix tests/junit-readers)");
        return None;
    }
    let out = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(node)
        .arg(viewer)
        .args(["--console", "--no-color", "--clear", "false", "--results"])
        .arg(xml)
        .arg("--output")
        .arg(out.path().join("index.html"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success() && output.stderr.is_empty(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(out.path().join("index.html").is_file(), "xunit-viewer wrote no page: {stdout}");
    // The last non-empty line before `Written to:` is the summary.
    stdout.lines().rev().find(|line| !line.trim().is_empty() && !line.starts_with("Written to")).map(str::to_owned)
}

fn a_huge_reply_costs_the_report_its_budget_not_its_size() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    common::copy_tree(&common::root().join("fixtures/chat"), &tree.join("chat"));
    let one = std::fs::read_dir(tree.join("chat")).unwrap().flatten().map(|e| e.path()).min().unwrap();
    for entry in std::fs::read_dir(tree.join("chat")).unwrap().flatten() {
        if entry.path() != one {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    // 12 MB of strings in one reply (the measured 20 and 60 MB runs are in docs/reports.md).
    let adapter = format!("{python} {} 12", common::path_arg("tests/adapters/huge_reply.py"));
    let out = dir.path().join("out");
    let args = ["run", tree.to_str().unwrap(), "--impl-cmd", &adapter];
    let formats = ["--format", "json", "--format", "markdown", "--format", "html", "--format", "junit"];
    let finished = conform(&[&args[..], &formats[..], &["--out", out.to_str().unwrap()]].concat());
    assert_eq!(finished.code, Some(1), "{}", finished.stderr);
    for name in ["conform-report.json", "conform-report.md", "conform-report.html", "junit.xml"] {
        let size = std::fs::metadata(out.join(name)).unwrap().len();
        assert!(size < 2 << 20, "{name} is {size} bytes");
    }
    let report = report(&out);
    assert_valid_report(&report);
    let case = &report["cases"][0];
    assert_eq!(case["verdict"], "fail");
    assert!(case.get("actual").is_none(), "the 12 MB output is not kept");
    assert_eq!(
        case["cut"][0],
        "actual left out: over the per-case cap on kept values (1 MiB per case, 32 MiB per run)"
    );
    let note = case["diff_note"].as_str().unwrap();
    assert!(note.starts_with("only the first 4 MiB of each canonical text were diffed; "), "{note}");
    assert!(note.contains("more diff lines cut (the report keeps 2000 lines, 256 KiB per case)"), "{note}");
    let lines: usize = case["diff"].as_array().unwrap().iter().map(|h| h["lines"].as_array().unwrap().len()).sum();
    assert!(lines <= 2000, "{lines}");
    assert_eq!(report["limits"]["value_bytes_per_case"], 1 << 20);
}

fn markdown_limit_bounds_the_run_and_compare_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    common::copy_tree(&common::root().join("fixtures/chat"), &tree.join("chat"));
    let (good, bad) = (dir.path().join("good"), dir.path().join("bad"));
    let passing = conform(&["run", tree.to_str().unwrap(), "--format", "json", "--out", good.to_str().unwrap()]);
    assert_eq!(passing.code, Some(0), "{}", passing.stderr);
    // An implementation that answers every case with `{}`: every chat case fails with differences.
    let args = ["run", tree.to_str().unwrap(), "--impl-cmd", "sh -c 'cat >/dev/null; echo {}'", "--one-shot"];
    let formats = ["--format", "json", "--format", "markdown", "--markdown-limit", "6000", "--out"];
    let failing = conform(&[&args[..], &formats[..], &[bad.to_str().unwrap()]].concat());
    assert_eq!(failing.code, Some(1), "{}", failing.stderr);
    let markdown = std::fs::read_to_string(bad.join("conform-report.md")).unwrap();
    assert!(markdown.chars().count() <= 6000, "{} characters", markdown.chars().count());
    assert!(markdown.contains("Cut to fit 6000 characters (`--markdown-limit`)"), "{markdown}");
    let reports = [good.join("conform-report.json"), bad.join("conform-report.json")];
    let compare = |limit: &str| {
        let args = ["compare", reports[0].to_str().unwrap(), reports[1].to_str().unwrap(), "--format", "markdown"];
        let finished = conform(&[&args[..], &["--markdown-limit", limit]].concat());
        assert_eq!(finished.code, Some(1), "{}", finished.stderr);
        finished.stdout
    };
    let whole = compare("1000000");
    let cut = compare("3000");
    assert!(whole.chars().count() > 3000, "the whole comparison is {} characters", whole.chars().count());
    assert!(cut.chars().count() <= 3000, "{} characters", cut.chars().count());
    assert!(cut.contains("--markdown-limit"), "{cut}");
}

crate::trials![
    validate_gives_one_error_line_per_broken_file_and_exit_2,
    validate_errors_carry_line_column_and_pointer,
    run_judges_what_it_can_and_lists_every_broken_fixture,
    a_version_that_is_not_a_small_integer_is_invalid_not_version_one,
    fmt_fixes_form_and_never_touches_an_unparsable_file,
    an_empty_tree_and_a_missing_path_are_setup_errors,
    hapi_list_prints_73_ids,
    hapi_validate_passes,
    the_bundled_fixtures_and_the_hapi_corpus_load_together,
    hapi_fmt_check_is_clean_and_one_altered_byte_is_caught,
    json_junit_and_markdown_reports_are_written_and_consistent,
    junit_reports_are_valid_against_junit_10_xsd_and_read_by_junitparser_junit2html_and_xunit_viewer,
    a_huge_reply_costs_the_report_its_budget_not_its_size,
    markdown_limit_bounds_the_run_and_compare_markdown
];
