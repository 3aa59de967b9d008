//! The floor of a run: the two stages every `conform run` and `conform validate` pays before
//! it judges anything, as a program of their own, so that `benches/floor.py` can time them as
//! processes beside `conform validate` and `conform run` on the same files.
//!
//!     floor read DIR...     read every fixture file under the folders
//!     floor parse DIR...    read and parse every one with the project's JSON parser
//!
//! Both take the files `conform run` would judge there (the harness's own discovery: the same
//! files in the same order, the same walk and stat of each) and share them among as many worker
//! threads as `conform run` starts (one per available core, `CONFORM_FLOOR_JOBS` overrides), each taking
//! the next file, as the run's workers do. They read through the same bounded reader the
//! harness reads fixtures with, and parse with [`conform::fixture::read_document`] (UTF-8 check
//! and the harness's parser: the pre-scan, exact numbers, key order). A file that fails to read
//! or parse exits 2. Without a stage (as `cargo bench` calls it) it runs both over the bundled
//! fixtures once and prints their times: `python3 benches/floor.py` is the benchmark.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

// The same allocator as the `conform` binary, so a parse allocates as the run's does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Read,
    Parse,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|arg| arg != "--bench").collect();
    let (stage, folders) = match args.split_first() {
        Some((stage, folders)) if stage == "read" && !folders.is_empty() => (Stage::Read, folders),
        Some((stage, folders)) if stage == "parse" && !folders.is_empty() => (Stage::Parse, folders),
        None => {
            let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
            for stage in [Stage::Read, Stage::Parse] {
                let clock = Instant::now();
                let (files, bytes) = floor(stage, std::slice::from_ref(&bundled));
                println!("{stage:?}: {files} files, {bytes} bytes, {:.1} ms", clock.elapsed().as_secs_f64() * 1e3);
            }
            return;
        }
        _ => {
            eprintln!("usage: floor read|parse DIR...");
            std::process::exit(2);
        }
    };
    let folders: Vec<PathBuf> = folders.iter().map(PathBuf::from).collect();
    let (files, bytes) = floor(stage, &folders);
    println!("{files} files, {bytes} bytes");
}

/// Runs `stage` over every fixture file under `folders`: (files, bytes read).
fn floor(stage: Stage, folders: &[PathBuf]) -> (usize, u64) {
    let files: Vec<PathBuf> = match conform::fixture::discover(folders, &conform::fixture::SuiteFilter::default()) {
        Ok(discovery) => discovery.files.into_iter().map(|file| file.path).collect(),
        Err(err) => fail(&folders[0], &err.to_string()),
    };
    let jobs = std::env::var("CONFORM_FLOOR_JOBS")
        .ok()
        .and_then(|jobs| jobs.parse().ok())
        .unwrap_or_else(|| conform::workers::worker_count(0, files.len()));
    let next = AtomicUsize::new(0);
    let total: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut bytes = 0u64;
                    while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        bytes += one(stage, path);
                    }
                    bytes
                })
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().expect("a floor worker panicked")).sum()
    });
    (files.len(), total)
}

/// Reads (and parses) one file; its length.
fn one(stage: Stage, path: &Path) -> u64 {
    match stage {
        Stage::Read => match conform::files::read_limited(path, conform::files::max_file_bytes()) {
            Ok(bytes) => std::hint::black_box(bytes).len() as u64,
            Err(err) => fail(path, &err.to_string()),
        },
        Stage::Parse => match conform::fixture::read_document(path) {
            Ok((text, parsed)) => {
                std::hint::black_box(&parsed.value);
                text.len() as u64
            }
            Err(err) => fail(path, &err.to_string()),
        },
    }
}

fn fail(path: &Path, message: &str) -> ! {
    eprintln!("{}: {message}", path.display());
    std::process::exit(2)
}
