//! Threads and order: one reading thread hands documents to workers, and
//! what the workers finish is delivered in the order it was read.

use super::cases::read_cases;
use super::document::finish;
use super::pipeline::{Context, Delivery};
use super::{CaptureError, PreparedFixture};
use crate::redact::{Linter, Redactor};
use crate::workers::{jobs_or_cores, spawn_workers};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

/// One document for a worker to finish.
pub(super) struct Job {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) input: Value,
    pub(super) items: usize,
    pub(super) oversized: bool,
}

/// What comes out of the pipeline, numbered in the order it is delivered.
pub(super) enum Out {
    Notice(String),
    Fixture(Result<(PreparedFixture, Vec<String>), CaptureError>),
    /// The reading thread is done (with its error, if it failed).
    End(Result<(), CaptureError>),
}

/// Runs the reading thread, the workers and the delivery in order.
pub(super) fn stream(
    context: &Context<'_>,
    redactor: &mut Redactor,
    mut cases: Box<dyn super::CaseSource>,
    linter: &Linter,
    deliver: &mut dyn FnMut(Delivery) -> Result<(), CaptureError>,
) -> Result<(), CaptureError> {
    let workers = jobs_or_cores(0).clamp(1, 8);
    let stop = AtomicBool::new(false);
    let (out_tx, out_rx) = std::sync::mpsc::channel::<(usize, Out)>();
    let (job_tx, job_rx) = std::sync::mpsc::sync_channel::<(usize, Job)>(workers * 2);
    let job_rx = Arc::new(Mutex::new(job_rx));
    std::thread::scope(|scope| {
        let (jobs, out, stop_ref) = (Arc::clone(&job_rx), out_tx.clone(), &stop);
        // Each worker clones the linter: the regex caches of a shared one
        // would be handed between threads under a lock.
        let linter = linter.clone();
        let started =
            spawn_workers(scope, "conform-capture", workers, move |_| work(context, &linter, &jobs, &out, stop_ref));
        if started == 0 {
            return Err(CaptureError::NoWorkers);
        }
        drop(job_rx);
        let out = out_tx.clone();
        let stop_ref = &stop;
        scope.spawn(move || {
            let mut emitter = Emitter { next: 0, jobs: job_tx, out, stop: stop_ref };
            let result = read_cases(context, redactor, &mut *cases, &mut emitter);
            let seq = emitter.next;
            let _ = emitter.out.send((seq, Out::End(result)));
        });
        drop(out_tx);
        collect(&out_rx, &stop, deliver)
    })
}

/// Delivers what comes out in order; the first failure stops the capture.
pub(super) fn collect(
    out: &Receiver<(usize, Out)>,
    stop: &AtomicBool,
    deliver: &mut dyn FnMut(Delivery) -> Result<(), CaptureError>,
) -> Result<(), CaptureError> {
    let mut waiting: BTreeMap<usize, Out> = BTreeMap::new();
    let mut next = 0;
    let mut failure: Option<CaptureError> = None;
    let mut ended = false;
    while let Ok((seq, item)) = out.recv() {
        waiting.insert(seq, item);
        while failure.is_none()
            && !ended
            && let Some(item) = waiting.remove(&next)
        {
            next += 1;
            let delivered = match item {
                Out::Notice(text) => deliver(Delivery::Notice(text)),
                Out::Fixture(Ok((fixture, warnings))) => warnings
                    .into_iter()
                    .try_for_each(|warning| deliver(Delivery::Warning(warning)))
                    .and_then(|()| deliver(Delivery::Fixture(fixture))),
                Out::Fixture(Err(err)) => Err(err),
                Out::End(result) => {
                    ended = true;
                    result
                }
            };
            if let Err(err) = delivered {
                failure = Some(err);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    match failure {
        Some(err) => Err(err),
        None => Ok(()),
    }
}

/// Numbers and sends what the reading thread produces.
pub(super) struct Emitter<'s> {
    pub(super) next: usize,
    pub(super) jobs: SyncSender<(usize, Job)>,
    pub(super) out: Sender<(usize, Out)>,
    pub(super) stop: &'s AtomicBool,
}

impl Emitter<'_> {
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    pub(super) fn notice(&mut self, text: String) {
        let _ = self.out.send((self.next, Out::Notice(text)));
        self.next += 1;
    }

    pub(super) fn job(&mut self, job: Job) {
        if job.oversized {
            self.notice(format!("{}: longer than --window: a tool call or sidechain spans more messages", job.name));
        }
        let _ = self.jobs.send((self.next, job));
        self.next += 1;
    }
}

/// A worker: finishes documents until the jobs run out.
pub(super) fn work(
    context: &Context<'_>,
    linter: &Linter,
    jobs: &Mutex<Receiver<(usize, Job)>>,
    out: &Sender<(usize, Out)>,
    stop: &AtomicBool,
) {
    loop {
        let next = jobs.lock().map(|jobs| jobs.recv());
        let Ok(Ok((seq, job))) = next else { return };
        if stop.load(Ordering::SeqCst) {
            continue;
        }
        let _ = out.send((seq, Out::Fixture(finish(context, linter, job))));
    }
}
