//! The worker threads of every stage that works on several threads at once
//! (run, validate, explore, reduce in explore, capture): how many to start
//! and how to start them. Each stage feeds its workers and puts their
//! results in order its own way (a shared counter over a task list, a
//! bounded job channel); what they share is here, so every worker gets the
//! same stack and a name that says whose it is, and a worker that cannot be
//! started is counted rather than fatal.

use std::thread::Scope;

/// Stack size of each worker thread. Only touched memory is committed, so
/// this is cheap, and it keeps 10,000-level documents from overflowing.
pub const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// `jobs`, or one per available core when 0.
pub fn jobs_or_cores(jobs: usize) -> usize {
    match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The number of worker threads for `items` pieces of work: `jobs`, or one
/// per available core when 0, never more than there are items (and at
/// least one).
pub fn worker_count(jobs: usize, items: usize) -> usize {
    jobs_or_cores(jobs).min(items.max(1))
}

/// Starts `count` worker threads in `scope`, named `{name}-{index}`, each
/// with a stack of [`WORKER_STACK_BYTES`] and its own copy of `work`, which
/// it runs with its index. Returns how many started: a thread the system
/// refuses is skipped, and when none starts the caller does the work on its
/// own thread.
pub fn spawn_workers<'scope, F>(scope: &'scope Scope<'scope, '_>, name: &str, count: usize, work: F) -> usize
where
    F: FnOnce(usize) + Clone + Send + 'scope,
{
    let mut started = 0;
    for index in 0..count {
        let work = work.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("{name}-{index}"))
            .stack_size(WORKER_STACK_BYTES)
            .spawn_scoped(scope, move || work(index));
        started += usize::from(spawned.is_ok());
    }
    started
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_worker_runs_once_with_its_own_index() {
        let ran = AtomicUsize::new(0);
        let indexes = std::sync::Mutex::new(Vec::new());
        let started = std::thread::scope(|scope| {
            spawn_workers(scope, "conform-test", 3, |index| {
                ran.fetch_add(1, Ordering::SeqCst);
                indexes.lock().unwrap().push((index, std::thread::current().name().map(str::to_owned)));
            })
        });
        assert_eq!(started, 3);
        assert_eq!(ran.load(Ordering::SeqCst), 3);
        let mut indexes = indexes.into_inner().unwrap();
        indexes.sort();
        assert_eq!(indexes, (0..3).map(|i| (i, Some(format!("conform-test-{i}")))).collect::<Vec<_>>());
    }

    #[test]
    fn the_count_is_bounded_by_the_work_and_never_zero() {
        assert_eq!(worker_count(8, 3), 3);
        assert_eq!(worker_count(2, 0), 1);
        assert!(worker_count(0, 1000) >= 1);
        assert_eq!(jobs_or_cores(5), 5);
    }
}
