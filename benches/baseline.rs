//! Applying a baseline is linear: a run of N failing cases and a baseline of
//! N entries (exact ids, plus one glob per thousand), parsed from its TOML
//! text and applied (verdicts, stale entries, counts and clusters), at 20,000
//! and 200,000 entries side by side in one run. Linear time gives a ratio of
//! about 10; the quadratic application it replaced gave 100 (5,000 entries
//! 2.5 s, 20,000 34.4 s, 200,000 not done in 300 s).
//!
//! ```sh
//! cargo bench --bench baseline        # release build
//! cargo test --bench baseline         # the same, debug build (the ratio holds)
//! ```

use conform::baseline::{Baseline, KnownFixtures, apply};
use conform::report::{RunReport, parse_report};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// A glob entry every this many entries (`chat/group-K-*`).
const GLOB_EVERY: usize = 1_000;

/// The id of case `n`.
fn id(n: usize) -> String {
    format!("chat/group-{}-case-{n:06}", n / GLOB_EVERY)
}

/// A JSON report of `cases` failing cases, read back as `conform run` writes it.
fn report(cases: usize) -> RunReport {
    let case = |n: usize| {
        json!({
            "id": id(n), "suite": "chat", "name": id(n)["chat/".len()..], "path": format!("chat/{n}.json"),
            "verdict": "fail", "duration_ms": 1.0, "message": format!("/blocks/{}: expected 1, got 2", n % 7),
        })
    };
    let text = json!({
        "format": "conform-report", "format_version": 1,
        "harness": {"name": "conform", "version": "0"},
        "implementation": {"name": "bench", "version": "1", "language": "rust", "kind": "reference"},
        "started_at": "2026-01-01T00:00:00Z", "duration_ms": 1.0, "paths": ["."], "notices": [],
        "summary": {"total": 0, "passed": 0, "failed": 0, "skipped": 0, "known_failures": 0, "by_verdict": {}},
        "suites": [], "cases": Value::Array((0..cases).map(case).collect()), "clusters": [],
    })
    .to_string();
    parse_report(&text, Path::new("bench.json")).unwrap_or_else(|err| panic!("{err}"))
}

/// A baseline of `entries` entries naming the cases of [`report`]: an exact
/// id each, but a glob in place of every thousandth.
fn baseline_text(entries: usize) -> String {
    let mut text = String::from("version = 1\n");
    for n in 0..entries {
        let id = if n % GLOB_EVERY == 0 { format!("chat/group-{}-*", n / GLOB_EVERY) } else { id(n) };
        let _ = write!(text, "\n[[known-failure]]\nid = \"{id}\"\nverdict = \"fail\"\nreason = \"not yet\"\n");
    }
    text
}

/// Parses and applies a baseline of `size` entries to a run of `size` cases;
/// the time taken, and the cases that became `xfail`.
fn measure(size: usize) -> (Duration, usize) {
    let mut report = report(size);
    let text = baseline_text(size);
    let known = KnownFixtures::of_report(&report);
    let today = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap_or_default();
    let clock = Instant::now();
    let baseline = Baseline::parse(&text, Path::new("known-failures.toml")).unwrap_or_else(|err| panic!("{err}"));
    apply(&mut report, &baseline, &known, today);
    let elapsed = clock.elapsed();
    (elapsed, report.summary.known_failures)
}

fn main() {
    println!("baseline parsed and applied to as many failing cases");
    let mut rows = Vec::new();
    for size in [20_000, 200_000] {
        let (elapsed, xfail) = measure(size);
        assert_eq!(xfail, size, "every case is a known failure");
        println!("{size:>8} entries  {:>9.3} s", elapsed.as_secs_f64());
        rows.push(elapsed.as_secs_f64());
    }
    println!("ratio 200k : 20k = {:.1} (linear: 10, quadratic: 100)", rows[1] / rows[0]);
}
