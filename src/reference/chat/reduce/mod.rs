//! Stage 2, reduce: normalized messages plus agentState → chat blocks,
//! `hasReadyEvent` and `latestUsage` (chat-reduce.md §1–§8).

mod agent_run;
mod finish;
mod lanes;
mod permissions;
mod reducer;
mod text;
mod timeline;
mod tools;
mod usage;

pub use reducer::{Reduced, reduce};
pub use usage::LatestUsage;
