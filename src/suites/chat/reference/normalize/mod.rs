//! Stage 1, normalize: each wire `DecryptedMessage` becomes zero or one
//! normalized message (chat-normalize.md). One file per message family.

mod agent;
mod agy;
mod claude;
mod codex;
mod display_links;
mod envelope;
mod plan;
mod review;
mod user;

pub use envelope::{normalize_message, renders};
