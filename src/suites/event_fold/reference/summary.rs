//! Collapsed tool-call display: the one-line summary (`getToolResultSummary`)
//! and the icon category (`toolCategory`) of a tool block, with the seed's
//! JavaScript string semantics (UTF-16 lengths, `trim`, `split('\n')`).

use super::model::{ToolBlock, ToolStatus};
use crate::json::utf16_len;
use crate::suites::js::{trim, truthy};
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

/// Commands the Codex classifier names that count as file reads.
const FILE_READ_COMMANDS: [&str; 10] = ["cat", "head", "tail", "less", "find", "ls", "tree", "stat", "wc", "rg"];

static CREATED_TASK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("CREATED (td-[a-f0-9]+)").unwrap_or_else(|err| unreachable!("invalid built-in pattern: {err}"))
});

/// The tool's icon category: `terminal`, `file`, `code` or `other`.
pub fn tool_category(name: &str) -> &'static str {
    let lower = name.to_lowercase();
    if ["bash", "shell", "plan"].iter().any(|part| lower.contains(part)) {
        "terminal"
    } else if ["read", "file", "glob", "grep"].iter().any(|part| lower.contains(part))
        || FILE_READ_COMMANDS.contains(&lower.as_str())
    {
        "file"
    } else if ["code", "edit", "write"].iter().any(|part| lower.contains(part)) {
        "code"
    } else {
        "other"
    }
}

/// A tool output as text: strings as they are, content-block arrays as
/// their text parts one per line, anything else as compact JSON.
pub fn output_text(output: &Value) -> String {
    match output {
        Value::String(text) => text.clone(),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|part| part.as_str().or_else(|| part.get("text").and_then(Value::as_str)))
                .collect();
            texts.join("\n")
        }
        other => crate::json::to_compact_string(other),
    }
}

fn str_field(value: &Option<Value>) -> Option<&str> {
    value.as_ref().and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The collapsed one-line summary of a tool block.
///
/// A running tool shows its file path or pattern when it has one (the seed's
/// "in-progress: show the file path or pattern instead of Running..."),
/// else `Running...`.
pub fn tool_summary(block: &ToolBlock) -> String {
    let file_path = str_field(&block.file_path);
    let pattern = str_field(&block.pattern);
    if block.status != ToolStatus::Done {
        return file_path.or(pattern).unwrap_or("Running...").to_owned();
    }
    let Some(output) = block.output.as_ref().filter(|output| truthy(Some(output))) else {
        return "Done".to_owned();
    };
    let output = output_text(output);
    let tool = block.tool.as_ref().and_then(Value::as_str).unwrap_or("");

    if matches!(tool, "Read" | "Write" | "Edit")
        && let Some(file_path) = file_path
    {
        return file_path.to_owned();
    }
    if tool == "Glob" || tool == "Grep" {
        let lines = trim(&output).split('\n').filter(|line| !line.is_empty()).count();
        let plural = lines != 1;
        return if tool == "Glob" {
            let count = format!("{lines} file{}", if plural { "s" } else { "" });
            match pattern {
                Some(pattern) => format!("{count}  {pattern}"),
                None => format!("{count} matched"),
            }
        } else {
            let count = format!("{lines} match{}", if plural { "es" } else { "" });
            match pattern {
                Some(pattern) => format!("{count}  \"{pattern}\""),
                None => count,
            }
        };
    }
    if FILE_READ_COMMANDS.contains(&tool) {
        if let Some(file_path) = file_path {
            return file_path.to_owned();
        }
        if let Some(command) = block.command.as_ref().and_then(Value::as_str).filter(|c| !c.is_empty())
            && utf16_len(command) < 80
        {
            return command.to_owned();
        }
    }
    if tool == "Bash"
        && let Some(task) = CREATED_TASK.captures(&output).and_then(|captures| captures.get(1))
    {
        return format!("CREATED {}", task.as_str());
    }
    if utf16_len(&output) < 80 && !output.contains('\n') {
        return trim(&output).to_owned();
    }
    "Done".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_follow_the_name_tests_in_order() {
        assert_eq!(tool_category("Bash"), "terminal");
        assert_eq!(tool_category("exit_plan_mode"), "terminal");
        assert_eq!(tool_category("Read"), "file");
        assert_eq!(tool_category("rg"), "file");
        assert_eq!(tool_category("NotebookEdit"), "code");
        assert_eq!(tool_category("WebSearch"), "other");
        // "file" wins over "write" because the file test comes first.
        assert_eq!(tool_category("write_file"), "file");
    }
}
