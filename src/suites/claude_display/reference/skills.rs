//! Skills: a `Skill` tool call carries its skill name, and the synthetic
//! message the harness injects right after the call's result (the skill's
//! instructions) is attached to the call as `skill.body` instead of becoming
//! a turn: it is context for the model, not something the user said.

use super::model::{CallIx, Container, Model};
use super::parts::block_text;
use serde_json::Value;

/// After a tool return in `container`: remember the `Skill` call it settled
/// (or forget an earlier one when it settled another call).
pub fn note_return(model: &mut Model, container: Container, settled: Option<CallIx>) {
    let skill = settled.filter(|&ix| model.calls.get(ix).is_some_and(|call| call.skill.is_some()));
    model.transcript_mut(container).pending_skill = skill;
}

/// Attaches a synthetic message's text as the body of the `Skill` call whose
/// result it follows, returning that call's id.
pub fn attach_body(model: &mut Model, container: Container, blocks: &[Value]) -> Option<String> {
    let ix = model.transcript(container)?.pending_skill?;
    let texts: Vec<&str> = blocks.iter().filter_map(block_text).collect();
    if texts.is_empty() {
        return None;
    }
    let call = model.calls.get_mut(ix)?;
    let skill = call.skill.as_mut()?;
    skill.body = Some(texts.join("\n"));
    let id = call.id.clone();
    model.transcript_mut(container).pending_skill = None;
    Some(id)
}
