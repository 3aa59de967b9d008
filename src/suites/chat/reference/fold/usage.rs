//! `latestUsage` (chat-reduce §8): the newest root-session usage sample among
//! all normalized messages, whether or not they produced a block.

use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::NormalizedMessage;

/// The projected latest usage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatestUsage {
    /// `inputTokens`.
    pub input_tokens: f64,
    /// `outputTokens`.
    pub output_tokens: f64,
    /// `contextSize`: the reported context, else cache tokens plus input.
    pub context_size: f64,
    /// `contextWindow` (null when unknown).
    pub context_window: Option<f64>,
}

/// Scans from the last message back for usage that is not a sidechain's and
/// not a child scope's.
pub fn latest_usage(messages: &[NormalizedMessage<'_>], trace: &mut dyn RuleTrace) -> Option<LatestUsage> {
    let usage = messages.iter().rev().find_map(|message| {
        let usage = message.usage.as_ref()?;
        if message.is_sidechain {
            trace.hit("reduce.usage.sidechain-ignored");
            return None;
        }
        if usage.scope_role == Some("child") {
            trace.hit("reduce.usage.child-scope-ignored");
            return None;
        }
        Some(usage)
    })?;
    let context_size = match usage.context_tokens {
        Some(context) => {
            trace.hit("reduce.usage.context-tokens");
            context
        }
        None => {
            trace.hit("reduce.usage.cache-plus-input");
            usage.cache_creation_input_tokens.unwrap_or(0.0)
                + usage.cache_read_input_tokens.unwrap_or(0.0)
                + usage.input_tokens
        }
    };
    Some(LatestUsage {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        context_size,
        context_window: usage.context_window,
    })
}
