//! `--from hapi-messages`: what a HAPI client receives for one session.
//!
//! Accepted files, recognized by shape (any mix, any order):
//! * `GET /api/sessions/:id/messages` response bodies `{messages, page}`;
//! * NDJSON streams, one `DecryptedMessage` (or one response body) per line;
//! * a bare JSON array of messages, or a single message;
//! * the session, `GET /api/sessions/:id` (`{session}`) or a bare session
//!   object, for its `agentState`.
//!
//! Pages fetched while a session is live overlap and arrive in any order, so
//! rows are de-duplicated by `id` and ordered by `seq`, as the server orders
//! them. All files together are one session, so one case.
//!
//! The rows are not held: [`open`] reads each file once (an NDJSON stream
//! line by line, a page or array as one document) and keeps an index entry
//! per row: where its bytes are, a hash of them, what it says about tool
//! calls ([`window::Mentions`]), its `id`, `seq` and `createdAt`, and the user
//! names it reveals. De-duplication compares a copy with the row kept so far
//! by their bytes, and by value (re-reading the kept row) when the bytes
//! differ. The case ([`HapiCase`]) reads a window's rows back by their
//! offsets when the window is built, and refuses a row whose bytes changed
//! since. Only the session object (for `agentState`) is held whole.
//!
//! [`sniff`] knows these files by the same shapes.

use super::window::{self, Interner, Mentions, Planned, StateIndex};
use crate::compare::values_equal;
use crate::json::{self, JsonError, parse_json_lines};
use crate::redact::{NewSecret, Redactor};
use crate::suite_api::capture::lines::type_name;
use crate::suite_api::capture::sniff::{Sniff, by_first_telling_line};
use crate::suite_api::capture::{
    CapturedCase, Case, CaseSource, ImportFailure, IndexedCase, NamesFn, Opened, PlannedWindow, Provenance,
};
use serde_json::{Map, Value, json};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One kept row: where it is and what the case needs to know about it.
///
/// A long session holds about a million of these, so the numbers are kept
/// without `Option`'s padding: a JSON number is never NaN, which stands for
/// "absent" in `seq` and `created_at`.
#[derive(Debug)]
struct Entry {
    file: u32,
    len: u32,
    offset: u64,
    hash: u64,
    id: Option<Box<str>>,
    seq: f64,
    created_at: f64,
    /// `seq` as an integer, when `flags` has [`SEQ_IS_INT`].
    seq_int: i64,
    flags: u8,
    mentions: Mentions,
    names: Box<[Box<str>]>,
}

/// `Entry::flags`: the row's `seq` is an integer (`Entry::seq_int`).
const SEQ_IS_INT: u8 = 1;
/// `Entry::flags`: the row carries `invokedAt`.
const INVOKED: u8 = 2;

impl Entry {
    fn seq(&self) -> Option<f64> {
        (!self.seq.is_nan()).then_some(self.seq)
    }

    fn created_at(&self) -> Option<f64> {
        (!self.created_at.is_nan()).then_some(self.created_at)
    }

    fn seq_int(&self) -> Option<i64> {
        (self.flags & SEQ_IS_INT != 0).then_some(self.seq_int)
    }

    fn invoked(&self) -> bool {
        self.flags & INVOKED != 0
    }
}

/// What the files said, as they are read.
struct Collector<'n> {
    names_in: NamesFn<'n>,
    paths: Vec<PathBuf>,
    reader: RowReader,
    interner: Interner,
    kept: Vec<Entry>,
    /// Kept rows by the hash of their id (the id itself is in the entry).
    by_id: HashMap<u64, usize>,
    /// Rows whose id's hash is another kept id's: by id (rare).
    by_colliding_id: HashMap<Box<str>, usize>,
    rows_read: usize,
    /// Bytes of the rows kept so far (to estimate a stream's row count).
    bytes_kept: u64,
    without_id: usize,
    /// Ids of rows in pages that say older rows exist.
    older_pages: HashSet<Box<str>>,
    /// The last session object given, its file, and how many were given.
    session: Option<(usize, Value)>,
    sessions: usize,
    /// Files (pages or streams) that held messages.
    units: usize,
    notices: Vec<String>,
}

/// Opens the files of one session (see the module docs).
pub fn open(paths: &[PathBuf], names_in: NamesFn<'_>) -> Result<Opened, ImportFailure> {
    let mut collector = Collector {
        names_in,
        paths: paths.to_vec(),
        reader: RowReader::new(paths.to_vec()),
        interner: Interner::default(),
        kept: Vec::new(),
        by_id: HashMap::new(),
        by_colliding_id: HashMap::new(),
        rows_read: 0,
        bytes_kept: 0,
        without_id: 0,
        older_pages: HashSet::new(),
        session: None,
        sessions: 0,
        units: 0,
        notices: Vec::new(),
    };
    for (index, path) in paths.iter().enumerate() {
        read_file(index, path, &mut collector)?;
    }
    if collector.kept.is_empty() {
        return Err(ImportFailure::Empty("messages"));
    }
    let (case, user_names, notices) = collector.finish();
    Ok(Opened { cases: Box::new(OneCase(Some(Box::new(case)))), user_names, notices })
}

/// The one case of a HAPI capture.
struct OneCase(Option<Box<HapiCase>>);

impl CaseSource for OneCase {
    fn next_case(&mut self) -> Option<Result<Case, ImportFailure>> {
        self.0.take().map(|case| Ok(Case::Indexed(case)))
    }
}

/// Sniffs a HAPI file: its first value is a messages page, a
/// `DecryptedMessage` (a `content` and no string `type`: a Claude frame
/// with `content` is not one), a session, or an array of them; any other
/// object first is another kind of file.
pub fn sniff(text: &str) -> Sniff {
    by_first_telling_line(text, is_hapi_value, |value| {
        value.is_object().then(|| "neither a messages page, a DecryptedMessage nor a session".to_owned())
    })
}

fn is_hapi_value(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.first().is_some_and(is_hapi_value),
        Value::Object(object) => {
            object.get("messages").is_some_and(Value::is_array)
                || object.get("session").is_some_and(Value::is_object)
                || object.contains_key("agentState")
                || (object.contains_key("content") && !object.get("type").is_some_and(Value::is_string))
        }
        _ => false,
    }
}

impl Collector<'_> {
    fn file_label(&self, index: usize) -> String {
        self.paths.get(index).map_or_else(|| format!("file {index}"), |path| file_name(path))
    }

    /// Takes one row, read from `bytes` (its text) at `offset` of file `file`.
    fn take_row(&mut self, file: usize, message: Value, bytes: &str, offset: u64) -> Result<(), String> {
        self.rows_read += 1;
        let entry = self.entry(file, &message, bytes, offset);
        let Some(id) = entry.id.clone() else {
            self.without_id += 1;
            self.push(entry, file);
            return Ok(());
        };
        let Some(at) = self.kept_with_id(&id) else {
            let key = hash_bytes(id.as_bytes());
            if self.by_id.contains_key(&key) {
                self.by_colliding_id.insert(id, self.kept.len());
            } else {
                self.by_id.insert(key, self.kept.len());
            }
            self.push(entry, file);
            return Ok(());
        };
        if self.same_row(at, &message, bytes)? {
            return Ok(());
        }
        let (kept_invoked, new_invoked) = (self.kept[at].invoked(), entry.invoked());
        // A row the agent has consumed (`invokedAt` stamped) is the later
        // state of a queued one; otherwise the copy read later wins.
        let keep_new = new_invoked || !kept_invoked;
        let (winner, loser) =
            if keep_new { (file, self.kept[at].file as usize) } else { (self.kept[at].file as usize, file) };
        let (winner_invoked, loser_invoked) =
            if keep_new { (new_invoked, kept_invoked) } else { (kept_invoked, new_invoked) };
        self.notices.push(format!(
            "message {id} differs between {} and {}; kept the one from {} ({})",
            self.file_label(loser),
            self.file_label(winner),
            self.file_label(winner),
            if winner_invoked && !loser_invoked { "it carries invokedAt" } else { "read later" }
        ));
        if keep_new {
            self.kept[at] = entry;
        }
        Ok(())
    }

    /// The index of the kept row with this id.
    fn kept_with_id(&self, id: &str) -> Option<usize> {
        let at = *self.by_id.get(&hash_bytes(id.as_bytes()))?;
        if self.kept[at].id.as_deref() == Some(id) {
            return Some(at);
        }
        self.by_colliding_id.get(id).copied()
    }

    /// Keeps a new row. The first rows of a large stream reserve room for
    /// the rows its size promises, so the index is not copied as it grows
    /// (room never written is never resident).
    fn push(&mut self, entry: Entry, file: usize) {
        if self.kept.len() == RESERVE_AFTER
            && let Some(size) = self.paths.get(file).and_then(|path| std::fs::metadata(path).ok()).map(|m| m.len())
        {
            let average = (self.bytes_kept / RESERVE_AFTER as u64).max(1);
            let promised = usize::try_from(size / average).unwrap_or(usize::MAX).min(MAX_RESERVED_ROWS);
            self.kept.reserve(promised.saturating_mul(5) / 4);
        }
        self.bytes_kept += u64::from(entry.len);
        self.kept.push(entry);
    }

    /// Whether the row kept at `at` and a new copy are the same message: the
    /// same bytes, or the same value.
    fn same_row(&mut self, at: usize, message: &Value, bytes: &str) -> Result<bool, String> {
        let kept = &self.kept[at];
        let kept_bytes = self.reader.read(kept.file as usize, kept.offset, kept.len).map_err(|err| err.to_string())?;
        if kept_bytes.as_bytes() == bytes.as_bytes() {
            return Ok(true);
        }
        let kept_value = json::parse_value(&kept_bytes).map_err(|err| err.to_string())?;
        Ok(values_equal(&kept_value, message))
    }

    fn entry(&mut self, file: usize, message: &Value, bytes: &str, offset: u64) -> Entry {
        let number = |key: &str| message.get(key).and_then(Value::as_f64);
        let mut names: Vec<Box<str>> = Vec::new();
        for name in (self.names_in)(message) {
            if !names.iter().any(|known| **known == *name) {
                names.push(name.into());
            }
        }
        let seq_int = message.get("seq").and_then(Value::as_i64);
        let invoked = message.get("invokedAt").is_some_and(|v| !v.is_null());
        Entry {
            file: u32::try_from(file).unwrap_or(u32::MAX),
            len: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
            offset,
            hash: hash_bytes(bytes.as_bytes()),
            id: message.get("id").and_then(Value::as_str).map(Box::from),
            seq: number("seq").unwrap_or(f64::NAN),
            created_at: number("createdAt").unwrap_or(f64::NAN),
            seq_int: seq_int.unwrap_or(0),
            flags: if seq_int.is_some() { SEQ_IS_INT } else { 0 } | if invoked { INVOKED } else { 0 },
            mentions: window::scan(message, &mut self.interner),
            names: names.into(),
        }
    }

    /// Sorts the rows, and builds the case and its notices.
    fn finish(mut self) -> (HapiCase, Vec<String>, Vec<String>) {
        let mut notices = std::mem::take(&mut self.notices);
        if self.without_id > 0 {
            notices.push(format!("{} messages have no string `id` and could not be de-duplicated", self.without_id));
        }
        let mut entries = std::mem::take(&mut self.kept);
        self.by_id = HashMap::new();
        self.by_colliding_id = HashMap::new();
        sort_in_place(&mut entries);
        let dropped = self.rows_read - entries.len();

        let (agent_state, session_id) = match &self.session {
            None => (Value::Null, None),
            Some((file, session)) => {
                if self.sessions > 1 {
                    notices.push(format!(
                        "{} session objects given; agentState comes from the last, {}",
                        self.sessions,
                        self.file_label(*file)
                    ));
                }
                let state = session.get("agentState").cloned().unwrap_or(Value::Null);
                (state, session.get("id").and_then(Value::as_str).map(str::to_owned))
            }
        };
        let has_more = entries.first().and_then(|e| e.id.as_ref()).is_some_and(|id| self.older_pages.contains(id));
        note_seq_gaps(&entries, &mut notices);

        let seqs: Vec<f64> = entries.iter().filter_map(Entry::seq).collect();
        let mut detail = Vec::new();
        if let (Some(first), Some(last)) = (seqs.first(), seqs.last()) {
            detail.push(format!("seq {}–{}", json::format_js_number(*first), json::format_js_number(*last)));
        }
        if self.units > 1 {
            detail.push(format!("{} pages or streams", self.units));
        }
        if dropped > 0 {
            detail.push(format!("{dropped} duplicate rows dropped"));
        }
        let label = session_id.unwrap_or_else(|| self.paths.first().map_or_else(|| "capture".to_owned(), |p| stem(p)));
        let provenance = Provenance {
            sources: self.paths.iter().map(|path| file_name(path)).collect(),
            captured_on: capture_day(&entries),
            items: entries.len(),
            noun: "messages",
            detail: (!detail.is_empty()).then(|| detail.join("; ")),
        };
        let mut user_names: Vec<String> =
            entries.iter().flat_map(|entry| entry.names.iter().map(|name| name.to_string())).collect();
        let mut rest = Map::new();
        rest.insert("agentState".to_owned(), agent_state);
        rest.insert("options".to_owned(), json!({"hasMoreMessages": has_more}));
        user_names.extend((self.names_in)(&Value::Object(rest.clone())));
        let case = HapiCase {
            label,
            provenance,
            reader: self.reader,
            entries,
            interner: self.interner,
            rest,
            state: None,
            opened: Vec::new(),
            windows: Vec::new(),
        };
        (case, user_names, notices)
    }
}

/// Rows that say no id, seq or createdAt are taken after those that do
/// (and the server's own order is kept among equals: the sort is stable).
fn order(a: &Entry, b: &Entry) -> Ordering {
    let by = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    fn id(entry: &Entry) -> &str {
        entry.id.as_deref().unwrap_or("")
    }
    by(a.seq(), b.seq()).then_with(|| by(a.created_at(), b.created_at())).then_with(|| id(a).cmp(id(b)))
}

/// Sorts rows by [`order`], stably, without the half-size buffer a stable
/// sort of the rows themselves takes: positions are sorted (ties by
/// position, so an unstable sort gives the stable order) and the rows then
/// moved into place cycle by cycle.
fn sort_in_place(entries: &mut [Entry]) {
    let mut positions: Vec<u32> = (0..u32::try_from(entries.len()).unwrap_or(u32::MAX)).collect();
    if positions.len() < entries.len() {
        entries.sort_by(order);
        return;
    }
    positions.sort_unstable_by(|&a, &b| order(&entries[a as usize], &entries[b as usize]).then(a.cmp(&b)));
    // `positions[i]` is the row that belongs at `i`.
    for start in 0..positions.len() {
        let mut at = start;
        while positions[at] as usize != start {
            let from = positions[at] as usize;
            entries.swap(at, from);
            positions[at] = at as u32;
            at = from;
        }
        positions[at] = at as u32;
    }
}

/// Rows kept before a stream's row count is estimated from its size.
const RESERVE_AFTER: usize = 1024;
/// The most rows reserved ahead (about 1 GB of index; beyond it the index
/// grows as it goes).
const MAX_RESERVED_ROWS: usize = 8_000_000;

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn stem(path: &Path) -> String {
    let name = file_name(path);
    match name.split_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}

/// Reads rows back from the capture files by offset.
struct RowReader {
    paths: Vec<PathBuf>,
    files: Vec<Option<File>>,
}

impl RowReader {
    fn new(paths: Vec<PathBuf>) -> RowReader {
        let files = paths.iter().map(|_| None).collect();
        RowReader { paths, files }
    }

    fn read(&mut self, file: usize, offset: u64, len: u32) -> std::io::Result<String> {
        let mut bytes = vec![0; len as usize];
        self.read_into(file, offset, &mut bytes)?;
        String::from_utf8(bytes).map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidData, err))
    }

    fn read_into(&mut self, file: usize, offset: u64, buffer: &mut [u8]) -> std::io::Result<()> {
        if self.files[file].is_none() {
            self.files[file] = Some(File::open(&self.paths[file])?);
        }
        let Some(handle) = self.files[file].as_mut() else { return Ok(()) };
        handle.seek(SeekFrom::Start(offset))?;
        handle.read_exact(buffer)
    }
}

fn changed(path: &Path, detail: impl std::fmt::Display) -> ImportFailure {
    ImportFailure::Shape {
        path: path.to_path_buf(),
        message: format!("changed while it was being captured ({detail}); capture it again"),
    }
}

/// The session as one chat case whose messages stay in the files.
pub struct HapiCase {
    label: String,
    provenance: Provenance,
    reader: RowReader,
    entries: Vec<Entry>,
    interner: Interner,
    /// `agentState` and `options`, as the whole input has them, but for an
    /// object agentState once it is indexed: it then lives in `state` only
    /// (an empty object keeps its place here; see [`HapiCase::whole_rest`]).
    rest: Map<String, Value>,
    /// The agentState's permissions by tool id, when it is an object.
    state: Option<StateIndex>,
    /// Which interned ids some message opens.
    opened: Vec<bool>,
    windows: Vec<Planned>,
}

impl std::fmt::Debug for HapiCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HapiCase({}, {} messages)", self.label, self.entries.len())
    }
}

impl HapiCase {
    /// The input members before `messages`' items are added, in the whole
    /// input's order.
    fn base(&self, rest: &Map<String, Value>) -> Map<String, Value> {
        let mut base = Map::new();
        base.insert("messages".to_owned(), Value::Null);
        for (key, value) in rest {
            base.insert(key.clone(), value.clone());
        }
        base
    }

    /// `rest` with the agentState whole again.
    fn whole_rest(&self) -> Map<String, Value> {
        let mut rest = self.rest.clone();
        if let Some(state) = &self.state {
            rest.insert("agentState".to_owned(), state.whole());
        }
        rest
    }

    fn opened_here(&self, window: &Planned) -> Vec<u32> {
        self.entries[window.first..=window.last].iter().flat_map(|e| e.mentions.opens().iter().copied()).collect()
    }
}

impl IndexedCase for HapiCase {
    fn label(&self) -> &str {
        &self.label
    }

    fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    fn plan(&mut self, size: usize) -> Vec<PlannedWindow> {
        let mentions: Vec<&Mentions> = self.entries.iter().map(|e| &e.mentions).collect();
        self.windows = window::plan_refs(&mentions, self.interner.len(), size);
        let mut opened = vec![false; self.interner.len()];
        for id in self.entries.iter().flat_map(|e| e.mentions.opens()) {
            opened[*id as usize] = true;
        }
        if self.state.is_none()
            && let Some(Value::Object(state)) = self.rest.get_mut("agentState")
        {
            // Moved, not copied: a long session's agentState is held once.
            self.state = Some(StateIndex::new(std::mem::take(state), &self.interner, &opened));
        }
        self.opened = opened;
        self.windows.iter().map(|w| PlannedWindow { first: w.first, last: w.last, oversized: w.oversized }).collect()
    }

    fn read_items(&mut self, first: usize, last: usize) -> Result<Vec<Value>, ImportFailure> {
        let mut items = Vec::with_capacity(last + 1 - first);
        let mut at = first;
        while at <= last {
            // One read for a run of rows that lie one after another in a file.
            let start = &self.entries[at];
            let (file, run_start) = (start.file, start.offset);
            let mut run_end = at;
            let mut end_offset = start.offset + u64::from(start.len);
            while run_end < last {
                let next = &self.entries[run_end + 1];
                if next.file != file || next.offset < end_offset || next.offset - end_offset > 4096 {
                    break;
                }
                end_offset = next.offset + u64::from(next.len);
                run_end += 1;
            }
            let path = self.reader.paths[file as usize].clone();
            let mut buffer = vec![0; (end_offset - run_start) as usize];
            self.reader.read_into(file as usize, run_start, &mut buffer).map_err(|err| changed(&path, err))?;
            for entry in &self.entries[at..=run_end] {
                let from = (entry.offset - run_start) as usize;
                let bytes = &buffer[from..from + entry.len as usize];
                if hash_bytes(bytes) != entry.hash {
                    return Err(changed(&path, format!("the row at byte {} is not what was read", entry.offset)));
                }
                let text = std::str::from_utf8(bytes).map_err(|err| changed(&path, err))?;
                let value = json::parse_value(text).map_err(|err| changed(&path, err))?;
                items.push(value);
            }
            at = run_end + 1;
        }
        Ok(items)
    }

    fn window_input(&self, index: usize, items: Vec<Value>, redactor: &Redactor) -> Result<Value, NewSecret> {
        let window = &self.windows[index];
        let state = self.state.as_ref().map(|state| state.window(&self.opened_here(window), window.is_last));
        // The base without the whole agentState when the window takes its own.
        let mut base = Map::new();
        base.insert("messages".to_owned(), Value::Null);
        for (key, value) in &self.rest {
            let value = if key == "agentState" && state.is_some() { Value::Null } else { value.clone() };
            base.insert(key.clone(), value);
        }
        let mut input = window::assemble(&base, Vec::new(), state, window.first);
        redactor.scrub_value_known(&mut input)?;
        if let Some(object) = input.as_object_mut() {
            object.insert("messages".to_owned(), Value::Array(items));
        }
        Ok(input)
    }

    fn rest(&self) -> Value {
        Value::Object(self.whole_rest())
    }

    fn late_window_input(&self, index: usize, items: Vec<Value>, rest: &Value, redactor: &Redactor) -> Value {
        let window = &self.windows[index];
        let scrubbed_id = |id: &str| redactor.scrub_text_known(id).map_or_else(|_| id.to_owned(), |(text, _)| text);
        let ids: Vec<&str> = {
            let mut ids: Vec<(&str, u32)> = self.interner.iter().collect();
            ids.sort_by_key(|(_, number)| *number);
            ids.into_iter().map(|(id, _)| id).collect()
        };
        let opened_anywhere: HashSet<String> =
            ids.iter().enumerate().filter(|(n, _)| self.opened[*n]).map(|(_, id)| scrubbed_id(id)).collect();
        let opened_here: HashSet<String> =
            self.opened_here(window).iter().map(|&n| scrubbed_id(ids[n as usize])).collect();
        let rest = rest.as_object().cloned().unwrap_or_default();
        let state = rest.get("agentState").filter(|s| s.is_object()).map(|state| {
            window::filter_agent_state(state, |id| {
                opened_here.contains(id) || (window.is_last && !opened_anywhere.contains(id))
            })
        });
        window::assemble(&self.base(&rest), items, state, window.first)
    }

    fn into_whole(mut self: Box<Self>) -> Result<CapturedCase, ImportFailure> {
        let count = self.entries.len();
        let messages = if count == 0 { Vec::new() } else { self.read_items(0, count - 1)? };
        let mut input = self.base(&self.whole_rest());
        input.insert("messages".to_owned(), Value::Array(messages));
        Ok(CapturedCase { input: Value::Object(input), label: self.label.clone(), provenance: self.provenance.clone() })
    }
}

/// Reads one file into the collector: an NDJSON stream line by line; any
/// other file as one JSON document (see [`read_whole`]).
fn read_file(index: usize, path: &Path, collector: &mut Collector<'_>) -> Result<(), ImportFailure> {
    let shape_error = |message: String| ImportFailure::Shape { path: path.to_path_buf(), message };
    let read_error = |err: std::io::Error| ImportFailure::Read { path: path.to_path_buf(), message: err.to_string() };
    let rows_before = collector.rows_read;
    let mut lines = Lines::open(path).map_err(read_error)?;
    // A stream: its first line is a whole JSON value and another follows
    // (as one document, such a file would have trailing characters).
    let first = lines.next_line().map_err(read_error)?;
    let second = match &first {
        Some(line) if json::parse_value(&line.text).is_ok() => lines.next_line().map_err(read_error)?,
        _ => None,
    };
    match (first, second) {
        (Some(first), Some(second)) => {
            let mut stream = LineStream { pending: None, file: index };
            stream.take(first, collector).map_err(shape_error)?;
            stream.take(second, collector).map_err(shape_error)?;
            while let Some(line) = lines.next_line().map_err(read_error)? {
                stream.take(line, collector).map_err(shape_error)?;
            }
            stream.finish(path, collector);
        }
        _ => read_whole(index, path, collector)?,
    }
    if collector.rows_read > rows_before {
        collector.units += 1;
    }
    Ok(())
}

/// A file that is not a stream, read whole: one JSON document, or else
/// lines (a stream whose first line is broken).
fn read_whole(index: usize, path: &Path, collector: &mut Collector<'_>) -> Result<(), ImportFailure> {
    let shape_error = |message: String| ImportFailure::Shape { path: path.to_path_buf(), message };
    let text = std::fs::read_to_string(path)
        .map_err(|err| ImportFailure::Read { path: path.to_path_buf(), message: err.to_string() })?;
    match json::parse_value(&text) {
        Ok(value) => {
            let span = 0..text.len();
            take_value(index, value, &text, span, collector).map_err(shape_error)
        }
        Err(whole) => {
            let parsed = parse_json_lines(&text);
            if parsed.len() <= 1 {
                return Err(shape_error(format!("{}:{}: not JSON: {}", whole.line, whole.column, whole.message)));
            }
            let mut stream = LineStream { pending: None, file: index };
            let mut lines = Lines::over(text.as_bytes());
            while let Some(line) = lines.next_line().map_err(|err| shape_error(err.to_string()))? {
                stream.take(line, collector).map_err(shape_error)?;
            }
            stream.finish(path, collector);
            Ok(())
        }
    }
}

/// One non-blank line of a file, as `parse_json_lines` splits it.
struct Line {
    number: usize,
    offset: u64,
    text: String,
}

/// The non-blank lines of a file, read as `parse_json_lines` reads a text:
/// split at `\n`, a trailing `\r` ignored, a leading byte order mark
/// dropped, blank lines skipped.
struct Lines<R> {
    reader: R,
    number: usize,
    offset: u64,
    buffer: Vec<u8>,
}

impl Lines<BufReader<File>> {
    fn open(path: &Path) -> std::io::Result<Self> {
        Ok(Lines {
            reader: BufReader::with_capacity(1 << 20, File::open(path)?),
            number: 0,
            offset: 0,
            buffer: Vec::new(),
        })
    }
}

impl<'a> Lines<&'a [u8]> {
    fn over(bytes: &'a [u8]) -> Self {
        Lines { reader: bytes, number: 0, offset: 0, buffer: Vec::new() }
    }
}

impl<R: BufRead> Lines<R> {
    fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            self.buffer.clear();
            let read = self.reader.read_until(b'\n', &mut self.buffer)?;
            if read == 0 {
                return Ok(None);
            }
            let start = self.offset;
            self.offset += read as u64;
            self.number += 1;
            let mut bytes: &[u8] = &self.buffer;
            let mut at = start;
            if self.number == 1 && bytes.starts_with("\u{feff}".as_bytes()) {
                bytes = &bytes[3..];
                at += 3;
            }
            let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let text = std::str::from_utf8(bytes)
                .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 ({err})")))?;
            if text.trim().is_empty() {
                continue;
            }
            return Ok(Some(Line { number: self.number, offset: at, text: text.to_owned() }));
        }
    }
}

/// The lines of a stream, taken as they come. A line that is not JSON waits:
/// if it is the last, it was cut mid-write and is dropped with a notice;
/// otherwise it is an error.
struct LineStream {
    pending: Option<(usize, JsonError)>,
    file: usize,
}

impl LineStream {
    fn take(&mut self, line: Line, collector: &mut Collector<'_>) -> Result<(), String> {
        if let Some((number, err)) = self.pending.take() {
            return Err(format!("line {number}: not JSON: {} (column {})", err.message, err.column));
        }
        match json::parse_value(&line.text) {
            Ok(value) => {
                let span = 0..line.text.len();
                stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || {
                    take_value_at(self.file, value, &line.text, span, line.offset, collector)
                })
                .map_err(|message| format!("line {}: {message}", line.number))
            }
            Err(err) => {
                self.pending = Some((line.number, JsonError { line: line.number, ..err }));
                Ok(())
            }
        }
    }

    fn finish(self, path: &Path, collector: &mut Collector<'_>) {
        if let Some((number, err)) = self.pending {
            collector.notices.push(format!(
                "{}: line {number} was cut mid-write ({}); it is dropped",
                file_name(path),
                err.message
            ));
        }
    }
}

fn take_value(
    index: usize,
    value: Value,
    text: &str,
    span: Range<usize>,
    collector: &mut Collector<'_>,
) -> Result<(), String> {
    take_value_at(index, value, text, span, 0, collector)
}

/// Files (and NDJSON lines) hold pages, messages, arrays of either, or the
/// session. `text[span]` is the value's text, at `base` bytes into the file.
fn take_value_at(
    file: usize,
    value: Value,
    text: &str,
    span: Range<usize>,
    base: u64,
    collector: &mut Collector<'_>,
) -> Result<(), String> {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Array(items) => {
            let spans = spans::array_items(text, span.clone());
            for (position, (item, item_span)) in items.into_iter().zip(spans).enumerate() {
                take_value_at(file, item, text, item_span, base, collector)
                    .map_err(|message| format!("item {position}: {message}"))?;
            }
            Ok(())
        }
        Value::Object(object) => {
            if let Some(Value::Array(messages)) = object.get("messages") {
                let messages_span = spans::member(text, span.clone(), "messages").unwrap_or(0..0);
                take_page(file, messages, &object, text, messages_span, base, collector)
            } else if let Some(Value::Object(session)) = object.get("session") {
                collector.sessions += 1;
                collector.session = Some((file, Value::Object(session.clone())));
                Ok(())
            } else if object.contains_key("content") {
                let trimmed = spans::trim(text, span);
                let offset = base + trimmed.start as u64;
                collector.take_row(file, Value::Object(object), &text[trimmed], offset)
            } else if object.contains_key("agentState") || object.contains_key("metadata") {
                collector.sessions += 1;
                collector.session = Some((file, Value::Object(object)));
                Ok(())
            } else {
                Err("neither a messages page, a DecryptedMessage nor a session (no `messages`, `content` or \
                     `agentState` member)"
                    .to_owned())
            }
        }
        other => Err(format!("expected an object or an array, found {}", type_name(&other))),
    })
}

fn take_page(
    file: usize,
    messages: &[Value],
    page_object: &Map<String, Value>,
    text: &str,
    messages_span: Range<usize>,
    base: u64,
    collector: &mut Collector<'_>,
) -> Result<(), String> {
    let page = page_object.get("page");
    let spans = spans::array_items(text, messages_span);
    let mut ids = Vec::new();
    for (position, (message, span)) in messages.iter().zip(spans).enumerate() {
        if !message.is_object() {
            return Err(format!("messages[{position}] is {}, not a DecryptedMessage object", type_name(message)));
        }
        if let Some(id) = message.get("id").and_then(Value::as_str) {
            ids.push(Box::<str>::from(id));
        }
        let trimmed = spans::trim(text, span);
        let offset = base + trimmed.start as u64;
        collector.take_row(file, message.clone(), &text[trimmed], offset)?;
    }
    // `hasMore` speaks of older rows only for pages read backwards.
    let direction = page.and_then(|p| p.get("direction")).and_then(Value::as_str);
    let has_more = page.and_then(|p| p.get("hasMore")).and_then(Value::as_bool) == Some(true);
    let older_exist = has_more && matches!(direction, Some("latest" | "before") | None);
    if older_exist {
        collector.older_pages.extend(ids);
    }
    Ok(())
}

/// Spans of the values inside a JSON text that is known to be valid.
mod spans {
    use std::ops::Range;

    fn skip_space(bytes: &[u8], mut at: usize, end: usize) -> usize {
        while at < end && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        at
    }

    /// The end of the value starting at `at`.
    fn value_end(bytes: &[u8], mut at: usize, end: usize) -> usize {
        match bytes.get(at) {
            Some(b'"') => string_end(bytes, at, end),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while at < end {
                    match bytes[at] {
                        b'"' => {
                            at = string_end(bytes, at, end);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return at + 1;
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
                end
            }
            _ => {
                while at < end && !matches!(bytes[at], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                    at += 1;
                }
                at
            }
        }
    }

    fn string_end(bytes: &[u8], mut at: usize, end: usize) -> usize {
        at += 1;
        while at < end {
            match bytes[at] {
                b'\\' => at += 2,
                b'"' => return at + 1,
                _ => at += 1,
            }
        }
        end
    }

    /// `span` without the white space around the value.
    pub fn trim(text: &str, span: Range<usize>) -> Range<usize> {
        let bytes = text.as_bytes();
        let start = skip_space(bytes, span.start, span.end);
        start..value_end(bytes, start, span.end)
    }

    /// The spans of the elements of the array at `span`.
    pub fn array_items(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
        let bytes = text.as_bytes();
        let span = trim(text, span);
        let mut items = Vec::new();
        let mut at = span.start + 1;
        loop {
            at = skip_space(bytes, at, span.end);
            if at >= span.end || bytes[at] == b']' {
                return items;
            }
            let end = value_end(bytes, at, span.end);
            items.push(at..end);
            at = skip_space(bytes, end, span.end);
            if bytes.get(at) == Some(&b',') {
                at += 1;
            }
        }
    }

    /// The span of the last member named `name` of the object at `span`
    /// (the one a parser keeps).
    pub fn member(text: &str, span: Range<usize>, name: &str) -> Option<Range<usize>> {
        let bytes = text.as_bytes();
        let span = trim(text, span);
        let mut found = None;
        let mut at = span.start + 1;
        loop {
            at = skip_space(bytes, at, span.end);
            if at >= span.end || bytes[at] == b'}' {
                return found;
            }
            let key_end = string_end(bytes, at, span.end);
            let key = &text[at..key_end];
            at = skip_space(bytes, key_end, span.end) + 1;
            at = skip_space(bytes, at, span.end);
            let end = value_end(bytes, at, span.end);
            let matches = if key.contains('\\') {
                crate::json::parse_value(key).ok().and_then(|k| k.as_str().map(|k| k == name)).unwrap_or(false)
            } else {
                key.len() == name.len() + 2 && &key[1..key.len() - 1] == name
            };
            if matches {
                found = Some(at..end);
            }
            at = skip_space(bytes, end, span.end);
            if bytes.get(at) == Some(&b',') {
                at += 1;
            }
        }
    }
}

/// Says where integer `seq` values skip numbers (a page may be missing; the
/// server also hides some rows, so this is a notice, not an error).
fn note_seq_gaps(entries: &[Entry], notices: &mut Vec<String>) {
    let seqs: Vec<i64> = entries.iter().filter_map(Entry::seq_int).collect();
    let gaps: Vec<String> = seqs
        .windows(2)
        .filter(|pair| pair[1] > pair[0] + 1)
        .map(|pair| {
            if pair[1] == pair[0] + 2 {
                format!("{}", pair[0] + 1)
            } else {
                format!("{}–{}", pair[0] + 1, pair[1] - 1)
            }
        })
        .collect();
    if !gaps.is_empty() {
        notices.push(format!("seq numbers missing: {} (a page may be missing)", gaps.join(", ")));
    }
}

/// The UTC day of the newest `createdAt`: when the capture's content ends.
fn capture_day(entries: &[Entry]) -> Option<String> {
    let newest = entries.iter().filter_map(Entry::created_at).fold(None, |acc, t| {
        Some(match acc {
            Some(best) if best >= t => best,
            _ => t,
        })
    })?;
    if !newest.is_finite() {
        return None;
    }
    let when = chrono::DateTime::from_timestamp_millis(newest as i64)?;
    Some(when.format("%Y-%m-%d").to_string())
}

/// A chat input built from loose messages (used by tests and by `reduce`).
pub fn chat_input(messages: Vec<Value>, agent_state: Value, has_more: bool) -> Value {
    let mut input = Map::new();
    input.insert("messages".to_owned(), Value::Array(messages));
    input.insert("agentState".to_owned(), agent_state);
    input.insert("options".to_owned(), json!({"hasMoreMessages": has_more}));
    Value::Object(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::capture::{Imported, SourceFile};

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { path: PathBuf::from(name), text: text.to_owned() }
    }

    /// Writes the files into a folder, opens them and reads the case whole.
    /// Error messages name the files without the folder.
    fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
        let folder = tempfile::tempdir().map_err(|err| ImportFailure::Empty(Box::leak(err.to_string().into())))?;
        let mut paths = Vec::new();
        for file in files {
            let path = folder.path().join(&file.path);
            std::fs::write(&path, &file.text).map_err(|_| ImportFailure::Empty("write"))?;
            paths.push(path);
        }
        let strip = |failure: ImportFailure| match failure {
            ImportFailure::Shape { path, message } => {
                ImportFailure::Shape { path: path.strip_prefix(folder.path()).unwrap_or(&path).to_path_buf(), message }
            }
            other => other,
        };
        let names_in = |_: &Value| Vec::new();
        let Opened { mut cases, notices, .. } = open(&paths, &names_in).map_err(strip)?;
        let mut imported = Imported { cases: Vec::new(), notices };
        while let Some(case) = cases.next_case() {
            match case.map_err(strip)? {
                Case::Whole(case) => imported.cases.push(case),
                Case::Indexed(case) => imported.cases.push(case.into_whole().map_err(strip)?),
            }
        }
        Ok(imported)
    }

    fn message(id: &str, seq: u64) -> Value {
        json!({"id": id, "seq": seq, "localId": null, "createdAt": 1_755_000_000_000u64 + seq * 1000,
               "content": {"role": "user", "content": {"type": "text", "text": format!("m{seq}")}}})
    }

    fn ids(imported: &Imported) -> Vec<String> {
        imported.cases[0].input["messages"]
            .as_array()
            .map(|m| m.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    }

    #[test]
    fn overlapping_out_of_order_pages_become_one_ordered_session() -> Result<(), ImportFailure> {
        let latest = json!({"messages": [message("c", 3), message("d", 4), message("e", 5)],
                            "page": {"direction": "latest", "hasMore": true}});
        let before = json!({"messages": [message("a", 1), message("b", 2), message("c", 3)],
                            "page": {"direction": "before", "hasMore": false}});
        let imported = import(&[file("p2.json", &latest.to_string()), file("p1.json", &before.to_string())])?;
        assert_eq!(ids(&imported), ["a", "b", "c", "d", "e"]);
        let case = &imported.cases[0];
        assert_eq!(case.input["options"]["hasMoreMessages"], json!(false));
        assert_eq!(case.provenance.detail.as_deref(), Some("seq 1–5; 2 pages or streams; 1 duplicate rows dropped"));
        assert_eq!(case.provenance.captured_on.as_deref(), Some("2025-08-12"));
        assert_eq!(case.label, "p2");
        Ok(())
    }

    #[test]
    fn ndjson_streams_sessions_and_conflicting_duplicates() -> Result<(), ImportFailure> {
        let mut queued = message("q", 2);
        queued["invokedAt"] = Value::Null;
        let mut consumed = message("q", 2);
        consumed["invokedAt"] = json!(1_755_000_009_000u64);
        let stream = format!("{}\n{}\n\n{}\n", message("a", 1), consumed, message("z", 4));
        let session = json!({"session": {"id": "sess-1", "agentState": {"requests": {}}}});
        let page = json!({"messages": [queued], "page": {"direction": "latest", "hasMore": true}});
        let imported = import(&[
            file("stream.ndjson", &stream),
            file("page.json", &page.to_string()),
            file("session.json", &session.to_string()),
        ])?;
        assert_eq!(ids(&imported), ["a", "q", "z"]);
        let case = &imported.cases[0];
        assert_eq!(case.input["messages"][1]["invokedAt"], json!(1_755_000_009_000u64));
        assert_eq!(case.input["agentState"], json!({"requests": {}}));
        assert_eq!(case.label, "sess-1");
        assert!(imported.notices.iter().any(|n| n.contains("message q differs") && n.contains("invokedAt")));
        assert!(imported.notices.iter().any(|n| n == "seq numbers missing: 3 (a page may be missing)"));
        Ok(())
    }

    #[test]
    fn pages_messages_and_sessions_sniff_as_hapi() {
        assert_eq!(sniff("{\n  \"messages\": [],\n  \"page\": {}\n}\n"), Sniff::Matches);
        assert_eq!(sniff("{\"id\":\"a\",\"seq\":1,\"content\":{}}\n"), Sniff::Matches);
        assert_eq!(sniff("[{\"session\":{}}]"), Sniff::Matches);
        let claude = sniff("{\"type\":\"system\",\"subtype\":\"local_command_output\",\"content\":\"x\"}\n");
        assert!(matches!(claude, Sniff::Mismatch(_)), "{claude:?}");
    }

    #[test]
    fn a_stream_whose_last_line_was_cut_imports_what_is_complete() -> Result<(), ImportFailure> {
        let stream = format!("{}\n{}\n{{\"id\":\"c\",\"seq\":3,\"con", message("a", 1), message("b", 2));
        let imported = import(&[file("stream.ndjson", &stream)])?;
        assert_eq!(ids(&imported), ["a", "b"]);
        assert!(imported.notices[0].starts_with("stream.ndjson: line 3 was cut mid-write ("), "{:?}", imported.notices);
        Ok(())
    }

    #[test]
    fn broken_files_name_the_line() {
        let result =
            import(&[file("bad.ndjson", "{\"id\":\"a\",\"content\":1}\n{oops\n{\"id\":\"b\",\"content\":1}\n")]);
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with("bad.ndjson: line 2: not JSON"), "{message}");
        let result = import(&[file("odd.json", "{\"hello\": 1}")]);
        assert!(result.err().map(|e| e.to_string()).unwrap_or_default().contains("neither a messages page"));
        assert!(matches!(import(&[file("empty.json", "[]")]), Err(ImportFailure::Empty("messages"))));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}{}", "[".repeat(9_000), "]".repeat(9_000));
        assert!(matches!(import(&[file("deep.json", &deep)]), Err(ImportFailure::Empty("messages"))));
        let too_deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
        assert!(matches!(import(&[file("deeper.json", &too_deep)]), Err(ImportFailure::Shape { .. })));
    }
}
