//! `conform explore`'s speed: chat inputs per second against `conform
//! adapter` (persistent processes, one per worker) on this machine, and where
//! the time goes, phase by phase:
//!
//! * `generate`: choosing a seed, one to six mutations, the reference on the
//!   draw, assembling the document and checking it against the schema;
//! * `implementation`: the round trip to the adapter process (encode the run
//!   line, the pipes and wake-ups, the adapter's decode + reference + encode,
//!   decoding its reply);
//! * `judge`: canonical comparison and clustering.
//!
//! The reference's answer for judging is the one computed while generating,
//! so the reference runs once per input in the harness. Each configuration
//! explores for a fixed number of inputs; criterion then times small batches
//! of the generator alone. Run with `cargo bench --bench explore`.

use conform::explore::engine::PhaseTimes;
use conform::explore::{Budget, ExploreOptions, Generator, Party, SeedPool, explore};
use conform::fixture::{SuiteFilter, load_corpus};
use conform::implementation::subprocess::{CommandLine, PersistentImplementation, SubprocessOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Inputs per measured exploration.
const INPUTS: u64 = 20_000;

fn chat_pool() -> SeedPool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("fixtures")];
    let shared = root.join("../shared/hapi/fixtures");
    if shared.is_dir() {
        paths.push(shared);
    }
    let filter = SuiteFilter::new(&["chat".to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    let corpus = load_corpus(&paths, &filter).unwrap_or_else(|err| panic!("{err}"));
    let suite = conform::suites::find("chat").unwrap_or_else(|| panic!("no chat suite"));
    SeedPool::of(suite, &corpus.fixtures)
}

fn adapter(jobs: usize) -> PersistentImplementation {
    let command =
        CommandLine::parse(&format!("{} adapter", env!("CARGO_BIN_EXE_conform"))).unwrap_or_else(|err| panic!("{err}"));
    let implementation =
        PersistentImplementation::start(command, SubprocessOptions::default()).unwrap_or_else(|err| panic!("{err}"));
    // Start every worker's process before timing.
    let pools = [chat_pool()];
    let options = ExploreOptions {
        seed: 1,
        budget: Budget::Count(jobs as u64 * 4),
        jobs,
        any_json: false,
        in_contract: false,
        max_clusters: 0,
        cancel: None,
        in_flight: None,
    };
    explore(&pools, Party::Implementation(&implementation), Party::Reference, &options);
    implementation
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

fn report(label: &str, jobs: usize, generated: u64, seconds: f64, times: &PhaseTimes) {
    let total = (times.generate + times.subject + times.judge).max(1) as f64;
    let share = |ns: u64| 100.0 * ns as f64 / total;
    println!(
        "{label:<32} -j {jobs}: {generated} inputs in {seconds:.2} s = {:>7.0} inputs/s; per input (summed over \
         workers): generate {:.1} µs ({:.0}%), implementation {:.1} µs ({:.0}%), judge {:.1} µs ({:.0}%)",
        generated as f64 / seconds,
        ms(times.generate) * 1000.0 / generated as f64,
        share(times.generate),
        ms(times.subject) * 1000.0 / generated as f64,
        share(times.subject),
        ms(times.judge) * 1000.0 / generated as f64,
        share(times.judge),
    );
}

fn summary() {
    let pools = [chat_pool()];
    println!("chat: {} seed fixtures", pools[0].seeds.len());
    // The generator alone, on one thread: the harness's own share.
    let generator = Generator { pool: &pools[0], seed: 1, any_json: false, in_contract: false };
    let started = std::time::Instant::now();
    for index in 0..INPUTS {
        black_box(generator.generate(index));
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{:<32} -j 1: {:>7.0} inputs/s", "generator alone", INPUTS as f64 / seconds);
    for jobs in [1, 2, 4] {
        let implementation = adapter(jobs);
        let options = ExploreOptions {
            seed: 1,
            budget: Budget::Count(INPUTS),
            jobs,
            any_json: false,
            in_contract: false,
            max_clusters: 0,
            cancel: None,
            in_flight: None,
        };
        let exploration = explore(&pools, Party::Implementation(&implementation), Party::Reference, &options);
        let tally = &exploration.tallies[0];
        assert_eq!(tally.diverged, 0, "conform adapter diverged from the reference: {tally:?}");
        report(
            "explore chat vs conform adapter",
            jobs,
            tally.generated,
            exploration.duration.as_secs_f64(),
            &tally.times,
        );
        conform::implementation::Implementation::finish(&implementation);
    }
}

fn bench(c: &mut Criterion) {
    summary();
    let pools = [chat_pool()];
    let generator = Generator { pool: &pools[0], seed: 2, any_json: false, in_contract: false };
    let mut index = 0u64;
    c.bench_function("explore/generate-chat-input", |b| {
        b.iter(|| {
            index += 1;
            black_box(generator.generate(index))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
