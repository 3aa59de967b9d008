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
//! [`sniff`] knows these files by the same shapes.

use crate::compare::values_equal;
use crate::json::{self, JsonLine, parse_json_lines};
use crate::suite::capture::lines::type_name;
use crate::suite::capture::sniff::{Sniff, by_first_telling_line};
use crate::suite::capture::{CapturedCase, ImportFailure, Imported, Provenance, SourceFile};
use serde_json::{Map, Value, json};
use std::cmp::Ordering;
use std::collections::HashMap;

/// One message row and where it was read.
#[derive(Clone, Debug)]
struct Row {
    message: Value,
    file: usize,
}

/// What the page envelope says about older history.
#[derive(Clone, Debug)]
struct PageInfo {
    ids: Vec<String>,
    older_exist: bool,
}

#[derive(Debug, Default)]
struct Collected {
    rows: Vec<Row>,
    pages: Vec<PageInfo>,
    sessions: Vec<(usize, Value)>,
    /// Files (pages or streams) that held messages.
    units: usize,
    /// What the user is told about the files (a stream's last line cut
    /// mid-write).
    notices: Vec<String>,
}

/// Reads the files into one chat case. See the module docs.
pub fn import(files: &[SourceFile]) -> Result<Imported, ImportFailure> {
    let mut collected = Collected::default();
    for (index, file) in files.iter().enumerate() {
        read_file(index, file, &mut collected)?;
    }
    if collected.rows.is_empty() {
        return Err(ImportFailure::Empty("messages"));
    }
    let mut notices = std::mem::take(&mut collected.notices);
    let total_rows = collected.rows.len();
    let rows = deduplicate(collected.rows, files, &mut notices);
    let dropped = total_rows - rows.len();
    let messages: Vec<Value> = rows.into_iter().map(|row| row.message).collect();

    let (agent_state, session_id) = session_state(&collected.sessions, files, &mut notices);
    let has_more = older_history_exists(&collected.pages, &messages);
    note_seq_gaps(&messages, &mut notices);

    let seqs: Vec<f64> = messages.iter().filter_map(|m| m.get("seq").and_then(Value::as_f64)).collect();
    let mut detail = Vec::new();
    if let (Some(first), Some(last)) = (seqs.first(), seqs.last()) {
        detail.push(format!("seq {}–{}", json::format_js_number(*first), json::format_js_number(*last)));
    }
    if collected.units > 1 {
        detail.push(format!("{} pages or streams", collected.units));
    }
    if dropped > 0 {
        detail.push(format!("{dropped} duplicate rows dropped"));
    }
    let label = session_id.unwrap_or_else(|| files.first().map_or_else(|| "capture".to_owned(), stem));
    let provenance = Provenance {
        sources: files.iter().map(SourceFile::file_name).collect(),
        captured_on: capture_day(&messages),
        items: messages.len(),
        noun: "messages",
        detail: (!detail.is_empty()).then(|| detail.join("; ")),
    };
    let input = json!({
        "messages": messages,
        "agentState": agent_state,
        "options": {"hasMoreMessages": has_more},
    });
    Ok(Imported { cases: vec![CapturedCase { input, label, provenance }], notices })
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

fn stem(file: &SourceFile) -> String {
    let name = file.file_name();
    match name.split_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}

fn read_file(index: usize, file: &SourceFile, collected: &mut Collected) -> Result<(), ImportFailure> {
    let shape_error = |message: String| ImportFailure::Shape { path: file.path.clone(), message };
    let rows_before = collected.rows.len();
    match json::parse_value(&file.text) {
        Ok(value) => take_value(index, value, collected).map_err(shape_error)?,
        Err(whole) => {
            let mut lines = parse_json_lines(&file.text);
            if lines.len() <= 1 {
                return Err(shape_error(format!("{}:{}: not JSON: {}", whole.line, whole.column, whole.message)));
            }
            // A stream recorded until it was killed ends in a line cut mid-write:
            // what is complete is imported, and the cut line named.
            if let Some(JsonLine { line, value: Err(err) }) = lines.last() {
                collected.notices.push(format!(
                    "{}: line {line} was cut mid-write ({}); it is dropped",
                    file.file_name(),
                    err.message
                ));
                lines.pop();
            }
            for line in lines {
                let value = line.value.map_err(|err| {
                    shape_error(format!("line {}: not JSON: {} (column {})", line.line, err.message, err.column))
                })?;
                take_value(index, value, collected)
                    .map_err(|message| shape_error(format!("line {}: {message}", line.line)))?;
            }
        }
    }
    if collected.rows.len() > rows_before {
        collected.units += 1;
    }
    Ok(())
}

/// Files (and NDJSON lines) hold pages, messages, arrays of either, or the
/// session.
fn take_value(file: usize, value: Value, collected: &mut Collected) -> Result<(), String> {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || take_value_here(file, value, collected))
}

fn take_value_here(file: usize, value: Value, collected: &mut Collected) -> Result<(), String> {
    match value {
        Value::Array(items) => {
            for (position, item) in items.into_iter().enumerate() {
                take_value(file, item, collected).map_err(|message| format!("item {position}: {message}"))?;
            }
            Ok(())
        }
        Value::Object(object) => {
            if let Some(Value::Array(messages)) = object.get("messages") {
                take_page(file, messages, object.get("page"), collected)
            } else if let Some(Value::Object(session)) = object.get("session") {
                collected.sessions.push((file, Value::Object(session.clone())));
                Ok(())
            } else if object.contains_key("content") {
                collected.rows.push(Row { message: Value::Object(object), file });
                Ok(())
            } else if object.contains_key("agentState") || object.contains_key("metadata") {
                collected.sessions.push((file, Value::Object(object)));
                Ok(())
            } else {
                Err("neither a messages page, a DecryptedMessage nor a session (no `messages`, `content` or \
                     `agentState` member)"
                    .to_owned())
            }
        }
        other => Err(format!("expected an object or an array, found {}", type_name(&other))),
    }
}

fn take_page(file: usize, messages: &[Value], page: Option<&Value>, collected: &mut Collected) -> Result<(), String> {
    let mut ids = Vec::new();
    for (position, message) in messages.iter().enumerate() {
        if !message.is_object() {
            return Err(format!("messages[{position}] is {}, not a DecryptedMessage object", type_name(message)));
        }
        if let Some(id) = message.get("id").and_then(Value::as_str) {
            ids.push(id.to_owned());
        }
        collected.rows.push(Row { message: message.clone(), file });
    }
    // `hasMore` speaks of older rows only for pages read backwards.
    let direction = page.and_then(|p| p.get("direction")).and_then(Value::as_str);
    let has_more = page.and_then(|p| p.get("hasMore")).and_then(Value::as_bool) == Some(true);
    let older_exist = has_more && matches!(direction, Some("latest" | "before") | None);
    collected.pages.push(PageInfo { ids, older_exist });
    Ok(())
}

/// Keeps one row per id, ordered by `seq` (rows without a numeric `seq`
/// last, by `createdAt`), ties by id.
fn deduplicate(rows: Vec<Row>, files: &[SourceFile], notices: &mut Vec<String>) -> Vec<Row> {
    let mut kept: Vec<Row> = Vec::with_capacity(rows.len());
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut without_id = 0;
    for row in rows {
        let Some(id) = row.message.get("id").and_then(Value::as_str).map(str::to_owned) else {
            without_id += 1;
            kept.push(row);
            continue;
        };
        match by_id.get(&id) {
            None => {
                by_id.insert(id, kept.len());
                kept.push(row);
            }
            Some(&at) if values_equal(&kept[at].message, &row.message) => {}
            Some(&at) => {
                let keep_new = prefer(&row.message, &kept[at].message);
                let (winner, loser) = if keep_new { (&row, &kept[at]) } else { (&kept[at], &row) };
                notices.push(format!(
                    "message {id} differs between {} and {}; kept the one from {} ({})",
                    file_label(files, loser.file),
                    file_label(files, winner.file),
                    file_label(files, winner.file),
                    if invoked(&winner.message) && !invoked(&loser.message) {
                        "it carries invokedAt"
                    } else {
                        "read later"
                    }
                ));
                if keep_new {
                    kept[at] = row;
                }
            }
        }
    }
    if without_id > 0 {
        notices.push(format!("{without_id} messages have no string `id` and could not be de-duplicated"));
    }
    kept.sort_by(|a, b| order(&a.message, &b.message));
    kept
}

/// Whether a newer copy of a row should replace an older one: a row the
/// agent has consumed (`invokedAt` stamped) is the later state of a queued
/// one; otherwise the copy read later wins.
fn prefer(newer: &Value, older: &Value) -> bool {
    invoked(newer) || !invoked(older)
}

fn invoked(message: &Value) -> bool {
    message.get("invokedAt").is_some_and(|v| !v.is_null())
}

fn file_label(files: &[SourceFile], index: usize) -> String {
    files.get(index).map_or_else(|| format!("file {index}"), SourceFile::file_name)
}

fn order(a: &Value, b: &Value) -> Ordering {
    let number = |m: &Value, key: &str| m.get(key).and_then(Value::as_f64);
    let by = |key: &str| match (number(a, key), number(b, key)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    let id = |m: &Value| m.get("id").and_then(Value::as_str).unwrap_or("").to_owned();
    by("seq").then_with(|| by("createdAt")).then_with(|| id(a).cmp(&id(b)))
}

/// The session's agentState and id (the last session file given wins).
fn session_state(
    sessions: &[(usize, Value)],
    files: &[SourceFile],
    notices: &mut Vec<String>,
) -> (Value, Option<String>) {
    let Some((file, session)) = sessions.last() else { return (Value::Null, None) };
    if sessions.len() > 1 {
        notices.push(format!(
            "{} session objects given; agentState comes from the last, {}",
            sessions.len(),
            file_label(files, *file)
        ));
    }
    let state = session.get("agentState").cloned().unwrap_or(Value::Null);
    let id = session.get("id").and_then(Value::as_str).map(str::to_owned);
    (state, id)
}

/// Older history exists when the page holding the oldest row kept says so.
fn older_history_exists(pages: &[PageInfo], messages: &[Value]) -> bool {
    let Some(oldest) = messages.first().and_then(|m| m.get("id")).and_then(Value::as_str) else { return false };
    pages.iter().any(|page| page.older_exist && page.ids.iter().any(|id| id == oldest))
}

/// Says where integer `seq` values skip numbers (a page may be missing; the
/// server also hides some rows, so this is a notice, not an error).
fn note_seq_gaps(messages: &[Value], notices: &mut Vec<String>) {
    let seqs: Vec<i64> = messages.iter().filter_map(|m| m.get("seq").and_then(Value::as_i64)).collect();
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
fn capture_day(messages: &[Value]) -> Option<String> {
    let newest = messages.iter().filter_map(|m| m.get("createdAt").and_then(Value::as_f64)).fold(None, |acc, t| {
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
    use std::path::PathBuf;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { path: PathBuf::from(name), text: text.to_owned() }
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
