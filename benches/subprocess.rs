//! What running an implementation as a child process costs, per case, over
//! the HAPI corpus (or the project's fixtures when `../shared` is absent):
//!
//! * `reference-in-process`: the reference called directly (the baseline);
//! * `conform-adapter-in-process`: the adapter's own work per case, with no
//!   process: `conform adapter`'s handling of a run line (decode the request,
//!   run the reference, encode the result) called directly;
//! * `conform-adapter-persistent`: the same adapter in a child process over
//!   the protocol; the difference to `conform-adapter-in-process` is the
//!   harness overhead per case (encode the request, pipes, wake-ups, decode
//!   the result);
//! * `round-trip-empty-case/*`: an empty chat case both ways, so that the
//!   difference is almost only the transport (pipes, wake-ups, framing);
//! * `python-persistent` / `python-one-shot`: the example Python adapter
//!   (examples/adapters/python/my_adapter.py) in both modes.
//!
//! Each benchmark iteration runs one case (cycling through the corpus), so
//! criterion's figures are per case. A summary of one timed pass per mode is
//! printed first. Run with `cargo bench --bench subprocess`.

use conform::fixture::{SuiteFilter, load_corpus};
use conform::implementation::serve::{Step, respond};
use conform::implementation::subprocess::protocol::encode_run;
use conform::implementation::subprocess::{
    CommandLine, OneShotImplementation, PersistentImplementation, SubprocessOptions,
};
use conform::implementation::{CaseRequest, Implementation, ReferenceImplementation};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Case {
    suite: &'static str,
    name: String,
    version: u32,
    input: Value,
}

impl Case {
    fn request(&self) -> CaseRequest<'_> {
        CaseRequest { suite: self.suite, fixture: &self.name, fixture_version: self.version, input: &self.input }
    }
}

fn corpus() -> Option<(PathBuf, Vec<Case>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = [root.join("../shared/hapi/fixtures"), root.join("fixtures")].into_iter().find(|p| p.is_dir())?;
    let corpus = load_corpus(std::slice::from_ref(&tree), &SuiteFilter::default()).ok()?;
    let cases: Vec<Case> = corpus
        .fixtures
        .iter()
        .filter_map(|fixture| {
            let parts = fixture.parts()?;
            Some(Case {
                suite: fixture.suite.name(),
                name: fixture.name.clone(),
                version: fixture.version.unwrap_or(1),
                input: parts.input.clone(),
            })
        })
        .collect();
    (!cases.is_empty()).then_some((tree, cases))
}

fn python_available() -> bool {
    std::process::Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Mean time per case over one pass (after one warm-up pass).
fn per_case(implementation: &dyn Implementation, cases: &[Case]) -> Duration {
    for case in cases.iter().take(8) {
        black_box(implementation.run_case(&case.request()));
    }
    let started = Instant::now();
    for case in cases {
        black_box(implementation.run_case(&case.request()));
    }
    started.elapsed() / u32::try_from(cases.len()).unwrap_or(u32::MAX)
}

fn bench_cycle(c: &mut Criterion, name: &str, implementation: &dyn Implementation, cases: &[Case]) {
    let mut next = 0usize;
    c.bench_function(name, |b| {
        b.iter(|| {
            let case = &cases[next % cases.len()];
            next += 1;
            black_box(implementation.run_case(&case.request()))
        })
    });
}

/// The run lines of the corpus, as the harness would send them.
fn run_lines(cases: &[Case]) -> Vec<String> {
    cases.iter().enumerate().map(|(id, case)| encode_run(id as u64, &case.request())).collect()
}

fn serve_in_process(line: &str) -> Step {
    respond(line.trim_end().as_bytes()).unwrap_or(Step::Bye)
}

/// Mean time per case of the adapter's own work, in-process.
fn per_case_in_process_adapter(lines: &[String]) -> Duration {
    for line in lines.iter().take(8) {
        black_box(serve_in_process(line));
    }
    let started = Instant::now();
    for line in lines {
        black_box(serve_in_process(line));
    }
    started.elapsed() / u32::try_from(lines.len()).unwrap_or(u32::MAX)
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn subprocess(c: &mut Criterion) {
    let Some((tree, cases)) = corpus() else {
        eprintln!("note: no fixture tree found (../shared/hapi/fixtures, fixtures): the subprocess bench is skipped");
        return;
    };
    let conform_bin = env!("CARGO_BIN_EXE_conform");
    // SAFETY: set before any thread of this bench starts; the Python example
    // adapter's stand-in decoder reads it to find `conform adapter`.
    unsafe { std::env::set_var("CONFORM_BIN", conform_bin) };
    let options = SubprocessOptions { timeout: Duration::from_secs(60), ..SubprocessOptions::default() };
    let command = |text: String| CommandLine::parse(&text).expect("a valid command");
    let adapter = PersistentImplementation::start(command(format!("{conform_bin} adapter")), options.clone())
        .expect("conform adapter starts");
    let python_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/adapters/python/my_adapter.py");
    let python = python_available().then(|| {
        let text = format!("python3 {}", python_script.display());
        (
            PersistentImplementation::start(command(text.clone()), options.clone()).expect("the Python adapter starts"),
            OneShotImplementation::new(command(text), options.clone()).expect("python3 is startable"),
        )
    });

    println!("subprocess bench: {} cases from {}", cases.len(), tree.display());
    let lines = run_lines(&cases);
    let reference = per_case(&ReferenceImplementation, &cases);
    let own_work = per_case_in_process_adapter(&lines);
    let served = per_case(&adapter, &cases);
    println!("  reference in-process          {:>10.1} µs/case", micros(reference));
    println!("  conform adapter in-process    {:>10.1} µs/case (the adapter's own work)", micros(own_work));
    println!("  conform adapter, persistent   {:>10.1} µs/case", micros(served));
    println!(
        "  harness overhead              {:>10.1} µs/case (persistent − in-process adapter)",
        micros(served.saturating_sub(own_work))
    );
    if let Some((persistent, one_shot)) = &python {
        let persistent_time = per_case(persistent, &cases);
        let one_shot_time = per_case(one_shot, &cases);
        println!("  python adapter, persistent    {:>10.1} µs/case", micros(persistent_time));
        println!("  python adapter, one-shot      {:>10.1} µs/case", micros(one_shot_time));
        println!(
            "  persistent is {:.0}x faster per case than one-shot",
            one_shot_time.as_secs_f64() / persistent_time.as_secs_f64().max(1e-9)
        );
    } else {
        println!("  python3 not found: the Python adapter figures are skipped");
    }

    bench_cycle(c, "reference-in-process", &ReferenceImplementation, &cases);
    let mut next = 0usize;
    c.bench_function("conform-adapter-in-process", |b| {
        b.iter(|| {
            let line = &lines[next % lines.len()];
            next += 1;
            black_box(serve_in_process(line))
        })
    });
    bench_cycle(c, "conform-adapter-persistent", &adapter, &cases);
    // The transport floor: the smallest case (an empty chat), so nearly all of
    // the time is the round trip itself.
    let empty =
        [Case { suite: "chat", name: "empty".to_owned(), version: 1, input: serde_json::json!({"messages": []}) }];
    bench_cycle(c, "round-trip-empty-case/in-process", &ReferenceImplementation, &empty);
    bench_cycle(c, "round-trip-empty-case/conform-adapter", &adapter, &empty);
    if let Some((persistent, one_shot)) = &python {
        bench_cycle(c, "python-persistent", persistent, &cases);
        let mut group = c.benchmark_group("slow");
        group.sample_size(10).measurement_time(Duration::from_secs(10));
        let mut next = 0usize;
        group.bench_function("python-one-shot", |b| {
            b.iter(|| {
                let case = &cases[next % cases.len()];
                next += 1;
                black_box(one_shot.run_case(&case.request()))
            })
        });
        group.finish();
        persistent.finish();
    }
    adapter.finish();
}

criterion_group!(benches, subprocess);
criterion_main!(benches);
