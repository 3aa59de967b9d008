//! From capture files to pending fixture files, the same for every format:
//!
//! ```text
//! read ─▶ sniff ─▶ import ─▶ redact ─▶ window ─▶ reference ─▶ document ─▶ validate ─▶ lint ─▶ write (.json.new)
//! ```
//!
//! Every file is read once first, in pieces, to check that it is readable
//! UTF-8 and for its first lines: sniffing refuses a file whose first lines
//! show another format than `--from` says (each format's
//! [`CaptureFormat::sniff`]), naming the formats that do recognize it,
//! unless `--force-format` is given. The format then opens the files
//! ([`CaptureFormat::open`]): a case held whole, or an index whose items are
//! read back window by window ([`IndexedCase`]), and the user names of the
//! whole capture, which are learned before anything is scrubbed.
//!
//! Redaction runs in the capture's order, each item once, so one secret has
//! one placeholder in every window, numbered as if the whole capture were
//! scrubbed at once: a window whose other parts (permissions, description)
//! hold a secret not seen yet waits until the case's last item is scrubbed.
//! One thread reads and scrubs; worker threads compute each document's
//! expected part, build, validate and lint it; documents are written in
//! order as they are ready. A document that fails (its reference, its
//! validation, or the lint: a capture that still holds a secret-looking
//! string) stops the capture, and the pending files it already wrote are
//! removed: a failed capture leaves nothing of itself behind. `--accept`
//! writes in place only once every document passed (until then they wait in
//! temporary files). See `docs/captures.md`, "Large captures".

use super::{CaptureError, CaptureFormat, CapturedCase, Case, ImportFailure, IndexedCase, Provenance, Sniff, Window};
use crate::files::StagedFile;
use crate::json;
use crate::redact::{Linter, RedactOptions, RedactionSummary, Redactor};
use crate::review::{WriteMode, Written, stage_fixture, write_fixture};
use crate::schema::schema_errors;
use crate::suite_api::{PortabilityNotes, ReferenceFn, Suite};
use crate::workers::{jobs_or_cores, spawn_workers};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

/// What `conform capture` was asked to do.
#[derive(Clone, Debug)]
pub struct CaptureOptions {
    /// The suite the fixtures are for.
    pub suite: &'static dyn Suite,
    /// The format (`--from`).
    pub format: &'static CaptureFormat,
    /// The capture files.
    pub files: Vec<PathBuf>,
    /// The folder fixtures are written to (`--out`).
    pub out: PathBuf,
    /// Prepended to every fixture name (`--name-prefix`).
    pub name_prefix: String,
    /// Cut cases into windows of this many items (`--window`).
    pub window: Option<usize>,
    /// Extra redaction patterns (`--redact-rule`).
    pub redact_rules: Vec<String>,
    /// The fixtureVersion of the documents written (`--fixture-version`);
    /// by default the newest version the suite's reference implements.
    pub fixture_version: Option<u32>,
    /// Keep phone numbers, IP addresses and card numbers (`--keep-personal-data`).
    pub keep_personal_data: bool,
    /// Overrides the capture day the data gives (`--captured-on`).
    pub captured_on: Option<String>,
    /// Imports files whose first lines look like another format
    /// (`--force-format`).
    pub force_format: bool,
}

/// One fixture ready to be written.
#[derive(Clone, Debug)]
pub struct PreparedFixture {
    /// The fixture name.
    pub name: String,
    /// Where it goes (`<out>/<name>.json`).
    pub target: PathBuf,
    /// The document.
    pub document: Value,
    /// Its canonical text.
    pub text: String,
    /// Items it holds.
    pub items: usize,
    /// Whether its window is longer than asked (a group that must stay
    /// together is longer).
    pub oversized: bool,
    /// The curated members kept from a fixture already at the target
    /// (`description` and any member a capture does not write); `None` when
    /// there was no fixture there.
    pub kept: Option<Vec<String>>,
}

/// Everything a capture produced, before writing.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The fixtures, in order.
    pub fixtures: Vec<PreparedFixture>,
    /// Notices from the importer and the pipeline.
    pub notices: Vec<String>,
    /// Expectations that are not portable (the reference's portability
    /// notes, see [`crate::suite_api::RuleTrace::not_portable`]), one line each.
    pub warnings: Vec<String>,
    /// What redaction replaced.
    pub redaction: RedactionSummary,
}

/// What a streaming capture tells as it goes (see [`capture`]).
pub trait Progress {
    /// Something worth telling the user (duplicates resolved, a window
    /// longer than asked, …).
    fn notice(&mut self, text: &str);
    /// An expectation that is not portable.
    fn warning(&mut self, text: &str);
    /// A fixture was written (or found unchanged).
    fn fixture(&mut self, fixture: &PreparedFixture, written: &Written);
    /// Pending files of a failed capture were removed.
    fn removed(&mut self, _paths: &[PathBuf]) {}
}

/// What [`capture`] did.
#[derive(Clone, Debug, Default)]
pub struct Captured {
    /// What happened to each fixture, in order.
    pub written: Vec<Written>,
    /// What redaction replaced.
    pub redaction: RedactionSummary,
}

/// Builds every fixture of a capture (see the module docs) and returns them;
/// writes nothing.
pub fn prepare(options: &CaptureOptions) -> Result<Prepared, CaptureError> {
    let mut fixtures = Vec::new();
    let mut notices = Vec::new();
    let mut warnings = Vec::new();
    let redaction = run(options, &mut |delivery| {
        match delivery {
            Delivery::Notice(text) => notices.push(text),
            Delivery::Warning(text) => warnings.push(text),
            Delivery::Fixture(fixture) => fixtures.push(fixture),
        }
        Ok(())
    })?;
    Ok(Prepared { fixtures, notices, warnings, redaction })
}

/// Captures and writes, fixture by fixture as each is ready (see the module
/// docs): `NAME.json.new` (removed again if a later document fails), or with
/// [`WriteMode::Accept`] `NAME.json`, in place once every document passed.
pub fn capture(
    options: &CaptureOptions,
    mode: WriteMode,
    progress: &mut dyn Progress,
) -> Result<Captured, CaptureError> {
    let mut written: Vec<Written> = Vec::new();
    let mut staged: Vec<(PreparedFixture, StagedFile)> = Vec::new();
    let result = run(options, &mut |delivery| {
        match delivery {
            Delivery::Notice(text) => progress.notice(&text),
            Delivery::Warning(text) => progress.warning(&text),
            Delivery::Fixture(fixture) => match mode {
                WriteMode::Pending => {
                    let outcome = write_fixture(&fixture.target, &fixture.text, mode)?;
                    progress.fixture(&fixture, &outcome);
                    written.push(outcome);
                }
                WriteMode::Accept => match stage_fixture(&fixture.target, &fixture.text)? {
                    Some(file) => staged.push((fixture, file)),
                    None => {
                        let outcome = Written::Unchanged(fixture.target.clone());
                        progress.fixture(&fixture, &outcome);
                        written.push(outcome);
                    }
                },
            },
        }
        Ok(())
    });
    match result {
        Ok(redaction) => {
            for (fixture, file) in staged {
                let outcome = crate::review::commit_staged(&fixture.target, file)?;
                progress.fixture(&fixture, &outcome);
                written.push(outcome);
            }
            Ok(Captured { written, redaction })
        }
        Err(err) => {
            // Staged files are dropped (and removed) with `staged`.
            drop(staged);
            let mut removed = Vec::new();
            for outcome in &written {
                if let Written::Pending(path) = outcome
                    && std::fs::remove_file(path).is_ok()
                {
                    removed.push(path.clone());
                }
            }
            if !removed.is_empty() {
                progress.removed(&removed);
            }
            Err(err)
        }
    }
}

/// Writes prepared fixtures (pending or in place). Nothing is written when
/// nothing was prepared.
pub fn write(prepared: &Prepared, mode: WriteMode) -> Result<Vec<Written>, CaptureError> {
    let mut written = Vec::new();
    for fixture in &prepared.fixtures {
        written.push(write_fixture(&fixture.target, &fixture.text, mode)?);
    }
    Ok(written)
}

/// What the engine hands on, in order.
enum Delivery {
    Notice(String),
    Warning(String),
    Fixture(PreparedFixture),
}

/// One document for a worker to finish.
struct Job {
    name: String,
    description: String,
    input: Value,
    items: usize,
    oversized: bool,
}

/// What comes out of the pipeline, numbered in the order it is delivered.
enum Out {
    Notice(String),
    Fixture(Result<(PreparedFixture, Vec<String>), CaptureError>),
    /// The reading thread is done (with its error, if it failed).
    End(Result<(), CaptureError>),
}

/// What every stage needs to know.
struct Context<'a> {
    options: &'a CaptureOptions,
    suite: &'static dyn Suite,
    format: &'static CaptureFormat,
    version: u32,
    reference: ReferenceFn,
    window: Option<(super::WindowFn, usize)>,
}

/// The capture engine: everything up to handing documents on, in order.
fn run(
    options: &CaptureOptions,
    deliver: &mut dyn FnMut(Delivery) -> Result<(), CaptureError>,
) -> Result<RedactionSummary, CaptureError> {
    let format = options.format;
    let suite = options.suite;
    if suite.reference().is_none() {
        return Err(CaptureError::NoReference(suite.name().to_owned()));
    }
    let version = options.fixture_version.unwrap_or_else(|| suite.newest_reference_version());
    let reference = suite.reference_for(version).ok_or_else(|| {
        CaptureError::UnimplementedVersion(crate::implementation::unimplemented_version(suite, version))
    })?;
    let window = match options.window {
        None => None,
        Some(0) => return Err(CaptureError::WindowTooSmall),
        Some(size) => {
            Some((format.window.ok_or_else(|| CaptureError::WindowUnsupported(format.name.to_owned()))?, size))
        }
    };
    let mut redactor = Redactor::with_options(&RedactOptions {
        user_rules: options.redact_rules.clone(),
        keep_personal_data: options.keep_personal_data,
    })?;

    let heads = read_heads(&options.files)?;
    if !options.force_format {
        check_formats(suite, format, &heads)?;
    }
    drop(heads);
    let names_in = |value: &Value| redactor.user_names_in(value);
    let opened = (format.open)(&options.files, &names_in)?;
    // Names revealed by any path in the capture are replaced everywhere,
    // including cases that precede the path.
    redactor.learn_names(opened.user_names);
    for notice in opened.notices {
        deliver(Delivery::Notice(notice))?;
    }
    let context = Context { options, suite, format, version, reference, window };
    let linter = redactor.linter();
    stream(&context, &mut redactor, opened.cases, &linter, deliver)?;
    Ok(redactor.summary())
}

/// Runs the reading thread, the workers and the delivery in order.
fn stream(
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
fn collect(
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
struct Emitter<'s> {
    next: usize,
    jobs: SyncSender<(usize, Job)>,
    out: Sender<(usize, Out)>,
    stop: &'s AtomicBool,
}

impl Emitter<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn notice(&mut self, text: String) {
        let _ = self.out.send((self.next, Out::Notice(text)));
        self.next += 1;
    }

    fn job(&mut self, job: Job) {
        if job.oversized {
            self.notice(format!("{}: longer than --window: a tool call or sidechain spans more messages", job.name));
        }
        let _ = self.jobs.send((self.next, job));
        self.next += 1;
    }
}

/// A worker: finishes documents until the jobs run out.
fn work(
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

/// Computes the expected part, builds the document, validates and lints it.
fn finish(context: &Context<'_>, linter: &Linter, job: Job) -> Result<(PreparedFixture, Vec<String>), CaptureError> {
    let Job { name, description, input, items, oversized } = job;
    let mut portability = PortabilityNotes::default();
    let expected = (context.reference)(&input, &mut portability)
        .map_err(|message| CaptureError::Reference { name: name.clone(), message })?;
    let warnings = portability.lines().into_iter().map(|note| format!("{name}: not portable: {note}")).collect();
    let document = build_document(context.suite, context.version, &name, &description, &input, &expected)
        .map_err(|message| CaptureError::Reference { name: name.clone(), message })?;
    drop(input);
    let target = context.options.out.join(format!("{name}.json"));
    let (document, kept) = keep_curated(document, &target);
    let text = json::to_canonical_string(&document);
    let problems = schema_errors(context.suite, context.version, &document, &text, &target);
    if !problems.is_empty() {
        return Err(CaptureError::Invalid { name, problems });
    }
    let findings = linter.lint(&text, &document);
    if !findings.is_empty() {
        return Err(CaptureError::SecretsRemain { name, findings });
    }
    Ok((PreparedFixture { name, target, document, text, items, oversized, kept }, warnings))
}

/// The reading thread: cases in order, scrubbed, cut and handed to workers.
fn read_cases(
    context: &Context<'_>,
    redactor: &mut Redactor,
    cases: &mut dyn super::CaseSource,
    emitter: &mut Emitter<'_>,
) -> Result<(), CaptureError> {
    let mut names = HashSet::new();
    while let Some(case) = cases.next_case() {
        if emitter.stopped() {
            return Ok(());
        }
        match case? {
            Case::Whole(case) => whole_case(context, redactor, case, &mut names, emitter),
            Case::Indexed(case) => indexed_case(context, redactor, case, &mut names, emitter)?,
        }
    }
    Ok(())
}

/// A case held whole: scrubbed at once, then cut.
fn whole_case(
    context: &Context<'_>,
    redactor: &mut Redactor,
    mut case: CapturedCase,
    names: &mut HashSet<String>,
    emitter: &mut Emitter<'_>,
) {
    redactor.scrub_value(&mut case.input);
    let base = unique_name(&format!("{}{}", context.options.name_prefix, redactor.scrub_text(&case.label)), names);
    for part in split(&case, &base, context.window) {
        if emitter.stopped() {
            return;
        }
        let description =
            redactor.scrub_text(&describe(context.format, context.options, &case.provenance, part.window, &part.input));
        emitter.job(Job {
            name: part.name,
            description,
            input: part.input,
            items: part.items,
            oversized: part.oversized,
        });
    }
}

/// A window that waits for the end of its case.
enum Late {
    /// Its other parts hold a new secret: built from these scrubbed items.
    Items(Vec<Value>),
    /// Its description holds a new secret: this input is ready.
    Description(Value),
}

/// A case read through an index: each window's items read and scrubbed
/// once, in order (see the module docs).
fn indexed_case(
    context: &Context<'_>,
    redactor: &mut Redactor,
    mut case: Box<dyn IndexedCase>,
    names: &mut HashSet<String>,
    emitter: &mut Emitter<'_>,
) -> Result<(), CaptureError> {
    let Some((_, size)) = context.window else {
        whole_case(context, redactor, case.into_whole()?, names, emitter);
        return Ok(());
    };
    let windows = case.plan(size);
    // One window is the whole case; a label holding a secret not seen yet
    // is numbered after every item: both are built as the whole case.
    let label = match redactor.scrub_text_known(case.label()) {
        Ok((label, _)) if windows.len() > 1 => label,
        _ => {
            whole_case(context, redactor, case.into_whole()?, names, emitter);
            return Ok(());
        }
    };
    let base = unique_name(&format!("{}{}", context.options.name_prefix, label), names);
    let count = windows.len();
    let width = count.to_string().len();
    let name_of = |index: usize| format!("{base}-w{:0width$}", index + 1);
    let provenance = case.provenance().clone();
    let describe_window = |index: usize, input: &Value| {
        let window = &windows[index];
        let place = Some((index + 1, count, window.first, window.last));
        describe(context.format, context.options, &provenance, place, input)
    };
    let mut cache: VecDeque<Value> = VecDeque::new();
    let mut cache_first = 0;
    let mut loaded = 0;
    let mut late: Vec<(usize, Late)> = Vec::new();
    for (index, window) in windows.iter().enumerate() {
        if emitter.stopped() {
            return Ok(());
        }
        if loaded <= window.last {
            cache.extend(scrub_in_order(redactor, case.read_items(loaded, window.last)?));
            loaded = window.last + 1;
        }
        while cache_first < window.first {
            cache.pop_front();
            cache_first += 1;
        }
        let items = || cache.iter().take(window.last + 1 - window.first).cloned().collect::<Vec<Value>>();
        match case.window_input(index, items(), redactor) {
            Ok(input) => {
                let description = describe_window(index, &input);
                match redactor.scrub_text_known(&description) {
                    Ok((description, replaced)) => {
                        redactor.count(replaced);
                        let items = window.last + 1 - window.first;
                        emitter.job(Job {
                            name: name_of(index),
                            description,
                            input,
                            items,
                            oversized: window.oversized,
                        });
                    }
                    Err(_) => late.push((index, Late::Description(input))),
                }
            }
            Err(_) => late.push((index, Late::Items(items()))),
        }
    }
    drop(cache);
    // Every item is scrubbed: the rest of the input and the label now, as
    // the whole case would have them, then the windows that waited.
    let mut rest = case.rest();
    redactor.scrub_value(&mut rest);
    redactor.scrub_text(case.label());
    for (index, waiting) in late {
        if emitter.stopped() {
            return Ok(());
        }
        let input = match waiting {
            Late::Items(items) => case.late_window_input(index, items, &rest, redactor),
            Late::Description(input) => input,
        };
        let description = redactor.scrub_text(&describe_window(index, &input));
        let window = &windows[index];
        let items = window.last + 1 - window.first;
        emitter.job(Job { name: name_of(index), description, input, items, oversized: window.oversized });
    }
    Ok(())
}

/// Items this many or more are scrubbed on two threads.
const PARALLEL_SCRUB: usize = 16;

/// Scrubs `items` as scrubbing them one after the other would. Each half is
/// first scrubbed on its own thread against the placeholders known so far
/// ([`Redactor::scrub_value_known`]): an item whose secrets all have their
/// placeholder is then done (the same text, and nothing new to number);
/// the others are scrubbed again, in order, after the items before them.
fn scrub_in_order(redactor: &mut Redactor, items: Vec<Value>) -> Vec<Value> {
    if items.len() < PARALLEL_SCRUB {
        return items
            .into_iter()
            .map(|mut item| {
                redactor.scrub_value(&mut item);
                item
            })
            .collect();
    }
    let known: &Redactor = redactor;
    let attempt = |items: Vec<Value>| -> Vec<Result<(Value, crate::redact::Replacements), Value>> {
        items
            .into_iter()
            .map(|item| {
                let mut copy = item.clone();
                match known.scrub_value_known(&mut copy) {
                    Ok(replaced) => Ok((copy, replaced)),
                    Err(_) => Err(item),
                }
            })
            .collect()
    };
    let mut first = items;
    let second = first.split_off(first.len() / 2);
    let (first, second) = std::thread::scope(|scope| {
        let other = scope.spawn(|| attempt(second));
        let first = attempt(first);
        (first, other.join())
    });
    let second = second.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    first
        .into_iter()
        .chain(second)
        .map(|attempted| match attempted {
            Ok((item, replaced)) => {
                redactor.count(replaced);
                item
            }
            Err(mut item) => {
                redactor.scrub_value(&mut item);
                item
            }
        })
        .collect()
}

/// One capture file's first lines, for the sniffers.
struct Head {
    path: PathBuf,
    text: String,
}

/// Reads every file once, in pieces: it must be readable UTF-8; its first
/// lines (the whole text when they hold no JSON value, as a pretty-printed
/// document's do) are kept for sniffing.
fn read_heads(paths: &[PathBuf]) -> Result<Vec<Head>, CaptureError> {
    let mut heads = Vec::new();
    for path in paths {
        let read_error = |err: std::io::Error| ImportFailure::Read { path: path.clone(), message: err.to_string() };
        let mut file = std::fs::File::open(path).map_err(read_error)?;
        let mut head: Vec<u8> = Vec::new();
        let mut lines = 0;
        let mut carry: Vec<u8> = Vec::new();
        let mut offset = 0usize;
        let mut chunk = vec![0u8; 1 << 20];
        loop {
            let read = file.read(&mut chunk).map_err(read_error)?;
            if read == 0 {
                break;
            }
            let mut bytes = std::mem::take(&mut carry);
            bytes.extend_from_slice(&chunk[..read]);
            let valid = match std::str::from_utf8(&bytes) {
                Ok(_) => bytes.len(),
                Err(err) if err.error_len().is_none() => err.valid_up_to(),
                Err(err) => return Err(not_utf8(path, offset + err.valid_up_to()).into()),
            };
            if lines < sniff_lines() {
                for &byte in &bytes[..valid] {
                    head.push(byte);
                    if byte == b'\n' {
                        lines += 1;
                        if lines == sniff_lines() {
                            break;
                        }
                    }
                }
            }
            carry = bytes[valid..].to_vec();
            offset += valid;
        }
        if !carry.is_empty() {
            return Err(not_utf8(path, offset).into());
        }
        let mut text = String::from_utf8(head).map_err(|err| not_utf8(path, err.utf8_error().valid_up_to()))?;
        let whole = lines < sniff_lines();
        if !whole && crate::suite_api::capture::sniff::first_values(&text).is_empty() {
            text = std::fs::read_to_string(path).map_err(read_error)?;
        }
        heads.push(Head { path: path.clone(), text });
    }
    Ok(heads)
}

/// Lines a sniffer can look at (it takes the first values of as many).
fn sniff_lines() -> usize {
    crate::suite_api::capture::sniff::SNIFF_LINES * 4
}

fn not_utf8(path: &Path, offset: usize) -> ImportFailure {
    ImportFailure::Read { path: path.to_path_buf(), message: format!("not UTF-8 (byte offset {offset})") }
}

/// Refuses the first file whose first lines show another format than the
/// one asked for, naming the (suite, format) pairs that recognize it.
fn check_formats(suite: &dyn Suite, format: &CaptureFormat, files: &[Head]) -> Result<(), CaptureError> {
    for file in files {
        let Sniff::Mismatch(why) = (format.sniff)(&file.text) else { continue };
        let readers: Vec<String> = super::formats()
            .into_iter()
            .filter(|(_, other)| (other.sniff)(&file.text) == Sniff::Matches)
            .map(|(owner, other)| format!("`conform capture {} --from {}`", owner.name(), other.name))
            .collect();
        return Err(CaptureError::FormatMismatch {
            path: file.path.clone(),
            format: format.name.to_owned(),
            suite: suite.name().to_owned(),
            why,
            readers: if readers.is_empty() { String::new() } else { format!("; it reads as {}", readers.join(" or ")) },
        });
    }
    Ok(())
}

/// One document to build: the whole case or one of its windows.
struct Part {
    name: String,
    input: Value,
    items: usize,
    /// `(number, of, first item, last item)`, for windows.
    window: Option<(usize, usize, usize, usize)>,
    oversized: bool,
}

fn split(case: &CapturedCase, base: &str, window_fn: Option<(super::WindowFn, usize)>) -> Vec<Part> {
    let windows = window_fn.map(|(cut, size)| cut(&case.input, size)).unwrap_or_default();
    if windows.len() <= 1 {
        let oversized = windows.first().is_some_and(|w| w.oversized);
        return vec![Part {
            name: base.to_owned(),
            input: case.input.clone(),
            items: case.provenance.items,
            window: None,
            oversized,
        }];
    }
    let count = windows.len();
    let width = count.to_string().len();
    windows
        .into_iter()
        .enumerate()
        .map(|(index, Window { input, first, last, oversized })| Part {
            name: format!("{base}-w{:0width$}", index + 1),
            input,
            items: last - first + 1,
            window: Some((index + 1, count, first, last)),
            oversized,
        })
        .collect()
}

/// Whether the compact text of `value` holds a placeholder: placeholders
/// are made of characters the writer never escapes, and an escape breaks
/// one, so it is whether a string or member name holds one.
fn holds_placeholder(value: &Value) -> bool {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::String(text) => crate::redact::contains_placeholder(text),
        Value::Array(items) => items.iter().any(holds_placeholder),
        Value::Object(members) => {
            members.iter().any(|(name, member)| crate::redact::contains_placeholder(name) || holds_placeholder(member))
        }
        _ => false,
    })
}

/// The description: provenance, and what a reviewer must know.
fn describe(
    format: &CaptureFormat,
    options: &CaptureOptions,
    provenance: &Provenance,
    window: Option<(usize, usize, usize, usize)>,
    input: &Value,
) -> String {
    let mut text = format!(
        "Captured from {} (--from {}: {} {}",
        provenance.sources.join(", "),
        format.name,
        provenance.items,
        provenance.noun
    );
    if let Some(detail) = &provenance.detail {
        text.push_str(&format!("; {detail}"));
    }
    text.push(')');
    if let Some(day) = options.captured_on.as_ref().or(provenance.captured_on.as_ref()) {
        text.push_str(&format!(", captured {day}"));
    }
    text.push('.');
    if let Some((number, count, first, last)) = window {
        text.push_str(&format!(
            " Window {number} of {count}: {} {}–{} of the session.",
            provenance.noun,
            first + 1,
            last + 1
        ));
    }
    if holds_placeholder(input) {
        text.push_str(" Secrets and personal data are replaced by REDACTED_* placeholders.");
    }
    text.push_str(" Expected part computed by the conform reference; check it against the spec before accepting.");
    text
}

/// Assembles `{fixtureVersion, name, description, <input>, <expected>}` in
/// the suite's layout.
fn build_document(
    suite: &dyn Suite,
    version: u32,
    name: &str,
    description: &str,
    input: &Value,
    expected: &Value,
) -> Result<Value, String> {
    let mut document = Map::new();
    document.insert("fixtureVersion".to_owned(), Value::from(version));
    document.insert("name".to_owned(), Value::from(name));
    document.insert("description".to_owned(), Value::from(description));
    let document = suite
        .with_input(&Value::Object(document), input)
        .map_err(|message| format!("captures cannot build documents of suite {} {message}", suite.name()))?;
    suite.with_expected(&document, expected)
}

/// A capture of a recording that was imported before proposes a fixture
/// where one already is: a reviewer may have written its description, or
/// added members a capture does not write. Those are curated, and kept: the
/// capture renews what it computes (the version, the name, the input and
/// expected parts) and nothing else. Returns the document and the names of
/// the members kept, or `None` when no fixture document is at `target` (one
/// that cannot be read or is not an object counts as none: the pending file
/// then shows the whole proposal).
fn keep_curated(document: Value, target: &Path) -> (Value, Option<Vec<String>>) {
    let Ok(bytes) = crate::files::read_limited(target, crate::files::max_file_bytes()) else { return (document, None) };
    let Some(Value::Object(existing)) = std::str::from_utf8(&bytes).ok().and_then(|text| json::parse_value(text).ok())
    else {
        return (document, None);
    };
    let Value::Object(mut proposed) = document else { return (document, None) };
    let mut kept = Vec::new();
    for (key, value) in existing {
        if key == "description" || !proposed.contains_key(&key) {
            if proposed.get(&key) != Some(&value) {
                kept.push(key.clone());
            }
            proposed.insert(key, value);
        }
    }
    (Value::Object(proposed), Some(kept))
}

/// A valid, unused fixture name: characters outside `[A-Za-z0-9._-]` become
/// `-`, and a clash gets `-2`, `-3`, ….
fn unique_name(wanted: &str, taken: &mut HashSet<String>) -> String {
    let mut name = String::new();
    for c in wanted.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' };
        if !(c == '-' && name.ends_with('-')) {
            name.push(c);
        }
    }
    let name = name.trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).trim_end_matches('-');
    let name = if name.is_empty() { "capture".to_owned() } else { name.to_owned() };
    let mut candidate = name.clone();
    let mut counter = 1;
    while !taken.insert(candidate.clone()) {
        counter += 1;
        candidate = format!("{name}-{counter}");
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(unique_name("cap-Session 42/α", &mut taken), "cap-Session-42");
        assert_eq!(unique_name("cap-Session 42/β", &mut taken), "cap-Session-42-2");
        assert_eq!(unique_name("//", &mut taken), "capture");
        assert_eq!(unique_name("_x", &mut taken), "x");
    }
}
