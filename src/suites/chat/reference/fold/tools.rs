//! Tool cards (chat-reduce §5): create-or-update by tool id within one
//! timeline, with the permission, name, input, progress and invokedAt rules.

use super::permissions::PermissionSeed;
use super::timeline::Timeline;
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::blocks::{Block, Body, ToolCard, ToolState, status_is};
use crate::suites::chat::reference::model::{BlockId, Stamp};
use crate::suites::js::{lowercase, trim};
use serde_json::Value;
use std::borrow::Cow;

/// What a tool card is created or updated from.
pub(super) struct Seed<'a> {
    /// Tool name.
    pub name: Cow<'a, str>,
    /// Input tri-state.
    pub input: Option<Cow<'a, Value>>,
    /// Progress, when the seed has a progress key.
    pub progress: Option<&'a Value>,
    /// Permission to create with or merge over the existing one.
    pub permission: Option<PermissionSeed<'a>>,
    /// The seed message's localId.
    pub local_id: Option<&'a Value>,
    /// The seed message's createdAt.
    pub created_at: Stamp<'a>,
    /// The seed message's invokedAt.
    pub invoked_at: Option<&'a Value>,
}

/// Placeholder names never replace a real one: `""`, `tool`, `unknown`,
/// `generic` after trimming and lower-casing.
fn is_placeholder(name: &str) -> bool {
    matches!(&*lowercase(trim(name)), "" | "tool" | "unknown" | "generic")
}

impl<'a> Timeline<'a> {
    /// The tool card at a position.
    pub(super) fn card_mut(&mut self, pos: usize) -> Option<&mut ToolCard<'a>> {
        self.blocks.get_mut(pos).and_then(Option::as_mut).and_then(Block::tool_mut)
    }

    /// The block at a position.
    pub(super) fn block_mut(&mut self, pos: usize) -> Option<&mut Block<'a>> {
        self.blocks.get_mut(pos).and_then(Option::as_mut)
    }

    /// Creates or updates the card for `id`; returns its position.
    pub(super) fn upsert(&mut self, id: Cow<'a, str>, seed: Seed<'a>, trace: &mut dyn RuleTrace) -> usize {
        if let Some(&pos) = self.tools.get(&*id)
            && let Some(block) = self.block_mut(pos)
            && block.tool().is_some()
        {
            update(block, seed, trace);
            return pos;
        }
        trace.hit("reduce.tool.created");
        let state = match seed.permission.as_ref().map(|p| p.status.as_deref()) {
            Some(status) if status_is(status, "pending") => ToolState::Pending,
            Some(status) if status_is(status, "denied") || status_is(status, "canceled") => {
                trace.hit("reduce.tool.created-refused");
                ToolState::Error
            }
            _ => ToolState::Running,
        };
        let card = ToolCard {
            name: seed.name,
            state,
            input: seed.input,
            result: seed.progress.map(Cow::Borrowed),
            permission: seed.permission.as_ref().map(PermissionSeed::to_permission),
            children: Vec::new(),
            traces: Vec::new(),
        };
        let pos = self.push(Block {
            id: BlockId::Text(id.clone()),
            local_id: seed.local_id,
            created_at: seed.created_at,
            invoked_at: seed.invoked_at,
            body: Body::ToolCall(Box::new(card)),
        });
        self.tools.insert(id, pos);
        pos
    }
}

/// The update rules of §5.1, in order.
fn update<'a>(block: &mut Block<'a>, seed: Seed<'a>, trace: &mut dyn RuleTrace) {
    trace.hit("reduce.tool.updated");
    // `Math.min`: a time that is not a number makes it NaN.
    block.created_at = block.created_at.min(seed.created_at);
    if block.invoked_at.is_none_or(Value::is_null) {
        block.invoked_at = seed.invoked_at;
    }
    let Some(card) = block.tool_mut() else { return };
    if let Some(permission) = &seed.permission {
        match &mut card.permission {
            Some(existing) => permission.merge_into(existing),
            None => card.permission = Some(permission.to_permission()),
        }
        if card.state == ToolState::Running && permission.status_str() == Some("pending") {
            card.state = ToolState::Pending;
        }
    }
    if !seed.name.is_empty() && seed.name != card.name {
        if is_placeholder(&seed.name) && !is_placeholder(&card.name) {
            trace.hit("reduce.tool.placeholder-name-kept");
        } else {
            trace.hit("reduce.tool.renamed");
            card.name = seed.name;
        }
    }
    if let Some(input) = seed.input.filter(|input| !input.is_null()) {
        trace.hit("reduce.tool.input-replaced");
        card.input = Some(input);
    }
    if let Some(progress) = seed.progress
        && card.state == ToolState::Running
    {
        trace.hit("reduce.tool.progress-updated");
        card.result = Some(Cow::Borrowed(progress));
    }
}

#[cfg(test)]
mod tests {
    use super::is_placeholder;

    #[test]
    fn placeholders() {
        for name in ["", " Tool ", "UNKNOWN", "generic"] {
            assert!(is_placeholder(name), "{name:?}");
        }
        assert!(!is_placeholder("Bash"));
    }
}
