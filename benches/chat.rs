//! The chat reference over the HAPI golden corpus: the whole pipeline
//! (normalize → reduce → group → project) on each of the 48 chat inputs,
//! parsed once up front. Criterion reports the time per pass over the corpus
//! and the throughput in fixtures per second; the time per fixture is printed
//! at the end.
//!
//! ```sh
//! cargo bench --bench chat
//! ```
//!
//! Skipped with a notice when `../shared` is not checked out.

/// The allocator the `conform` binary uses, so the figure is the product's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use conform::json::parse_value;
use conform::suite_api::NoTrace;
use conform::suites::chat::reference::run;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

const HAPI_CHAT: &str = "../shared/hapi/fixtures/chat";

fn corpus_inputs() -> Option<Vec<Value>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(HAPI_CHAT);
    let mut paths: Vec<_> = std::fs::read_dir(&dir).ok()?.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.retain(|p| p.extension().is_some_and(|ext| ext == "json"));
    paths.sort();
    let inputs = paths
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .filter_map(|text| parse_value(&text).ok())
        .filter_map(|document| document.get("input").cloned())
        .collect();
    Some(inputs)
}

fn run_corpus(inputs: &[Value]) {
    for input in inputs {
        black_box(run(black_box(input), &mut NoTrace).ok());
    }
}

fn bench_corpus(c: &mut Criterion) {
    let Some(inputs) = corpus_inputs() else {
        eprintln!("skipped: {HAPI_CHAT} is absent (the HAPI corpus is not checked out beside this repository)");
        return;
    };
    let count = inputs.len() as u64;
    let mut group = c.benchmark_group("chat");
    group.throughput(Throughput::Elements(count));
    group.bench_function(format!("hapi-corpus-{count}-fixtures"), |b| b.iter(|| run_corpus(&inputs)));
    group.finish();

    // A plain summary line in the unit the targets are stated in.
    let passes = 2_000;
    let start = Instant::now();
    for _ in 0..passes {
        run_corpus(&inputs);
    }
    let per_fixture = start.elapsed().as_secs_f64() * 1e6 / (passes as f64 * count as f64);
    println!("chat reference: {per_fixture:.2} µs per fixture on average over {count} corpus inputs");
}

criterion_group!(benches, bench_corpus);
criterion_main!(benches);
