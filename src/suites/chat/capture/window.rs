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
//!
//! The plan is made in one pass over a compact index of the session: what
//! each message says about tool calls ([`Mentions`], tool ids interned as
//! numbers, prompts as hashes), never the messages themselves, so a capture
//! can index a session it does not hold ([`plan`]) and build each window
//! from its own messages ([`assemble`], [`StateIndex`]). [`cut`] does both
//! for a session held whole.

use crate::suite_api::capture::Window;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Objects nested deeper than this inside a message are not searched for
/// tool ids (real messages are a few levels deep; this bounds hostile input).
const MAX_SCAN_DEPTH: usize = 64;

/// The tool ids of a session, numbered in order of first sight.
#[derive(Debug, Default)]
pub struct Interner {
    ids: HashMap<Box<str>, u32>,
}

impl Interner {
    fn intern(&mut self, id: &str) -> u32 {
        if let Some(&number) = self.ids.get(id) {
            return number;
        }
        let number = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        self.ids.insert(id.into(), number);
        number
    }

    /// The number of an id seen in a message, if any.
    pub fn get(&self, id: &str) -> Option<u32> {
        self.ids.get(id).copied()
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Every id and its number.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.ids.iter().map(|(id, number)| (&**id, *number))
    }

    /// Whether no id was seen.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// What one message says about tool calls.
#[derive(Clone, Debug, Default)]
pub struct Mentions {
    /// Tool call ids it opens.
    opens: Box<[u32]>,
    /// Tool call ids it completes or is grouped under.
    refers: Box<[u32]>,
    /// Prompts (hashed) of Task tools it opens, with the Task's id (for
    /// sidechains without a parent id).
    task_prompts: Box<[(u64, u32)]>,
    /// Its text (hashed), when it is a sidechain message with plain string
    /// content.
    sidechain_prompt: Option<u64>,
}

impl Mentions {
    /// The tool ids the message opens.
    pub fn opens(&self) -> &[u32] {
        &self.opens
    }
}

/// Collects the tool ids a message opens and refers to.
pub fn scan(message: &Value, interner: &mut Interner) -> Mentions {
    let mut found = Found::default();
    visit(message, 0, &mut found, interner);
    let mut refers: Vec<u32> = Vec::with_capacity(found.refers.len());
    for id in found.refers {
        if !refers.contains(&id) {
            refers.push(id);
        }
    }
    Mentions {
        opens: found.opens.into(),
        refers: refers.into(),
        task_prompts: found.task_prompts.into(),
        sidechain_prompt: found.sidechain_prompt,
    }
}

#[derive(Default)]
struct Found {
    opens: Vec<u32>,
    refers: Vec<u32>,
    task_prompts: Vec<(u64, u32)>,
    sidechain_prompt: Option<u64>,
}

fn hash_text(text: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

fn visit(value: &Value, depth: usize, found: &mut Found, interner: &mut Interner) {
    if depth > MAX_SCAN_DEPTH {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|item| visit(item, depth + 1, found, interner)),
        Value::Object(object) => {
            let text = |key: &str| object.get(key).and_then(Value::as_str);
            match text("type") {
                Some("tool_use") => {
                    if let Some(id) = text("id") {
                        let number = interner.intern(id);
                        found.opens.push(number);
                        let prompt = object.get("input").and_then(|i| i.get("prompt")).and_then(Value::as_str);
                        if let Some(prompt) = prompt {
                            found.task_prompts.push((hash_text(prompt), number));
                        }
                    }
                }
                Some("tool_result") => found.refers.extend(text("tool_use_id").map(|id| interner.intern(id))),
                Some("tool-call") => found.opens.extend(text("callId").map(|id| interner.intern(id))),
                Some("tool-call-result") => found.refers.extend(text("callId").map(|id| interner.intern(id))),
                _ => {}
            }
            for key in ["parentToolUseId", "parent_tool_use_id"] {
                found.refers.extend(text(key).map(|id| interner.intern(id)));
            }
            if object.get("isSidechain").and_then(Value::as_bool) == Some(true) {
                let content = object.get("message").and_then(|m| m.get("content")).and_then(Value::as_str);
                found.sidechain_prompt = content.map(hash_text);
            }
            object.values().for_each(|member| visit(member, depth + 1, found, interner));
        }
        _ => {}
    }
}

/// One window of a plan: messages `first..=last` of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Index of its first message.
    pub first: usize,
    /// Index of its last message.
    pub last: usize,
    /// Whether it is the last window (it takes the requests no message opens).
    pub is_last: bool,
    /// Whether it is longer than asked.
    pub oversized: bool,
}

/// The windows of about `size` messages a session with these mentions is
/// cut into (see the module docs); none for an empty session. `ids` is the
/// number of interned ids.
pub fn plan(mentions: &[Mentions], ids: usize, size: usize) -> Vec<Planned> {
    let refs: Vec<&Mentions> = mentions.iter().collect();
    plan_refs(&refs, ids, size)
}

/// [`plan`] over mentions kept elsewhere (an index's entries).
pub fn plan_refs(mentions: &[&Mentions], ids: usize, size: usize) -> Vec<Planned> {
    let size = size.max(1);
    let blocks = blocks(mentions, ids);
    let Some(last_block) = blocks.len().checked_sub(1) else { return Vec::new() };
    let overlap = size / 4;
    let mut windows = Vec::new();
    let mut first_block = 0;
    loop {
        let start = blocks[first_block].0;
        let last = reach(&blocks, first_block, size);
        let end = blocks[last].1;
        let is_last = last == last_block;
        windows.push(Planned { first: start, last: end, is_last, oversized: end - start + 1 > size });
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

/// Maximal runs of messages that no tool group crosses: `(first, last)`.
fn blocks(mentions: &[&Mentions], ids: usize) -> Vec<(usize, usize)> {
    let count = mentions.len();
    let mut groups = UnionFind::new(count);
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); ids];
    let mut prompts: HashMap<u64, u32> = HashMap::new();
    for (index, m) in mentions.iter().enumerate() {
        for &id in m.opens.iter().chain(m.refers.iter()) {
            holders[id as usize].push(index);
        }
        for &(prompt, id) in m.task_prompts.iter() {
            prompts.entry(prompt).or_insert(id);
        }
    }
    for (index, m) in mentions.iter().enumerate() {
        if let Some(&id) = m.sidechain_prompt.and_then(|p| prompts.get(&p)) {
            holders[id as usize].push(index);
        }
    }
    for indices in &holders {
        for pair in indices.windows(2) {
            groups.union(pair[0], pair[1]);
        }
    }
    // Each group spans from its first to its last message; no cut inside.
    let mut span: Vec<Option<(usize, usize)>> = vec![None; count];
    for index in 0..count {
        let root = groups.find(index);
        let entry = span[root].get_or_insert((index, index));
        entry.0 = entry.0.min(index);
        entry.1 = entry.1.max(index);
    }
    let mut crossing = vec![0i64; count + 1];
    for &(first, last) in span.iter().flatten() {
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

/// The permission lists of an agentState (`requests`, `completedRequests`),
/// indexed by tool id, so that a window takes its own entries without a
/// pass over all of them.
#[derive(Debug)]
pub struct StateIndex {
    /// The agentState with its permission lists emptied (the other members
    /// go to every window as they are).
    template: Map<String, Value>,
    /// Each permission list: its member name and entries, in order.
    lists: Vec<(String, Vec<(String, Value)>)>,
    /// The entries of each opened tool id: `(list, position)`.
    by_id: HashMap<u32, Vec<(usize, usize)>>,
    /// Entries of ids no message opens (they go to the last window).
    orphans: Vec<(usize, usize)>,
}

impl StateIndex {
    /// Indexes `state` (an object) for a session whose messages opened the
    /// ids marked in `opened` (by interned number).
    pub fn new(state: Map<String, Value>, interner: &Interner, opened: &[bool]) -> StateIndex {
        let mut template = state;
        let mut lists = Vec::new();
        let mut by_id: HashMap<u32, Vec<(usize, usize)>> = HashMap::new();
        let mut orphans = Vec::new();
        for key in ["requests", "completedRequests"] {
            let Some(Value::Object(entries)) = template.get_mut(key) else { continue };
            let entries: Vec<(String, Value)> = std::mem::take(entries).into_iter().collect();
            let list = lists.len();
            for (position, (id, _)) in entries.iter().enumerate() {
                match interner.get(id).filter(|&number| opened.get(number as usize) == Some(&true)) {
                    Some(number) => by_id.entry(number).or_default().push((list, position)),
                    None => orphans.push((list, position)),
                }
            }
            lists.push((key.to_owned(), entries));
        }
        StateIndex { template, lists, by_id, orphans }
    }

    /// The agentState as it was given to [`StateIndex::new`], every entry
    /// in its place.
    pub fn whole(&self) -> Value {
        let mut state = self.template.clone();
        for (key, entries) in &self.lists {
            state.insert(key.clone(), Value::Object(entries.iter().cloned().collect()));
        }
        Value::Object(state)
    }

    /// The agentState of a window whose messages open `opened_here`.
    pub fn window(&self, opened_here: &[u32], is_last: bool) -> Value {
        let mut taken: Vec<(usize, usize)> =
            opened_here.iter().filter_map(|id| self.by_id.get(id)).flatten().copied().collect();
        if is_last {
            taken.extend(&self.orphans);
        }
        taken.sort_unstable();
        taken.dedup();
        let mut state = self.template.clone();
        for (list, (key, entries)) in self.lists.iter().enumerate() {
            let kept: Map<String, Value> =
                taken.iter().filter(|(of, _)| *of == list).map(|&(_, position)| entries[position].clone()).collect();
            state.insert(key.clone(), Value::Object(kept));
        }
        Value::Object(state)
    }
}

/// `state` with only the permission entries whose tool id `keep` accepts.
pub fn filter_agent_state(state: &Value, keep: impl Fn(&str) -> bool) -> Value {
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

/// A window's input: the members of `base` (the case input; its messages
/// are not read) in order, with `messages`, the window's `agent_state` (when
/// the case's agentState is an object) and, for windows after the first,
/// `hasMoreMessages: true`.
pub fn assemble(base: &Map<String, Value>, messages: Vec<Value>, agent_state: Option<Value>, first: usize) -> Value {
    let mut messages = Some(messages);
    let mut agent_state = agent_state;
    let mut object = Map::new();
    for (key, value) in base {
        let value = match key.as_str() {
            "messages" => Value::Array(messages.take().unwrap_or_default()),
            "agentState" if agent_state.is_some() => agent_state.take().unwrap_or_default(),
            _ => value.clone(),
        };
        object.insert(key.clone(), value);
    }
    if let Some(messages) = messages {
        object.insert("messages".to_owned(), Value::Array(messages));
    }
    if let Some(state) = agent_state {
        object.insert("agentState".to_owned(), state);
    }
    if first > 0 {
        let mut options = object.get("options").and_then(Value::as_object).cloned().unwrap_or_default();
        options.insert("hasMoreMessages".to_owned(), Value::Bool(true));
        object.insert("options".to_owned(), Value::Object(options));
    }
    Value::Object(object)
}

/// Cuts `input` (a chat case input, held whole) into windows of about
/// `size` messages.
pub fn cut(input: &Value, size: usize) -> Vec<Window> {
    let messages = input.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut interner = Interner::default();
    let mentions: Vec<Mentions> = messages.iter().map(|message| scan(message, &mut interner)).collect();
    let windows = plan(&mentions, interner.len(), size);
    let mut opened = vec![false; interner.len()];
    for id in mentions.iter().flat_map(|m| m.opens.iter()) {
        opened[*id as usize] = true;
    }
    let state = input
        .get("agentState")
        .and_then(Value::as_object)
        .map(|state| StateIndex::new(state.clone(), &interner, &opened));
    let empty = Map::new();
    let base = input.as_object().unwrap_or(&empty);
    windows
        .into_iter()
        .map(|Planned { first, last, is_last, oversized }| {
            let opened_here: Vec<u32> = mentions[first..=last].iter().flat_map(|m| m.opens.iter().copied()).collect();
            let agent_state = state.as_ref().map(|state| state.window(&opened_here, is_last));
            let input = assemble(base, messages[first..=last].to_vec(), agent_state, first);
            Window { input, first, last, oversized }
        })
        .collect()
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
        let keys: Vec<&String> = windows[1].input.as_object().map(|o| o.keys().collect()).unwrap_or_default();
        assert_eq!(keys, ["messages", "agentState", "options"]);

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
