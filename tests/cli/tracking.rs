//! Conformance tracking end to end, through the real binary: known-failure
//! baselines, report diffs, clustering, the HTML report (rendered in headless
//! Chromium when it is installed) and sharded runs merged back together.

use crate::common;

use common::{
    Conform, Finished, assert_valid_report, chat_fixture, chromium, conform_in, hapi_corpus, read_json, verdict_list,
    write_fixture,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Writes a chat fixture that passes (`broken == false`) or fails.
fn put(tree: &Path, name: &str, broken: bool) {
    let expected = if broken { format!("{name} (as the spec says)") } else { name.to_owned() };
    write_fixture(&tree.join("chat"), &chat_fixture(name, name, &expected));
}

/// A tree of 4 passing and 3 failing fixtures.
fn tree_with_three_failures(root: &Path) -> PathBuf {
    let tree = root.join("fixtures");
    for name in ["pass-1", "pass-2", "pass-3", "pass-4"] {
        put(&tree, name, false);
    }
    for name in ["broken-1", "broken-2", "broken-3"] {
        put(&tree, name, true);
    }
    tree
}

const THREE_KNOWN_FAILURES: &str = r#"version = 1

[[known-failure]]
id = "chat/broken-1"
verdict = "fail"
reason = "text is not normalized yet"
issue = "https://tracker.example/DEC-1"

[[known-failure]]
id = "chat/broken-2"
verdict = "fail"
reason = "text is not normalized yet"

[[known-failure]]
id = "chat/broken-3"
verdict = "fail"
reason = "text is not normalized yet"
expires = 2026-01-31
"#;

fn run(dir: &Path, args: &[&str]) -> Finished {
    let output = conform_in(dir, args);
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

fn code(output: &Finished) -> i32 {
    output.code.unwrap_or(-1)
}

fn verdicts(report: &Value) -> BTreeMap<String, String> {
    verdict_list(report).into_iter().collect()
}

fn a_baseline_excuses_listed_failures_and_a_fix_fails_the_run_as_xpass() {
    let dir = tempfile::tempdir().unwrap();
    let tree = tree_with_three_failures(dir.path());
    let baseline = dir.path().join("known-failures.toml");
    std::fs::write(&baseline, THREE_KNOWN_FAILURES).unwrap();
    let args = ["run", "fixtures", "--baseline", "known-failures.toml", "--today", "2026-01-15", "--format", "pretty"];

    // Without the baseline the run fails; with it, it passes.
    assert_eq!(code(&run(dir.path(), &args[..2])), 1);
    let output = run(dir.path(), &[&args[..], &["--format", "json", "--out", "out"]].concat());
    assert_eq!(code(&output), 0, "{}{}", output.stdout, output.stderr);
    assert!(output.stdout.ends_with("4 passed, 0 failed, 3 known failures\n"), "{}", output.stdout);
    assert!(output.stdout.contains("3 failures (3 known), 1 cause:"), "{}", output.stdout);
    let report = read_json(&dir.path().join("out/conform-report.json"));
    assert_valid_report(&report);
    assert_eq!(verdicts(&report)["chat/broken-1"], "xfail");
    assert_eq!(report["baseline"]["entries"][0]["status"], "active");
    assert_eq!(report["baseline"]["entries"][0]["expected"], json!(["chat/broken-1"]));

    // Fixing one listed fixture turns it into xpass, which fails the run.
    put(&tree, "broken-2", false);
    let output = run(dir.path(), &[&args[..], &["--format", "json", "--out", "out"]].concat());
    assert_eq!(code(&output), 1, "{}", output.stdout);
    let out = output.stdout;
    assert!(out.contains("XPASS chat/broken-2"), "{out}");
    assert!(out.contains("remove the entry `chat/broken-2`"), "{out}");
    assert!(out.contains("1 xpass"), "{out}");
    assert!(out.ends_with("4 passed, 1 failed, 2 known failures\n"), "{out}");
    let report = read_json(&dir.path().join("out/conform-report.json"));
    assert_valid_report(&report);
    assert_eq!(verdicts(&report)["chat/broken-2"], "xpass");
    assert_eq!(report["baseline"]["entries"][1]["passed"], json!(["chat/broken-2"]));
}

fn stale_and_expired_entries_are_reported_and_fail_the_run() {
    let dir = tempfile::tempdir().unwrap();
    tree_with_three_failures(dir.path());
    let baseline = dir.path().join("known-failures.toml");
    let stale = format!(
        "{THREE_KNOWN_FAILURES}\n[[known-failure]]\nid = \"chat/renamed-long-ago\"\nverdict = \"fail\"\nreason = \"r\"\n\
         \n[[known-failure]]\nid = \"sse/*\"\nverdict = \"fail\"\nreason = \"sse not loaded: cannot judge\"\n"
    );
    std::fs::write(&baseline, stale).unwrap();
    let run_on = |today: &str| {
        run(dir.path(), &["run", "fixtures", "--baseline", "known-failures.toml", "--today", today, "--out", "out"])
    };

    let output = run_on("2026-01-31");
    assert_eq!(code(&output), 1);
    let out = output.stdout;
    assert!(out.contains("stale entry `chat/renamed-long-ago` (line 21) matches no fixture: remove it"), "{out}");
    assert!(!out.contains("sse/*"), "an entry for a suite the run did not load is not judged stale: {out}");
    let report = read_json(&dir.path().join("out/conform-report.json"));
    assert_valid_report(&report);
    let statuses: Vec<&str> =
        report["baseline"]["entries"].as_array().unwrap().iter().map(|e| e["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["active", "active", "active", "stale", "unchecked"]);

    // Expiry: the entry holds through its last day and fails the run after it.
    std::fs::write(&baseline, THREE_KNOWN_FAILURES).unwrap();
    assert_eq!(code(&run_on("2026-01-31")), 0);
    let output = run_on("2026-02-01");
    assert_eq!(code(&output), 1);
    let out = output.stdout;
    assert!(out.contains("entry `chat/broken-3` (line 15) expired on 2026-01-31"), "{out}");
    // An expired entry no longer excuses its fixture.
    assert!(out.contains("FAIL chat/broken-3"), "{out}");
}

fn baseline_write_adopts_a_run_and_keeps_surviving_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let tree = tree_with_three_failures(dir.path());
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--out", "first"])), 1);

    // One command writes a baseline that makes the same run pass.
    let output = run(dir.path(), &["baseline", "write", "--from", "first/conform-report.json"]);
    assert_eq!(code(&output), 0, "{}", output.stderr);
    let written = output.stdout;
    assert_eq!(written.matches("[[known-failure]]").count(), 3, "{written}");
    assert_eq!(written.matches("unreviewed: /blocks/0/text: expected").count(), 3, "{written}");
    let baseline = dir.path().join("known-failures.toml");
    std::fs::write(&baseline, written.replace("unreviewed: /blocks/0/text", "trims nothing")).unwrap();
    let output = run(dir.path(), &["run", "fixtures", "--baseline", "known-failures.toml", "--out", "second"]);
    assert_eq!(code(&output), 0, "{}", output.stdout);

    // After a fix, rewriting from a run that used the baseline keeps the
    // reasons of the entries that survive and drops the fixed one.
    put(&tree, "broken-1", false);
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--baseline", "known-failures.toml", "--out", "third"])), 1);
    let output = run(dir.path(), &["baseline", "write", "--from", "third/conform-report.json"]);
    let rewritten = output.stdout;
    assert_eq!(rewritten.matches("[[known-failure]]").count(), 2, "{rewritten}");
    assert_eq!(rewritten.matches("trims nothing: expected").count(), 2, "{rewritten}");
    assert!(!rewritten.contains("chat/broken-1"), "{rewritten}");
    assert!(output.stderr.contains("dropped `chat/broken-1`"), "{}", output.stderr);
    std::fs::write(&baseline, rewritten).unwrap();
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--baseline", "known-failures.toml"])), 0);
}

fn compare_lists_a_regression_with_its_pointer_and_a_fix() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("fixtures");
    for (name, broken) in [("steady", false), ("regresses", false), ("gets-fixed", true), ("removed", false)] {
        put(&tree, name, broken);
    }
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--out", "old"])), 1);
    put(&tree, "regresses", true);
    put(&tree, "gets-fixed", false);
    put(&tree, "added", false);
    std::fs::remove_file(tree.join("chat/removed.json")).unwrap();
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--out", "new"])), 1);

    let compare = |format: &str| {
        run(dir.path(), &["compare", "old/conform-report.json", "new/conform-report.json", "--format", format])
    };
    let pretty = compare("pretty");
    assert_eq!(code(&pretty), 1, "regressions exit 1");
    let text = pretty.stdout;
    assert!(text.starts_with("conform compare: 1 regression, 1 fix, 1 new fixture, 1 removed fixture\n"), "{text}");
    assert!(text.contains("Regressions (1)\n  chat/regresses  pass → fail\n"), "{text}");
    assert!(
        text.contains("    /blocks/0/text: expected \"regresses (as the spec says)\", got \"regresses\"\n"),
        "{text}"
    );
    assert!(text.contains("Fixes (1)\n  chat/gets-fixed  fail → pass\n"), "{text}");
    assert!(text.contains("New fixtures (1)\n  chat/added  (pass)\n"), "{text}");
    assert!(text.contains("Removed fixtures (1)\n  chat/removed  (was pass)\n"), "{text}");
    assert!(text.ends_with("1 unchanged\n"), "{text}");

    let markdown = compare("markdown");
    assert_eq!(code(&markdown), 1);
    let md = markdown.stdout;
    assert!(md.starts_with("### ❌ conform compare: 1 regression, 1 fix, 1 new fixture, 1 removed fixture\n"), "{md}");
    assert!(md.contains("| passed | 3 | 3 |\n| failed | 1 | 1 |\n"), "{md}");
    assert!(md.contains("#### Regressions (1)\n\n| fixture | was | now | first difference |\n"), "{md}");
    assert!(md.contains("| <code>chat/regresses</code> | pass | **fail** | /blocks/0/text: expected"), "{md}");
    assert!(md.contains("#### Fixes (1)\n\n| fixture | was | now |\n|---|---|---|\n| <code>chat/gets-fixed</code> | fail | **pass** |\n"), "{md}");

    let json = compare("json");
    let diff: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(diff["regressions"][0]["new"]["differences"][0]["pointer"], "/blocks/0/text");

    // The other way round, the regression is a fix and the fix a regression.
    let reverse = run(dir.path(), &["compare", "new/conform-report.json", "old/conform-report.json"]);
    assert_eq!(code(&reverse), 1);
    assert!(reverse.stdout.contains("Regressions (1)\n  chat/gets-fixed  pass → fail\n"), "{}", reverse.stdout);
    let same = run(dir.path(), &["compare", "new/conform-report.json", "new/conform-report.json"]);
    assert_eq!((code(&same), same.stdout.lines().next()), (0, Some("conform compare: no changes")));
    let missing = run(dir.path(), &["compare", "old/conform-report.json", "nope.json"]);
    assert_eq!(code(&missing), 2, "an unreadable report cannot be judged");
}

fn clusters_appear_in_json_markdown_and_terminal_reports() {
    let dir = tempfile::tempdir().unwrap();
    tree_with_three_failures(dir.path());
    let output = run(
        dir.path(),
        &["run", "fixtures", "--format", "pretty", "--format", "json", "--format", "markdown", "--out", "out"],
    );
    let text = output.stdout;
    // The text differs in blocks and in the visibleBlocks derived from them: one cause, the rule that
    // decided the user text (the envelope and the reduction only carried it).
    assert!(
        text.contains(
            "3 failures, 1 cause:\n  3  breaks user.text.object  chat/broken-1, chat/broken-2, chat/broken-3\n\n"
        ),
        "{text}"
    );
    let report = read_json(&dir.path().join("out/conform-report.json"));
    assert_valid_report(&report);
    assert_eq!(report["clusters"][0]["signature"], json!({"by": "rule", "suite": "chat", "rule": "user.text.object"}));
    assert_eq!(report["clusters"][0]["cases"].as_array().unwrap().len(), 3);
    let markdown = std::fs::read_to_string(dir.path().join("out/conform-report.md")).unwrap();
    assert!(markdown.contains("### 3 failures, 1 cause\n\nEach cause is a rule broken, listed above."), "{markdown}");
    // The report leads with the rules broken, each linked to its sentence.
    assert!(
        markdown.contains(
            "| 3 | [` user.text.object `](src/suites/chat/README.md#rule-user.text.object) | <code>chat/broken-1</code> |"
        ),
        "{markdown}"
    );
    assert!(markdown.find("### Rules broken") < markdown.find("### 3 failures"), "{markdown}");
    // Every difference names its rules, the likeliest first.
    let rules = &report["cases"].as_array().unwrap().iter().find(|c| c["id"] == "chat/broken-1").unwrap()["differences"]
        [0]["rules"];
    assert_eq!(rules, &json!(["user.text.object", "envelope.record.direct", "reduce.user.text"]));
}

/// `--rules-base` (or `CONFORM_RULES_BASE`) makes every rule link absolute,
/// for reports read away from the repository; without it they stay paths
/// from the repository root.
fn rule_links_start_with_the_rules_base() {
    let dir = tempfile::tempdir().unwrap();
    tree_with_three_failures(dir.path());
    let base = "https://example.invalid/repo/blob/main/";
    let output = run(
        dir.path(),
        &[
            "run",
            "fixtures",
            "--rules-base",
            base,
            "--format",
            "json",
            "--format",
            "html",
            "--format",
            "markdown",
            "--out",
            "out",
        ],
    );
    assert_eq!(code(&output), 1, "{}", output.stderr);
    // Which rule leads is the ranking's business; every link starts with the base.
    let link = format!("{base}src/suites/chat/README.md#rule-");
    let html = std::fs::read_to_string(dir.path().join("out/conform-report.html")).unwrap();
    assert!(html.contains(&format!("<a class=\"rule\" href=\"{link}")), "{html}");
    assert!(!html.contains("href=\"src/suites/"), "no rule link is left relative");
    let markdown = std::fs::read_to_string(dir.path().join("out/conform-report.md")).unwrap();
    assert!(markdown.contains(&format!(" `]({link}")), "{markdown}");
    assert!(!markdown.contains("](src/suites/"), "{markdown}");

    // Rendering the JSON report again takes the base from the environment.
    let page = Conform::new(&["report", "html", "out/conform-report.json", "--out", "again.html"])
        .dir(dir.path())
        .env("CONFORM_RULES_BASE", "https://example.invalid/other")
        .run();
    assert_eq!(code(&page), 0, "{}", page.stderr);
    let again = std::fs::read_to_string(dir.path().join("again.html")).unwrap();
    assert!(again.contains("href=\"https://example.invalid/other/src/suites/chat/README.md#rule-"), "{again}");
}

fn chromium_args(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

fn the_html_report_renders_its_counts_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let tree = tree_with_three_failures(dir.path());
    // Untrusted fixture content must come out as text, never as markup.
    write_fixture(
        &tree.join("chat"),
        &chat_fixture("hostile", "<img src=x onerror=alert(1)>", "</script><script>document.title='owned'</script>"),
    );
    std::fs::write(dir.path().join("known-failures.toml"), THREE_KNOWN_FAILURES).unwrap();
    let output = run(
        dir.path(),
        &[
            "run",
            "fixtures",
            "--baseline",
            "known-failures.toml",
            "--today",
            "2026-01-01",
            "--format",
            "html",
            "--out",
            "out",
        ],
    );
    assert_eq!(code(&output), 1, "the hostile fixture fails: {}", output.stdout);
    let html_path = dir.path().join("out/conform-report.html");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(!html.contains("<img src=x") && !html.contains("<script>document.title"), "content is escaped");
    assert!(!html.contains(" src=\"") && !html.contains("<link"), "no external assets");

    let Some(chromium) = chromium() else { return };
    let profile = dir.path().join("chromium-profile");
    let url = format!("file://{}", html_path.display());
    let dump = std::process::Command::new(chromium)
        .args(chromium_args(&profile))
        .args(["--virtual-time-budget=5000", "--dump-dom", &url])
        .output()
        .expect("chromium runs");
    assert!(dump.status.success(), "{}", String::from_utf8_lossy(&dump.stderr));
    let dom = String::from_utf8_lossy(&dump.stdout);
    // The counts as rendered.
    for (what, n) in [("passed", 4), ("failed", 1), ("known-failures", 3), ("skipped", 0), ("total", 8)] {
        let tile = format!("data-count=\"{what}\">{n}</span>");
        assert!(dom.contains(&tile), "{tile} not in the rendered page");
    }
    assert!(dom.contains("4 passed, 1 failed, 3 known failures"));
    assert!(dom.contains("4 failures (3 known), 1 cause"), "cluster headline (the text differs in every case)");
    // The rules broken lead the report, linked to their sentences.
    let rules = dom.find("id=\"rules-broken\"").expect("a rules-broken section");
    assert!(rules < dom.find("id=\"clusters\"").unwrap(), "the rules come before the clusters");
    assert!(
        dom.contains("<a class=\"rule\" href=\"src/suites/chat/README.md#rule-user.text.object\"><code>user.text.object</code></a>"),
        "the rule is linked"
    );
    assert!(dom.contains("class=\"rules\">rules: <a class=\"rule\""), "each difference names its rules");
    // The filter script ran: failures and known failures are listed, passes hidden.
    assert!(dom.contains("data-ready=\"1\""), "the inline script ran");
    assert!(
        dom.contains("<span id=\"shown\">4 of 8 shown</span>"),
        "{}",
        &dom[dom.find("id=\"shown\"").unwrap_or(0)..][..80]
    );
    assert!(dom.contains("<title>conform · ") && !dom.contains("<title>owned"), "no injected script ran");

    // A screenshot for people (kept in target/ so CI can upload it).
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let shot = shots.join("conform-report.png");
    let _ = std::fs::remove_file(&shot);
    let screenshot = std::process::Command::new(chromium)
        .args(chromium_args(&profile))
        .args([
            "--window-size=1280,1600",
            "--virtual-time-budget=5000",
            &format!("--screenshot={}", shot.display()),
            &url,
        ])
        .output()
        .expect("chromium runs");
    assert!(screenshot.status.success(), "{}", String::from_utf8_lossy(&screenshot.stderr));
    let png = std::fs::read(&shot).expect("a screenshot was written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "a real PNG");
    eprintln!("note: HTML report screenshot at {}", shot.display());
}

fn the_html_matrix_has_one_column_per_implementation() {
    let dir = tempfile::tempdir().unwrap();
    let tree = tree_with_three_failures(dir.path());
    run(dir.path(), &["run", "fixtures", "--out", "a"]);
    put(&tree, "broken-1", false);
    run(dir.path(), &["run", "fixtures", "--out", "b"]);
    let output =
        run(dir.path(), &["report", "html", "a/conform-report.json", "b/conform-report.json", "--out", "matrix.html"]);
    assert_eq!(code(&output), 0, "{}", output.stderr);
    let html = std::fs::read_to_string(dir.path().join("matrix.html")).unwrap();
    assert!(
        html.contains("conform-reference 0.1.0 (a/conform-report.json)"),
        "same implementation twice: labels tell the runs apart"
    );
    assert!(html.contains("data-impl=\"0\" data-count=\"passed\">4<"));
    assert!(html.contains("data-impl=\"1\" data-count=\"passed\">5<"));
    let row = &html[html.find("<td class=\"mono\">chat/broken-1</td>").unwrap()..];
    // A row ends where the next one starts (cells hold tables of their own).
    let row = &row[..row[1..].find("<tr data-filterable").or_else(|| row.find("</tbody></table></section>")).unwrap()];
    assert_eq!(row.matches("class=\"cell\"").count(), 2, "{row}");
    assert!(row.contains("v-fail") && row.contains("v-pass"), "{row}");
    // The failing cell holds that implementation's differences and line diff, not only a tooltip.
    let cell = &row[row.find("<details class=\"cell-evidence\" id=\"cell-0-chat/broken-1\">").expect(row)..];
    assert!(cell.contains("<table class=\"differences\">") && cell.contains("/blocks/0/text"), "{cell}");
    assert!(cell.contains("<table class=\"diff\">"), "{cell}");
    assert_eq!(row.matches("cell-evidence").count(), 1, "the passing cell has nothing to open: {row}");

    let Some(chromium) = chromium() else { return };
    let profile = dir.path().join("chromium-profile");
    let page = dir.path().join("matrix.html");
    let dump = |url: &str| {
        let output = std::process::Command::new(chromium)
            .args(chromium_args(&profile))
            .args(["--virtual-time-budget=5000", "--dump-dom", url])
            .output()
            .expect("chromium runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let closed = dump(&format!("file://{}", page.display()));
    assert!(closed.contains("data-ready=\"1\""), "the script ran");
    assert!(closed.contains("<details class=\"cell-evidence\" id=\"cell-0-chat/broken-1\">"), "closed at first");
    // A link to the cell opens that implementation's evidence in the rendered page.
    let opened = dump(&format!("file://{}#cell-0-chat/broken-1", page.display()));
    let at = opened.find("id=\"cell-0-chat/broken-1\"").expect("the cell is rendered");
    let tag = &opened[opened[..at].rfind('<').unwrap()..at + opened[at..].find('>').unwrap()];
    assert!(tag.contains(" open=\"\""), "{tag}");
    assert!(opened[at..].contains("<table class=\"differences\">"), "its differences render");
}

fn merging_refuses_overlapping_shards_and_other_harness_versions() {
    let dir = tempfile::tempdir().unwrap();
    tree_with_three_failures(dir.path());
    for k in 1..=2 {
        let partition = format!("{k}/2");
        let out = format!("shard-{k}");
        let output =
            run(dir.path(), &["run", "fixtures", "--partition", &partition, "--format", "json", "--out", &out]);
        assert!(code(&output) <= 1, "{}", output.stderr);
    }
    let merged = run(
        dir.path(),
        &["report", "merge", "shard-1/conform-report.json", "shard-2/conform-report.json", "--out", "merged"],
    );
    assert_eq!(code(&merged), 1, "three failures: {}", merged.stderr);
    assert_eq!(merged.stdout, "4 passed, 3 failed\n");
    for name in ["conform-report.json", "junit.xml", "conform-report.md", "conform-report.html"] {
        assert!(dir.path().join("merged").join(name).is_file(), "{name}");
    }
    assert_valid_report(&read_json(&dir.path().join("merged/conform-report.json")));

    let twice = run(
        dir.path(),
        &["report", "merge", "shard-1/conform-report.json", "shard-1/conform-report.json", "--out", "x"],
    );
    assert_eq!(code(&twice), 2);
    assert!(twice.stderr.contains("shard 1/2 is given twice"), "{}", twice.stderr);

    let mut other = read_json(&dir.path().join("shard-2/conform-report.json"));
    other["harness"]["version"] = json!("9.9.9");
    std::fs::write(dir.path().join("other.json"), other.to_string()).unwrap();
    let versions = run(dir.path(), &["report", "merge", "shard-1/conform-report.json", "other.json", "--out", "x"]);
    assert_eq!(code(&versions), 2);
    assert!(versions.stderr.contains("report 2 was written by conform 9.9.9"), "{}", versions.stderr);

    let lonely = run(dir.path(), &["report", "merge", "shard-1/conform-report.json", "--out", "partial"]);
    assert_eq!(code(&lonely), 2, "a missing shard means the run cannot be judged");
    assert!(lonely.stderr.contains("shard 2/2 is missing"), "{}", lonely.stderr);
}

fn the_hapi_corpus_in_three_shards_merges_into_the_full_run() {
    let Some(corpus) = hapi_corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus.to_str().unwrap();
    let full = run(dir.path(), &["run", corpus, "--format", "json", "--out", "full"]);
    let mut shard_reports: Vec<String> = Vec::new();
    let mut sizes: Vec<u64> = Vec::new();
    for k in 1..=3 {
        let out = format!("shard-{k}");
        let output =
            run(dir.path(), &["run", corpus, "--partition", &format!("{k}/3"), "--format", "json", "--out", &out]);
        assert!(code(&output) <= code(&full), "{}", output.stderr);
        let report = read_json(&dir.path().join(&out).join("conform-report.json"));
        assert_eq!(report["partition"], json!({"index": k, "count": 3}));
        sizes.push(report["summary"]["total"].as_u64().unwrap());
        shard_reports.push(format!("{out}/conform-report.json"));
    }
    assert!(sizes.iter().all(|&n| n > 0), "every shard has work: {sizes:?}");
    let mut args = vec!["report", "merge"];
    args.extend(shard_reports.iter().map(String::as_str));
    args.extend(["--out", "merged"]);
    let merged = run(dir.path(), &args);
    assert_eq!(code(&merged), code(&full), "{}", merged.stderr);

    let full = read_json(&dir.path().join("full/conform-report.json"));
    let merged = read_json(&dir.path().join("merged/conform-report.json"));
    assert_valid_report(&merged);
    assert_eq!(full["summary"]["total"], 73);
    assert_eq!(verdicts(&merged), verdicts(&full));
    assert_eq!(merged["summary"], full["summary"]);
    assert_eq!(merged["suites"], full["suites"]);
    let ids = |report: &Value| -> Vec<String> {
        report["cases"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids(&merged), ids(&full), "merged cases come in discovery order");
    assert!(merged.get("partition").is_none());
}

/// A decoder with three bugs, wrapped as a one-shot adapter around the
/// reference (`conform adapter`): it garbles the text of `chat/bug-text`,
/// dies by a signal on `chat/bug-crash` and refuses `chat/bug-error`.
const BROKEN_ADAPTER: &str = r#"#!/bin/sh
conform="$1"
case "$CONFORM_FIXTURE" in
  bug-text) "$conform" adapter | sed 's/"text":"/"text":"garbled /g' ;;
  bug-crash) cat >/dev/null; kill -KILL $$ ;;
  bug-error) cat >/dev/null; echo "unsupported content block: user-text" >&2; exit 3 ;;
  *) exec "$conform" adapter ;;
esac
"#;

const ADAPTER_BASELINE: &str = r#"version = 1

[[known-failure]]
id = "chat/bug-text"
verdict = "fail"
reason = "text blocks are garbled (DEC-7)"

[[known-failure]]
id = "chat/bug-crash"
verdict = "crash"
reason = "dies on this input"

[[known-failure]]
id = "chat/bug-error"
verdict = "error"
reason = "user-text blocks not implemented"
"#;

fn a_baseline_of_a_broken_adapter_passes_until_a_bug_is_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("fixtures");
    for name in ["ok-1", "ok-2", "ok-3", "bug-text", "bug-crash", "bug-error"] {
        put(&tree, name, false);
    }
    let adapter = dir.path().join("adapter.sh");
    std::fs::write(&adapter, BROKEN_ADAPTER).unwrap();
    std::fs::write(dir.path().join("known-failures.toml"), ADAPTER_BASELINE).unwrap();
    let impl_cmd = format!("sh adapter.sh '{}'", env!("CARGO_BIN_EXE_conform"));
    let run_adapter = |extra: &[&str]| {
        let mut args = vec!["run", "fixtures", "--impl-cmd", &impl_cmd, "--one-shot", "--format", "pretty"];
        args.extend(extra);
        run(dir.path(), &args)
    };

    // The adapter really is broken: without a baseline the run fails three ways.
    let output = run_adapter(&["--format", "json", "--out", "plain"]);
    assert_eq!(code(&output), 1, "{}{}", output.stdout, output.stderr);
    let report = read_json(&dir.path().join("plain/conform-report.json"));
    assert_eq!(report["implementation"]["kind"], "subprocess");
    let found = verdicts(&report);
    assert_eq!((found["chat/bug-text"].as_str(), found["chat/bug-crash"].as_str()), ("fail", "crash"));
    assert_eq!((found["chat/bug-error"].as_str(), found["chat/ok-1"].as_str()), ("error", "pass"));
    assert!(output.stdout.contains("3 failures, 3 causes:"), "{}", output.stdout);

    // With the three known failures listed, the run passes.
    let output = run_adapter(&["--baseline", "known-failures.toml", "--format", "json", "--out", "known"]);
    assert_eq!(code(&output), 0, "{}{}", output.stdout, output.stderr);
    assert!(output.stdout.ends_with("3 passed, 0 failed, 3 known failures\n"), "{}", output.stdout);
    let report = read_json(&dir.path().join("known/conform-report.json"));
    assert_valid_report(&report);
    assert!(verdicts(&report).values().all(|v| v == "pass" || v == "xfail"));

    // Fixing one bug turns its entry into an xpass, which fails the run.
    std::fs::write(&adapter, BROKEN_ADAPTER.replace("bug-text)", "bug-text-fixed)")).unwrap();
    let output = run_adapter(&["--baseline", "known-failures.toml"]);
    assert_eq!(code(&output), 1, "{}", output.stdout);
    let out = output.stdout;
    assert!(out.contains("XPASS chat/bug-text"), "{out}");
    assert!(
        out.contains("passed, but the baseline lists it as a known `fail` (text blocks are garbled (DEC-7)): remove the entry `chat/bug-text`"),
        "{out}"
    );
    assert!(out.ends_with("3 passed, 1 failed, 2 known failures\n"), "{out}");

    // Once the entry is removed the run passes again; a leftover entry for a
    // fixture that no longer exists is reported as stale and fails the run.
    let trimmed = ADAPTER_BASELINE.replace("chat/bug-text", "chat/bug-text-renamed");
    std::fs::write(dir.path().join("known-failures.toml"), trimmed).unwrap();
    let output = run_adapter(&["--baseline", "known-failures.toml"]);
    assert_eq!(code(&output), 1, "{}", output.stdout);
    let out = output.stdout;
    assert!(out.contains("stale entry `chat/bug-text-renamed` (line 4) matches no fixture: remove it"), "{out}");
    assert!(out.ends_with("4 passed, 0 failed, 2 known failures\n"), "{out}");
}

/// The README's tour: a run of the reference, then a run of an adapter with
/// `--format junit --format html`, then `baseline write --from
/// reports/conform-report.json`. The JSON report is written beside any
/// other format, so the baseline is the adapter's; an older report is named
/// on the terminal, and so is a baseline written for another implementation.
fn the_tour_writes_its_baseline_from_the_run_it_just_made() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("fixtures");
    for name in ["ok-1", "ok-2", "ok-3", "bug-text", "bug-crash", "bug-error"] {
        put(&tree, name, false);
    }
    std::fs::write(dir.path().join("adapter.sh"), BROKEN_ADAPTER).unwrap();
    let impl_cmd = format!("sh adapter.sh '{}'", env!("CARGO_BIN_EXE_conform"));
    assert_eq!(code(&run(dir.path(), &["run", "fixtures"])), 0);
    let output = run(
        dir.path(),
        &["run", "fixtures", "--impl-cmd", &impl_cmd, "--one-shot", "--format", "junit", "--format", "html"],
    );
    assert_eq!(code(&output), 1, "{}{}", output.stdout, output.stderr);
    assert!(output.stderr.contains("reports/conform-report.json"), "listed among the reports:\n{}", output.stderr);
    let output = run(dir.path(), &["baseline", "write", "--from", "reports/conform-report.json"]);
    assert_eq!(code(&output), 0, "{}", output.stderr);
    let baseline = output.stdout;
    assert_eq!(baseline.matches("[[known-failure]]").count(), 3, "the adapter's three failures:\n{baseline}");
    assert!(!baseline.contains("conform-reference"), "{baseline}");
    assert!(output.stderr.contains("baseline: from reports/conform-report.json: the run of sh "), "{}", output.stderr);
    assert!(!output.stderr.contains("warning"), "{}", output.stderr);

    // A JSON report older than a report beside it is named on the terminal.
    assert_eq!(code(&run(dir.path(), &["run", "fixtures", "--format", "json", "--out", "older"])), 0);
    let html = std::fs::File::create(dir.path().join("older/conform-report.html")).unwrap();
    html.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).unwrap();
    let output = run(dir.path(), &["baseline", "write", "--from", "older/conform-report.json"]);
    assert_eq!(code(&output), 0, "{}", output.stderr);
    assert!(
        output.stderr.contains(
            "warning: older/conform-report.json is older than older/conform-report.html beside it: it may be an \
             earlier run's report"
        ),
        "{}",
        output.stderr
    );

    // A baseline written for the adapter, applied to the reference: the terminal says so.
    std::fs::write(dir.path().join("known-failures.toml"), &baseline).unwrap();
    let output = run(dir.path(), &["run", "fixtures", "--baseline", "known-failures.toml", "--format", "pretty"]);
    assert!(
        output.stderr.contains("warning: known-failures.toml: the baseline was written for `sh"),
        "{}",
        output.stderr
    );
    assert!(output.stderr.contains("this run judged `conform-reference`"), "{}", output.stderr);
}

crate::trials![
    a_baseline_excuses_listed_failures_and_a_fix_fails_the_run_as_xpass,
    stale_and_expired_entries_are_reported_and_fail_the_run,
    baseline_write_adopts_a_run_and_keeps_surviving_reasons,
    compare_lists_a_regression_with_its_pointer_and_a_fix,
    clusters_appear_in_json_markdown_and_terminal_reports,
    rule_links_start_with_the_rules_base,
    the_html_report_renders_its_counts_in_headless_chromium,
    the_html_matrix_has_one_column_per_implementation,
    merging_refuses_overlapping_shards_and_other_harness_versions,
    the_hapi_corpus_in_three_shards_merges_into_the_full_run,
    a_baseline_of_a_broken_adapter_passes_until_a_bug_is_fixed,
    the_tour_writes_its_baseline_from_the_run_it_just_made
];
