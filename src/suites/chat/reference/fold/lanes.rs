//! Sidechain tracing (chat-reduce §3.3): sends each message to the root lane
//! or to the subagent group of the message that spawned it, reordering
//! orphans behind their parents and dropping the ones never resolved.

use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::blocks::is_subagent_name;
use crate::suites::chat::reference::fast_map::FastMap;
use crate::suites::chat::reference::model::{AgentItem, NormalizedMessage, Role};
use crate::suites::js::{get, str_of};

/// Messages by lane.
#[derive(Debug, Default)]
pub struct Lanes<'r, 'a> {
    /// The root lane, in input order.
    pub root: Vec<&'r NormalizedMessage<'a>>,
    /// Subagent groups keyed by the id of the message holding the spawning
    /// tool call, each in traced order.
    pub groups: FastMap<&'r str, Vec<&'r NormalizedMessage<'a>>>,
}

/// Assigns every message to a lane.
pub fn trace_lanes<'r, 'a>(messages: &'r [NormalizedMessage<'a>], trace: &mut dyn RuleTrace) -> Lanes<'r, 'a> {
    let mut tracer = Tracer::index(messages);
    for message in messages {
        tracer.assign(message, trace);
    }
    if !tracer.waiting.is_empty() {
        trace.hit("reduce.lanes.orphan-dropped");
    }
    tracer.lanes
}

struct Tracer<'r, 'a> {
    lanes: Lanes<'r, 'a>,
    /// Subagent tool id → message id.
    spawning_tools: FastMap<&'r str, &'r str>,
    /// Subagent prompt → message id.
    spawning_prompts: FastMap<&'r str, &'r str>,
    /// Message uuid → group, for messages assigned to a group.
    recorded: FastMap<&'r str, &'r str>,
    /// Parent uuid → orphans waiting for it, in arrival order.
    waiting: FastMap<&'r str, Vec<&'r NormalizedMessage<'a>>>,
}

impl<'r, 'a> Tracer<'r, 'a> {
    fn index(messages: &'r [NormalizedMessage<'a>]) -> Self {
        let mut spawning_tools = FastMap::default();
        let mut spawning_prompts = FastMap::default();
        for message in messages {
            for item in message.agent_items() {
                let AgentItem::ToolCall(call) = item else { continue };
                if !is_subagent_name(&call.name) {
                    continue;
                }
                spawning_tools.insert(&*call.id, &*message.id);
                if let Some(prompt) = str_of(call.input.as_deref().and_then(|input| get(input, "prompt"))) {
                    spawning_prompts.insert(prompt, &*message.id);
                }
            }
        }
        Tracer {
            lanes: Lanes::default(),
            spawning_tools,
            spawning_prompts,
            recorded: FastMap::default(),
            waiting: FastMap::default(),
        }
    }

    fn assign(&mut self, message: &'r NormalizedMessage<'a>, trace: &mut dyn RuleTrace) {
        if !message.is_sidechain {
            self.lanes.root.push(message);
            return;
        }
        if let Some(group) = self.group_of(message, trace) {
            self.join(message, group, trace);
            return;
        }
        // An empty parent uuid is no parent (the message is not an orphan).
        match message.parent_uuid().filter(|parent| !parent.is_empty()) {
            Some(parent) => match self.recorded.get(parent) {
                Some(&group) => {
                    trace.hit("reduce.lanes.parent-uuid");
                    self.join(message, group, trace);
                }
                None => self.waiting.entry(parent).or_default().push(message),
            },
            None => {
                trace.hit("reduce.lanes.root-sidechain");
                self.lanes.root.push(message);
            }
        }
    }

    /// (a) a known `parentToolUseId`, else (b) a sidechain prompt that
    /// exactly equals a subagent call's prompt. A spawning message whose id
    /// is `""` forms no group: the lookup counts as a miss.
    fn group_of(&self, message: &'r NormalizedMessage<'a>, trace: &mut dyn RuleTrace) -> Option<&'r str> {
        if let Some(&group) = message
            .parent_tool_use_id
            .filter(|id| !id.is_empty())
            .and_then(|id| self.spawning_tools.get(id))
            .filter(|group| !group.is_empty())
        {
            trace.hit("reduce.lanes.parent-tool-use");
            return Some(group);
        }
        if message.role() != Role::Agent {
            return None;
        }
        let group = message.agent_items().iter().find_map(|item| match item {
            AgentItem::Sidechain { prompt, .. } => self.spawning_prompts.get(&**prompt).copied(),
            _ => None,
        });
        let group = group.filter(|group| !group.is_empty());
        if group.is_some() {
            trace.hit("reduce.lanes.prompt-match");
        }
        group
    }

    /// Adds the message to a group, records its uuid and releases the
    /// orphans waiting for it right behind it, depth-first.
    fn join(&mut self, message: &'r NormalizedMessage<'a>, group: &'r str, trace: &mut dyn RuleTrace) {
        self.lanes.groups.entry(group).or_default().push(message);
        let Some(uuid) = message.uuid() else { return };
        self.recorded.insert(uuid, group);
        let Some(orphans) = self.waiting.remove(uuid) else { return };
        trace.hit("reduce.lanes.orphan-released");
        for orphan in orphans {
            // Chains of orphans are as long as the input; keep the stack bounded.
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.join(orphan, group, trace));
        }
    }
}
