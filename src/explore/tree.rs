//! Paths into a JSON value: choosing a node at random, reading and writing
//! it, and naming it as a JSON pointer in the mutation path.

use crate::json::pointer;
use crate::suite_api::Chooser;
use serde_json::Value;

/// Most nodes looked at when choosing one at random below a node: an item
/// with a huge embedded tool output must not make one mutation slow.
const MAX_NODES_SEEN: usize = 4096;

pub use crate::suite_api::mutate::Step;

/// A path from the input's root.
pub type Path = Vec<Step>;

/// The path as a JSON pointer (`/messages/3/content`).
pub fn pointer_of(path: &[Step]) -> String {
    path.iter().fold(String::new(), |at, step| match step {
        Step::Key(key) => pointer::push(&at, key),
        Step::Index(index) => pointer::push_index(&at, *index),
    })
}

pub use crate::suite_api::mutate::{node_at as get, node_at_mut as get_mut};

/// The key of the last step, when it is an object member.
pub fn last_key(path: &[Step]) -> Option<&str> {
    match path.last() {
        Some(Step::Key(key)) => Some(key),
        _ => None,
    }
}

/// A node as the traversals show it to their `accept` test: the member name
/// it sits under (`None` for an array element or the start), its depth from
/// the input's root, and its value.
#[derive(Clone, Copy, Debug)]
pub struct Node<'v> {
    /// The member name it sits under, when it is an object member.
    pub key: Option<&'v str>,
    /// Steps from the input's root.
    pub depth: usize,
    /// The value.
    pub value: &'v Value,
}

/// A step of a path while walking: borrowed, so walking allocates nothing
/// but the paths it returns.
#[derive(Clone, Copy)]
enum StepRef<'v> {
    Key(&'v str),
    Index(usize),
}

/// Walks the nodes below (and at) `start` in document order, at most
/// [`MAX_NODES_SEEN`] of them (or of the accepted ones, when `count_accepted`),
/// calling `visit` with each node `accept` takes and a way to make its path.
fn walk<'v>(
    root: &'v Value,
    start: &[Step],
    accept: &dyn Fn(&Node<'_>) -> bool,
    count_accepted: bool,
    visit: &mut dyn FnMut(&dyn Fn() -> Path),
) {
    let Some(node) = get(root, start) else { return };
    let mut path: Vec<StepRef<'v>> = Vec::new();
    let mut counted = 0usize;
    let mut stack: Vec<(usize, &'v Value, Option<StepRef<'v>>)> = vec![(0, node, None)];
    while let Some((depth, value, step)) = stack.pop() {
        path.truncate(depth);
        if let Some(step) = step {
            path.push(step);
        }
        let key = match path.last() {
            Some(StepRef::Key(key)) => Some(*key),
            _ => None,
        };
        let accepted = accept(&Node { key, depth: start.len() + path.len(), value });
        if accepted {
            visit(&|| {
                let mut owned = start.to_vec();
                owned.extend(path.iter().map(|step| match step {
                    StepRef::Key(key) => Step::Key((*key).to_owned()),
                    StepRef::Index(index) => Step::Index(*index),
                }));
                owned
            });
        }
        counted += usize::from(accepted || !count_accepted);
        if counted >= MAX_NODES_SEEN {
            break;
        }
        let below = path.len();
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((below, item, Some(StepRef::Index(index))));
                }
            }
            Value::Object(members) => {
                for (key, member) in members.iter().rev() {
                    stack.push((below, member, Some(StepRef::Key(key))));
                }
            }
            _ => {}
        }
    }
}

/// A node below (or at) `start` chosen uniformly among the first
/// [`MAX_NODES_SEEN`] in document order that `accept` takes, with its path.
pub fn choose_node(
    root: &Value,
    start: &[Step],
    chooser: &mut Chooser,
    accept: &dyn Fn(&Node<'_>) -> bool,
) -> Option<Path> {
    let mut chosen: Option<Path> = None;
    let mut seen = 0usize;
    // Reservoir sampling: one pass, a path made only when a node is chosen.
    walk(root, start, accept, true, &mut |path| {
        seen += 1;
        if chooser.below(seen) == 0 {
            chosen = Some(path());
        }
    });
    chosen
}

/// Every node below `start` that `accept` takes, among the first
/// [`MAX_NODES_SEEN`] visited.
pub fn find_nodes(root: &Value, start: &[Step], accept: &dyn Fn(&Node<'_>) -> bool) -> Vec<Path> {
    let mut found = Vec::new();
    walk(root, start, accept, false, &mut |path| found.push(path()));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_write_and_name_nodes() {
        let mut value = json!({"messages": [{"id": "a", "c/d": [1, 2]}]});
        let path = vec![Step::Key("messages".into()), Step::Index(0), Step::Key("c/d".into()), Step::Index(1)];
        assert_eq!(pointer_of(&path), "/messages/0/c~1d/1");
        assert_eq!(get(&value, &path), Some(&json!(2)));
        *get_mut(&mut value, &path).unwrap() = json!("x");
        assert_eq!(value["messages"][0]["c/d"], json!([1, "x"]));
        assert_eq!(last_key(&path[..3]), Some("c/d"));
    }

    #[test]
    fn every_accepted_node_can_be_chosen_and_only_those() {
        let value = json!({"a": [1, {"b": 2}], "c": "s"});
        let numbers = |node: &Node<'_>| node.value.is_number();
        let mut seen = std::collections::BTreeSet::new();
        let mut chooser = Chooser::new(3);
        for _ in 0..200 {
            let path = choose_node(&value, &[], &mut chooser, &numbers).unwrap();
            seen.insert(pointer_of(&path));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["/a/0", "/a/1/b"]);
        assert_eq!(find_nodes(&value, &[], &numbers).len(), 2);
        assert!(choose_node(&value, &[], &mut chooser, &|node| node.value.is_null()).is_none());
        let keyed = find_nodes(&value, &[Step::Key("a".into())], &|node| node.key == Some("b") && node.depth == 3);
        assert_eq!(keyed.iter().map(|path| pointer_of(path)).collect::<Vec<_>>(), ["/a/1/b"]);
    }
}
