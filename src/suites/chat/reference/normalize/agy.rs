//! Antigravity (agy) entries in the output family (chat-normalize §8):
//! planner prose with echo stripping and task-log chips, and tool actions
//! mapped to canonical tool pairs with their preambles and trailers removed.

use super::envelope::{Carry, Record, Wire};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{AgentItem, Content, NormalizedMessage, TextItem, ToolCall, ToolResult};
use crate::suites::chat::reference::verbatim::deep_clone;
use crate::suites::js::{
    ascii_digits_len, contains_ascii_ci, entries, find_ascii_ci, first_present, get, is_line_terminator, is_obj,
    is_whitespace, is_word_char, lowercase, str_of, string, trim, trim_end,
};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `agy_message` (§8.1). `None` (stringified fallback) when only an echoed
/// block was left.
pub(super) fn agy_message<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<NormalizedMessage<'a>> {
    let raw = str_of(get(data, "content")).unwrap_or_default();
    let text = match find_echo(raw) {
        Some(cut) => {
            trace.hit("output.agy.message.echo-stripped");
            trim(&raw[..cut])
        }
        None => trim(raw),
    };
    if text.is_empty() {
        trace.hit("output.agy.message.echo-only-stringified");
        return None;
    }
    let mut message = if let Some(task) = task_log(text) {
        trace.hit("output.agy.message.task-log-chip");
        let id: Cow<'a, str> = Cow::Owned(format!("{}:tasklog", wire.id));
        let mut input = Map::new();
        input.insert("task".to_owned(), string(format!("task-{task}")));
        let call = ToolCall {
            id: id.clone(),
            name: Cow::Borrowed("AgyTaskLog"),
            input: Some(Cow::Owned(Value::Object(input))),
            description: None,
            native_title: None,
            native_kind: None,
            progress: None,
            uuid: wire.id.clone(),
            parent_uuid: None,
        };
        let result = ToolResult {
            tool_use_id: id,
            content: Some(Cow::Owned(string(""))),
            is_error: false,
            uuid: wire.id.clone(),
            parent_uuid: None,
            permissions: None,
        };
        wire.message(Content::Agent(vec![AgentItem::ToolCall(call), AgentItem::ToolResult(result)]), Carry::Agent)
    } else {
        trace.hit("output.agy.message.text");
        let item = TextItem { text: Cow::Borrowed(text), uuid: wire.id.clone(), parent_uuid: None, stream_id: None };
        let mut message = wire.message(Content::Agent(vec![AgentItem::Text(item)]), Carry::Agent);
        message.model = Some(str_of(get(data, "model")));
        message
    };
    message.meta = record.meta;
    Some(message)
}

/// Byte index of the first `[Message]` + whitespace + `timestamp=`.
fn find_echo(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find("[Message]") {
        let start = from + found;
        let after = &text[start + "[Message]".len()..];
        let rest = after.trim_start_matches(is_whitespace);
        if rest.len() < after.len() && rest.starts_with("timestamp=") {
            return Some(start);
        }
        from = start + 1;
    }
    None
}

/// The digits of `^Inside the task-(\d+) log\b`.
fn task_log(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("Inside the task-")?;
    let digits = ascii_digits_len(rest);
    if digits == 0 {
        return None;
    }
    let after = rest[digits..].strip_prefix(" log")?;
    (!after.chars().next().is_some_and(is_word_char)).then(|| &rest[..digits])
}

/// `agy_tool_action` (§8.2): always a completed tool pair.
pub(super) fn agy_tool_action<'a>(
    wire: &Wire<'a>,
    record: &Record<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> NormalizedMessage<'a> {
    let action = str_of(get(data, "name")).unwrap_or("Tool");
    let id: Cow<'a, str> = str_of(get(data, "toolUseId")).map_or_else(|| wire.id.clone(), Cow::Borrowed);
    let raw = str_of(get(data, "content")).unwrap_or_default();

    let (name, input, description, content, is_error): (Cow<'a, str>, _, _, Cow<'a, str>, bool) = match action {
        "SYSTEM_MESSAGE" => {
            trace.hit("output.agy.tool.system-message");
            let task = background_task(raw);
            if task.is_error {
                trace.hit("output.agy.tool.system-message-failed");
            }
            (Cow::Borrowed("AgyAsyncTask"), None, Some(Cow::Owned(task.description)), task.body, task.is_error)
        }
        "ERROR_MESSAGE" => {
            trace.hit("output.agy.tool.error-message");
            let description = if contains_ascii_ci(raw, "invalid tool call") { "Invalid tool call" } else { "Error" };
            (Cow::Borrowed("AgyError"), None, Some(Cow::Borrowed(description)), error_text(raw), true)
        }
        _ => {
            let tool = str_of(get(data, "toolName"));
            let args = get(data, "input").filter(|input| is_obj(input));
            let description = args.map(|args| str_of(get(args, "toolSummary")).map(Cow::Borrowed));
            let (name, input) = match tool.and_then(|tool| mapped_tool(tool, args)) {
                Some((name, input)) => {
                    trace.hit("output.agy.tool.mapped");
                    (Cow::Borrowed(name), input)
                }
                None => {
                    trace.hit("output.agy.tool.unmapped-humanized");
                    (Cow::Owned(humanize(tool.unwrap_or(action))), args.and_then(generic_input))
                }
            };
            let content = strip_result(raw, &name, action);
            (name, input, description.flatten(), content, false)
        }
    };
    let native_kind = (name == "Read" || action == "VIEW_FILE").then_some("agy-numbered-read");
    let call = ToolCall {
        id: id.clone(),
        name,
        input: input.map(Cow::Owned),
        description,
        native_title: None,
        native_kind: Some(native_kind),
        progress: None,
        uuid: wire.id.clone(),
        parent_uuid: None,
    };
    let result = ToolResult {
        tool_use_id: id,
        content: Some(match content {
            Cow::Borrowed(text) => Cow::Owned(string(text)),
            Cow::Owned(text) => Cow::Owned(Value::String(text)),
        }),
        is_error,
        uuid: wire.id.clone(),
        parent_uuid: None,
        permissions: None,
    };
    let mut message =
        wire.message(Content::Agent(vec![AgentItem::ToolCall(call), AgentItem::ToolResult(result)]), Carry::Agent);
    message.meta = record.meta;
    message
}

struct BackgroundTask<'a> {
    body: Cow<'a, str>,
    description: String,
    is_error: bool,
}

/// §8.2 (a): the background-task report of a `SYSTEM_MESSAGE`.
fn background_task(raw: &str) -> BackgroundTask<'_> {
    const TAG: &str = "</SYSTEM_MESSAGE>";
    let tag = raw.find(TAG);
    let body = match raw.find("content=") {
        Some(at) => {
            let start = at + "content=".len();
            match tag {
                Some(end) if end < start => "",
                Some(end) => &raw[start..end],
                None => &raw[start..],
            }
        }
        None => tag.map_or(raw, |end| &raw[..end]),
    };
    let body = strip_line_indent(body);
    let body = match body {
        Cow::Borrowed(text) => Cow::Borrowed(trim(text)),
        Cow::Owned(text) => Cow::Owned(trim(&text).to_owned()),
    };
    let label = find_task_label(raw).map_or_else(|| "Background task".to_owned(), |digits| format!("task-{digits}"));
    let (outcome, is_error) = match failed_exit_code(&body) {
        Some(code) => (Some(format!("failed (exit {code})")), true),
        None if contains_ascii_ci(&body, "completed successfully") => (Some("completed".to_owned()), false),
        None => (None, false),
    };
    let description = match outcome {
        Some(outcome) => format!("{label} \u{b7} {outcome}"),
        None => label,
    };
    BackgroundTask { body, description, is_error }
}

/// Removes runs of spaces and tabs at the start of every line.
fn strip_line_indent(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut at_line_start = true;
    let mut changed = false;
    for c in text.chars() {
        if at_line_start && (c == ' ' || c == '\t') {
            changed = true;
            continue;
        }
        at_line_start = is_line_terminator(c);
        out.push(c);
    }
    if changed { Cow::Owned(out) } else { Cow::Borrowed(text) }
}

/// The digits of the first `task-(\d+)`.
fn find_task_label(raw: &str) -> Option<&str> {
    raw.match_indices("task-").find_map(|(at, _)| {
        let rest = &raw[at + "task-".len()..];
        let digits = ascii_digits_len(rest);
        (digits > 0).then(|| &rest[..digits])
    })
}

/// The digits of the first `failed with exit code:?\s*(\d+)` (ASCII case-insensitive).
fn failed_exit_code(body: &str) -> Option<&str> {
    const PHRASE: &str = "failed with exit code";
    let mut from = 0;
    while let Some(found) = find_ascii_ci(&body[from..], PHRASE) {
        let start = from + found;
        let mut rest = &body[start + PHRASE.len()..];
        rest = rest.strip_prefix(':').unwrap_or(rest);
        rest = rest.trim_start_matches(is_whitespace);
        let digits = ascii_digits_len(rest);
        if digits > 0 {
            return Some(&rest[..digits]);
        }
        from = start + 1;
    }
    None
}

/// §8.2 (b): the text of an `ERROR_MESSAGE`.
fn error_text(raw: &str) -> Cow<'_, str> {
    // 1. Every `Created At:` line, with its LF or CRLF.
    let mut text = String::with_capacity(raw.len());
    let mut rest = raw;
    let mut at_line_start = true;
    while !rest.is_empty() {
        if at_line_start && rest.starts_with("Created At:") {
            let line_end = rest.find(is_line_terminator).unwrap_or(rest.len());
            let mut cut = line_end;
            if rest[line_end..].starts_with("\r\n") {
                cut += 2;
            } else if rest[line_end..].starts_with('\n') {
                cut += 1;
            }
            rest = &rest[cut..];
            // The position after the removed line follows a line terminator
            // of the original text only when one was consumed or is next.
            at_line_start = cut > line_end;
            continue;
        }
        let Some(c) = rest.chars().next() else { break };
        text.push(c);
        at_line_start = is_line_terminator(c);
        rest = &rest[c.len_utf8()..];
    }
    // 2. From the first `Guidance:` (and one LF before it) to the end.
    if let Some(at) = text.find("Guidance:") {
        let cut = if text[..at].ends_with('\n') { at - 1 } else { at };
        text.truncate(cut);
    }
    // 3. The first `Retries remaining:` line (and one LF before it); the
    //    terminator that ends the line stays.
    if let Some(at) = text.find("Retries remaining:") {
        let start = if text[..at].ends_with('\n') { at - 1 } else { at };
        let end = text[at..].find(is_line_terminator).map_or(text.len(), |offset| at + offset);
        text.replace_range(start..end, "");
    }
    Cow::Owned(trim(&text).to_owned())
}

/// The canonical tools agy tool names map to, with their inputs (§8.2 (c)).
fn mapped_tool(tool: &str, args: Option<&Value>) -> Option<(&'static str, Option<Value>)> {
    let pick = |keys: &[&str]| first_present(args, keys);
    let (name, members): (&'static str, Vec<(&str, Option<&Value>)>) = match tool {
        "run_command" => ("Bash", vec![("command", pick(&["CommandLine"])), ("cwd", pick(&["Cwd"]))]),
        "view_file" => ("Read", vec![("file_path", pick(&["AbsolutePath", "RelativePath"]))]),
        "write_to_file" => ("Write", vec![("file_path", pick(&["TargetFile"])), ("content", pick(&["CodeContent"]))]),
        "replace_file_content" => (
            "Edit",
            vec![
                ("file_path", pick(&["TargetFile"])),
                ("old_string", pick(&["TargetContent"])),
                ("new_string", pick(&["ReplacementContent"])),
            ],
        ),
        "grep_search" => (
            "Grep",
            vec![("pattern", pick(&["Query", "SearchQuery"])), ("path", pick(&["SearchDirectory", "SearchPath"]))],
        ),
        "list_dir" => ("LS", vec![("path", pick(&["DirectoryPath", "AbsolutePath"]))]),
        _ => return None,
    };
    let input: Map<String, Value> = members
        .into_iter()
        .filter_map(|(key, value)| value.filter(|v| !is_empty_arg(v)).map(|v| (key.to_owned(), deep_clone(v))))
        .collect();
    Some((name, (!input.is_empty()).then_some(Value::Object(input))))
}

fn is_empty_arg(value: &Value) -> bool {
    matches!(value, Value::Null) || matches!(value, Value::String(s) if s.is_empty())
}

/// The generic argument mapping of unmapped tools.
fn generic_input(args: &Value) -> Option<Value> {
    let mut input = Map::new();
    for (key, value) in entries(args) {
        if matches!(&*key, "toolAction" | "toolSummary" | "WaitMsBeforeAsync" | "Blocking") || is_empty_arg(value) {
            continue;
        }
        let renamed = match &*key {
            "CommandLine" => "command",
            "Cwd" => "cwd",
            "AbsolutePath" | "RelativePath" | "TargetFile" | "FilePath" => "file_path",
            "Path" | "DirectoryPath" => "path",
            "Query" | "SearchQuery" => "query",
            "Pattern" => "pattern",
            "Url" | "URL" => "url",
            other => other,
        };
        // A later member with the same target name replaces the value.
        input.insert(renamed.to_owned(), deep_clone(value));
    }
    (!input.is_empty()).then_some(Value::Object(input))
}

/// HUMANIZE: `RUN_COMMAND` → `Run command`.
fn humanize(name: &str) -> String {
    let lower = lowercase(name);
    let mut pieces = lower.split('_').filter(|piece| !piece.is_empty());
    let Some(first) = pieces.next() else {
        return "Tool".to_owned();
    };
    let mut out = String::with_capacity(name.len());
    let mut chars = first.chars();
    if let Some(c) = chars.next() {
        // JavaScript upper-cases the first UTF-16 code unit: a character
        // outside the BMP is left as it is.
        if c.len_utf16() == 1 {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    out.push_str(chars.as_str());
    for piece in pieces {
        out.push(' ');
        out.push_str(piece);
    }
    out
}

/// STRIP: removes agy's result preambles and trailers (§8.2 (c)).
fn strip_result<'a>(raw: &'a str, name: &str, action: &str) -> Cow<'a, str> {
    let is_read = name == "Read" || action == "VIEW_FILE";
    let mut text = raw;
    text = strip_leading_line(text, |line| line.starts_with("Created At:"));
    text = strip_leading_line(text, |line| line.starts_with("Completed At:"));
    if is_read {
        loop {
            let next = strip_leading_line(text, |line| {
                line.starts_with("File Path:")
                    || line.starts_with("Total Lines:")
                    || line.starts_with("Total Bytes:")
                    || line
                        .strip_prefix("Showing lines")
                        .is_some_and(|after| !after.chars().next().is_some_and(is_word_char))
            });
            if next.len() == text.len() {
                break;
            }
            text = next;
        }
        text = strip_leading_line(text, |line| {
            line.starts_with("The following code has been modified to include a line number")
        });
    }
    if (name == "Write" || name == "Edit" || action == "CODE_ACTION")
        && let Some(at) = text.find("If relevant, proactively run terminal commands")
    {
        text = text[..at].trim_end_matches(is_whitespace);
    }
    text = trim(text);
    if is_read {
        let shows = text.find("The above content shows");
        let hides = text.find("The above content does NOT show");
        let first = match (shows, hides) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(at) = first {
            let cut = if text[..at].ends_with('\n') { at - 1 } else { at };
            text = trim_end(&text[..cut]);
        }
    }
    Cow::Borrowed(text)
}

/// Removes the first line when `matches` accepts it and it ends in LF, CRLF
/// or the end of the text.
fn strip_leading_line(text: &str, matches: impl Fn(&str) -> bool) -> &str {
    if !matches(text) {
        return text;
    }
    match text.find(is_line_terminator) {
        None => "",
        Some(end) if text[end..].starts_with("\r\n") => &text[end + 2..],
        Some(end) if text[end..].starts_with('\n') => &text[end + 1..],
        Some(_) => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humanize_examples() {
        assert_eq!(humanize("RUN_COMMAND"), "Run command");
        assert_eq!(humanize("list_permissions"), "List permissions");
        assert_eq!(humanize("__A__B"), "A b");
        assert_eq!(humanize("view-file"), "View-file");
        assert_eq!(humanize(""), "Tool");
        assert_eq!(humanize("READ"), "Read");
    }

    #[test]
    fn task_log_needs_a_word_boundary() {
        assert_eq!(task_log("Inside the task-07 log."), Some("07"));
        assert_eq!(task_log("Inside the task-7 log"), Some("7"));
        assert_eq!(task_log("Inside the task-7 logs"), None);
        assert_eq!(task_log("Inside the task-7 log_x"), None);
        assert_eq!(task_log("Inside the task- log"), None);
    }

    #[test]
    fn system_message_example() {
        // chat-normalize §15 example 8.
        let raw = "Preface <SYSTEM_MESSAGE>\n[Message] timestamp=T sender=s/task-31 content=Task id \"s/task-31\" finished with result:\n\n\t\tBuild completed successfully.\n\t\tOutput: ok\n</SYSTEM_MESSAGE>";
        let task = background_task(raw);
        assert_eq!(task.description, "task-31 \u{b7} completed");
        assert_eq!(
            task.body,
            "Task id \"s/task-31\" finished with result:\n\nBuild completed successfully.\nOutput: ok"
        );
        assert!(!task.is_error);
        let failed = background_task("content=Job failed with exit code: 3</SYSTEM_MESSAGE>");
        assert_eq!(failed.description, "Background task \u{b7} failed (exit 3)");
        assert!(failed.is_error);
    }

    #[test]
    fn error_message_example() {
        // chat-normalize §15 example 9.
        let raw = "Created At: X\nError invalid tool call: bad args\nError Message: missing field X\nGuidance: retry carefully.\nRetries remaining: 2.";
        assert_eq!(error_text(raw), "Error invalid tool call: bad args\nError Message: missing field X");
        assert_eq!(error_text("A\nRetries remaining: 2.\nB\nRetries remaining: 1."), "A\nB\nRetries remaining: 1.");
    }

    #[test]
    fn read_result_example() {
        // chat-normalize §15 example 7.
        let raw = "Created At: t1\r\nCompleted At: t2\r\nFile Path: /w/a.txt\r\nTotal Lines: 2\r\nShowing lines 1 to 2\r\nThe following code has been modified to include a line number before every line, in the format: <line_number>: <original_line>.\r\n1: alpha\r\n2: beta\r\nThe above content shows the entire, complete file contents of the requested file.";
        assert_eq!(strip_result(raw, "Read", "VIEW_FILE"), "1: alpha\r\n2: beta");
        assert_eq!(strip_result("Created At: t\rX", "Bash", "RUN_COMMAND"), "Created At: t\rX");
    }

    #[test]
    fn echo_strip_finds_the_message_trailer() {
        assert_eq!(find_echo("Done. [Message]\n timestamp=1"), Some(6));
        assert_eq!(find_echo("[Message]timestamp=1"), None);
    }
}
