//! Cutting a long chat case into overlapping windows (`--window N`).
//!
//! A window is a contiguous run of messages. It may only start and end where
//! no tool call is open: a `tool_use` and its `tool_result` (or a codex
//! `tool-call` and its `tool-call-result`), and a sidechain Task with every
//! sidechain message grouped under it, always land in the same window, so
//! each window decodes to the same tool cards the whole session shows.
//! Consecutive windows share about a quarter of their messages, so what
//! happens at a cut is still seen whole in one of them.
//!
//! Pending and completed permission requests in `agentState` follow the tool
//! call they belong to; requests no message mentions go to the last window,
//! where the whole session shows them too.

use crate::suite::capture::Window;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};

/// Objects nested deeper than this inside a message are not searched for
/// tool ids (real messages are a few levels deep; this bounds hostile input).
const MAX_SCAN_DEPTH: usize = 64;

/// What one message says about tool calls.
#[derive(Debug, Default)]
struct Mentions {
    /// Tool call ids it opens.
    opens: Vec<String>,
    /// Tool call ids it completes or is grouped under.
    refers: Vec<String>,
    /// Prompts of Task tools it opens (for sidechains without a parent id).
    task_prompts: Vec<(String, String)>,
    /// Its text, when it is a sidechain message with plain string content.
    sidechain_prompt: Option<String>,
}

/// Cuts `input` (a chat case input) into windows of about `size` messages.
pub fn cut(input: &Value, size: usize) -> Vec<Window> {
    let messages = input.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let size = size.max(1);
    let mentions: Vec<Mentions> = messages.iter().map(scan).collect();
    let blocks = blocks(&mentions);
    let Some(last_block) = blocks.len().checked_sub(1) else { return Vec::new() };

    let opened_anywhere: BTreeSet<&str> = mentions.iter().flat_map(|m| m.opens.iter().map(String::as_str)).collect();
    let overlap = size / 4;
    let mut windows = Vec::new();
    let mut first_block = 0;
    loop {
        let start = blocks[first_block].0;
        let last = reach(&blocks, first_block, size);
        let end = blocks[last].1;
        let is_last = last == last_block;
        windows.push(window(input, messages, &mentions, &opened_anywhere, start, end, is_last, size));
        if is_last {
            break;
        }
        // Start the next window `overlap` messages back, at a block boundary,
        // unless that window would not get past this one.
        let mut next = (first_block + 1..=last + 1).find(|&b| blocks[b].0 + overlap > end).unwrap_or(last + 1);
        if blocks[reach(&blocks, next, size)].1 <= end {
            next = last + 1;
        }
        first_block = next;
    }
    windows
}

/// The last block a window starting at block `first` can hold.
fn reach(blocks: &[(usize, usize)], first: usize, size: usize) -> usize {
    let start = blocks[first].0;
    let mut last = first;
    while last + 1 < blocks.len() && blocks[last + 1].1 - start < size {
        last += 1;
    }
    last
}

#[allow(clippy::too_many_arguments)]
fn window(
    input: &Value,
    messages: &[Value],
    mentions: &[Mentions],
    opened_anywhere: &BTreeSet<&str>,
    start: usize,
    end: usize,
    is_last: bool,
    size: usize,
) -> Window {
    let opened_here: BTreeSet<&str> =
        mentions[start..=end].iter().flat_map(|m| m.opens.iter().map(String::as_str)).collect();
    let mut object = input.as_object().cloned().unwrap_or_default();
    object.insert("messages".to_owned(), Value::Array(messages[start..=end].to_vec()));
    if let Some(state) = input.get("agentState").filter(|s| s.is_object()) {
        let keep = |id: &str| opened_here.contains(id) || (is_last && !opened_anywhere.contains(id));
        object.insert("agentState".to_owned(), filter_agent_state(state, keep));
    }
    if start > 0 {
        let mut options = object.get("options").and_then(Value::as_object).cloned().unwrap_or_default();
        options.insert("hasMoreMessages".to_owned(), Value::Bool(true));
        object.insert("options".to_owned(), Value::Object(options));
    }
    Window { input: Value::Object(object), first: start, last: end, oversized: end - start + 1 > size }
}

fn filter_agent_state(state: &Value, keep: impl Fn(&str) -> bool) -> Value {
    let mut state = state.as_object().cloned().unwrap_or_default();
    for key in ["requests", "completedRequests"] {
        if let Some(Value::Object(entries)) = state.get(key) {
            let kept: Map<String, Value> =
                entries.iter().filter(|(id, _)| keep(id)).map(|(id, v)| (id.clone(), v.clone())).collect();
            state.insert(key.to_owned(), Value::Object(kept));
        }
    }
    Value::Object(state)
}

/// Maximal runs of messages that no tool group crosses: `(first, last)`.
fn blocks(mentions: &[Mentions]) -> Vec<(usize, usize)> {
    let count = mentions.len();
    let mut groups = UnionFind::new(count);
    let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut prompts: HashMap<&str, &str> = HashMap::new();
    for (index, m) in mentions.iter().enumerate() {
        for id in m.opens.iter().chain(&m.refers) {
            holders.entry(id.as_str()).or_default().push(index);
        }
        for (prompt, id) in &m.task_prompts {
            prompts.entry(prompt.as_str()).or_insert(id.as_str());
        }
    }
    for (index, m) in mentions.iter().enumerate() {
        if let Some(id) = m.sidechain_prompt.as_deref().and_then(|p| prompts.get(p)) {
            holders.entry(id).or_default().push(index);
        }
    }
    for indices in holders.values() {
        for pair in indices.windows(2) {
            groups.union(pair[0], pair[1]);
        }
    }
    // Each group spans from its first to its last message; no cut inside.
    let mut span: HashMap<usize, (usize, usize)> = HashMap::new();
    for index in 0..count {
        let root = groups.find(index);
        let entry = span.entry(root).or_insert((index, index));
        entry.0 = entry.0.min(index);
        entry.1 = entry.1.max(index);
    }
    let mut crossing = vec![0i64; count + 1];
    for &(first, last) in span.values() {
        if first < last {
            crossing[first] += 1;
            crossing[last] -= 1;
        }
    }
    let mut result = Vec::new();
    let mut open = 0i64;
    let mut start = 0;
    for (index, change) in crossing.iter().take(count).enumerate() {
        open += change;
        // A cut after `index` is allowed when no span covers index and index + 1.
        if open == 0 {
            result.push((start, index));
            start = index + 1;
        }
    }
    result
}

/// Collects the tool ids a message opens and refers to.
fn scan(message: &Value) -> Mentions {
    let mut mentions = Mentions::default();
    visit(message, 0, &mut mentions);
    for id in std::mem::take(&mut mentions.refers) {
        if !mentions.refers.contains(&id) {
            mentions.refers.push(id);
        }
    }
    mentions
}

fn visit(value: &Value, depth: usize, mentions: &mut Mentions) {
    if depth > MAX_SCAN_DEPTH {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|item| visit(item, depth + 1, mentions)),
        Value::Object(object) => {
            let text = |key: &str| object.get(key).and_then(Value::as_str);
            match text("type") {
                Some("tool_use") => {
                    if let Some(id) = text("id") {
                        mentions.opens.push(id.to_owned());
                        let prompt = object.get("input").and_then(|i| i.get("prompt")).and_then(Value::as_str);
                        if let Some(prompt) = prompt {
                            mentions.task_prompts.push((prompt.to_owned(), id.to_owned()));
                        }
                    }
                }
                Some("tool_result") => mentions.refers.extend(text("tool_use_id").map(str::to_owned)),
                Some("tool-call") => mentions.opens.extend(text("callId").map(str::to_owned)),
                Some("tool-call-result") => mentions.refers.extend(text("callId").map(str::to_owned)),
                _ => {}
            }
            for key in ["parentToolUseId", "parent_tool_use_id"] {
                mentions.refers.extend(text(key).map(str::to_owned));
            }
            if object.get("isSidechain").and_then(Value::as_bool) == Some(true) {
                let content = object.get("message").and_then(|m| m.get("content")).and_then(Value::as_str);
                mentions.sidechain_prompt = content.map(str::to_owned);
            }
            object.values().for_each(|member| visit(member, depth + 1, mentions));
        }
        _ => {}
    }
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(count: usize) -> Self {
        UnionFind { parent: (0..count).collect() }
    }

    fn find(&mut self, mut index: usize) -> usize {
        while self.parent[index] != index {
            self.parent[index] = self.parent[self.parent[index]];
            index = self.parent[index];
        }
        index
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(id: usize) -> Value {
        json!({"id": format!("m{id}"), "content": {"role": "user", "content": "hi"}})
    }

    fn tool_use(id: usize, tool: &str) -> Value {
        json!({"id": format!("m{id}"), "content": {"role": "agent", "content": {"type": "output", "data": {
            "type": "assistant", "message": {"content": [{"type": "tool_use", "id": tool, "name": "Bash", "input": {}}]}}}}})
    }

    fn tool_result(id: usize, tool: &str) -> Value {
        json!({"id": format!("m{id}"), "content": {"role": "agent", "content": {"type": "output", "data": {
            "type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": tool, "content": "ok"}]}}}}})
    }

    fn ranges(windows: &[Window]) -> Vec<(usize, usize)> {
        windows.iter().map(|w| (w.first, w.last)).collect()
    }

    #[test]
    fn windows_overlap_and_never_split_a_tool_pair() {
        // Text messages, except a tool pair spanning 4..=6: windows of 4
        // overlap by one message, except where that message is inside the pair.
        let mut messages: Vec<Value> = (0..12).map(text).collect();
        messages[4] = tool_use(4, "t1");
        messages[6] = tool_result(6, "t1");
        let input = json!({"messages": messages.clone(), "agentState": null});
        let windows = cut(&input, 4);
        assert_eq!(ranges(&windows), [(0, 3), (3, 6), (7, 10), (10, 11)]);
        assert!(windows.iter().all(|w| !w.oversized));
        assert_eq!(windows[1].input["options"]["hasMoreMessages"], json!(true));
        assert_eq!(windows[0].input.get("options"), None);

        // A pair longer than the window makes one oversized window.
        messages[6] = text(6);
        messages[9] = tool_result(9, "t1");
        let windows = cut(&json!({"messages": messages}), 4);
        assert_eq!(ranges(&windows), [(0, 3), (4, 9), (10, 11)]);
        assert!(windows[1].oversized);
    }

    #[test]
    fn permissions_follow_their_tool_call() {
        let messages = vec![tool_use(0, "t1"), tool_result(1, "t1"), text(2), text(3), tool_use(4, "t2")];
        let state = json!({"requests": {"t2": {"tool": "Bash"}, "orphan": {"tool": "Edit"}},
                           "completedRequests": {"t1": {"status": "approved"}}});
        let windows = cut(&json!({"messages": messages, "agentState": state}), 2);
        assert_eq!(ranges(&windows), [(0, 1), (2, 3), (4, 4)]);
        assert_eq!(
            windows[0].input["agentState"],
            json!({"requests": {}, "completedRequests": {"t1": {"status": "approved"}}})
        );
        assert_eq!(
            windows[2].input["agentState"],
            json!({"requests": {"t2": {"tool": "Bash"}, "orphan": {"tool": "Edit"}}, "completedRequests": {}})
        );
    }

    #[test]
    fn sidechains_stay_with_their_task() {
        let mut messages: Vec<Value> = (0..8).map(text).collect();
        messages[1] = json!({"id": "m1", "content": {"role": "agent", "content": {"type": "output", "data": {
            "type": "assistant", "message": {"content": [{"type": "tool_use", "id": "task", "name": "Task",
            "input": {"prompt": "look around"}}]}}}}});
        messages[3] = json!({"id": "m3", "content": {"role": "agent", "content": {"type": "output", "data": {
            "type": "user", "isSidechain": true, "message": {"content": "look around"}}}}});
        messages[5] = json!({"id": "m5", "content": {"role": "agent", "content": {"type": "output", "data": {
            "type": "assistant", "isSidechain": true, "parentToolUseId": "task", "message": {"content": "ok"}}}}});
        let windows = cut(&json!({"messages": messages}), 3);
        assert!(windows.iter().any(|w| w.first <= 1 && w.last >= 5), "{:?}", ranges(&windows));
        assert_eq!(windows.last().map(|w| w.last), Some(7));
    }

    #[test]
    fn a_short_case_is_one_window_and_an_empty_one_none() {
        let windows = cut(&json!({"messages": [text(0), text(1)]}), 20);
        assert_eq!(ranges(&windows), [(0, 1)]);
        assert!(cut(&json!({"messages": []}), 5).is_empty());
        assert!(cut(&json!("garbage"), 5).is_empty());
    }
}
