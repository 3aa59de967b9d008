//! Stage 2, fold (the stage chat-reduce.md calls reduce): normalized messages plus agentState → chat blocks,
//! `hasReadyEvent` and `latestUsage` (chat-reduce.md §1–§8).

mod agent_run;
mod finish;
mod folder;
mod lanes;
mod permissions;
mod text;
mod timeline;
mod tools;
mod usage;

pub use folder::{Folded, fold};
pub use usage::LatestUsage;
