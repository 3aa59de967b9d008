//! The reference with provenance off and on, side by side in one run: every
//! bundled fixture of every suite that has a reference (`fixtures/<suite>/`),
//! each input decoded with a [`NoTrace`] (what `run`, `regen` and explore's
//! generator use: emission points are empty calls) and with a
//! [`ProvenanceTrace`] (every hit recorded, emission points claiming them,
//! and the [`Provenance`](conform::suite_api::Provenance) built), in alternating
//! rounds so both see the same machine load. Prints the time per case of
//! each and their ratio, per suite and over all.
//!
//! ```sh
//! cargo bench --bench provenance
//! ```

/// The allocator the `conform` binary uses, so the figure is the product's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use conform::json::parse_value;
use conform::suite_api::{NoTrace, ProvenanceTrace, ReferenceFn, Suite, call_reference};
use serde_json::Value;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// Alternating rounds of each side.
const ROUNDS: usize = 30;

/// The cases of one suite: its reference for each input's version.
struct SuiteCases {
    name: &'static str,
    cases: Vec<(ReferenceFn, Value)>,
}

fn load(suite: &'static dyn Suite) -> SuiteCases {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(suite.name());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(Result::ok).map(|entry| entry.path()).collect())
        .unwrap_or_default();
    paths.retain(|path| path.extension().is_some_and(|ext| ext == "json"));
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let Some(document) = std::fs::read_to_string(&path).ok().and_then(|text| parse_value(&text).ok()) else {
            continue;
        };
        let version = document.get("fixtureVersion").and_then(Value::as_u64).unwrap_or(1) as u32;
        let (Some(reference), Ok(parts)) = (suite.reference_for(version), suite.split_owned(document)) else {
            continue;
        };
        cases.push((reference, parts.input));
    }
    SuiteCases { name: suite.name(), cases }
}

fn off(cases: &[(ReferenceFn, Value)]) {
    for (reference, input) in cases {
        black_box(call_reference(*reference, black_box(input), &mut NoTrace).ok());
    }
}

fn on(cases: &[(ReferenceFn, Value)]) {
    for (reference, input) in cases {
        let mut trace = ProvenanceTrace::default();
        black_box(call_reference(*reference, black_box(input), &mut trace).ok());
        black_box(trace.finish());
    }
}

fn main() {
    let suites: Vec<SuiteCases> = conform::suites::all()
        .iter()
        .filter(|suite| !suite.is_table())
        .map(|suite| load(*suite))
        .filter(|suite| !suite.cases.is_empty())
        .collect();
    let (mut total_off, mut total_on, mut total_cases) = (Duration::ZERO, Duration::ZERO, 0usize);
    println!("{:<26} {:>6} {:>12} {:>12} {:>7}", "suite", "cases", "off µs/case", "on µs/case", "on/off");
    for suite in &suites {
        // Warm up both paths once.
        off(&suite.cases);
        on(&suite.cases);
        let (mut time_off, mut time_on) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..ROUNDS {
            let clock = Instant::now();
            off(&suite.cases);
            time_off += clock.elapsed();
            let clock = Instant::now();
            on(&suite.cases);
            time_on += clock.elapsed();
        }
        let runs = (ROUNDS * suite.cases.len()) as f64;
        println!(
            "{:<26} {:>6} {:>12.2} {:>12.2} {:>7.2}",
            suite.name,
            suite.cases.len(),
            time_off.as_secs_f64() * 1e6 / runs,
            time_on.as_secs_f64() * 1e6 / runs,
            time_on.as_secs_f64() / time_off.as_secs_f64()
        );
        total_off += time_off;
        total_on += time_on;
        total_cases += suite.cases.len();
    }
    let runs = (ROUNDS * total_cases) as f64;
    println!(
        "{:<26} {:>6} {:>12.2} {:>12.2} {:>7.2}",
        "all",
        total_cases,
        total_off.as_secs_f64() * 1e6 / runs,
        total_on.as_secs_f64() * 1e6 / runs,
        total_on.as_secs_f64() / total_off.as_secs_f64()
    );
}
