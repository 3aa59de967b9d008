//! External implementations: any decoder (Swift, Kotlin, TypeScript,
//! Python…) run as a child process, with every fault it can commit contained
//! and turned into a verdict.
//!
//! Two modes share the same process plumbing:
//!
//! * **persistent** ([`PersistentImplementation`], the default): long-lived
//!   processes speaking [`protocol`] v1, newline-delimited JSON on
//!   stdin/stdout, one per worker, restarted after crashes and timeouts
//!   within a budget;
//! * **one-shot** ([`OneShotImplementation`]): one process per case, input on
//!   stdin, output on stdout.
//!
//! One module per concern: [`command`] (splitting `--impl-cmd`), [`child`]
//! (process groups, kill, reap), `collector` (the whole stdout of a one-shot run), [`pipes`] (the stdin writer, stdout line
//! reader and stderr collector threads, each bounded), `duplex` (stdin and
//! stdout driven with `poll(2)` by the thread running the case, the fast path
//! of persistent mode), `connection` (one process with its pipes), [`protocol`] (messages and codec),
//! `conversation` (the protocol-event loop the session driver and `conform check-adapter` share), `session`
//! (handshake and one case at a time), [`wire`] (fast JSON for the pipes), `pool` (workers and the restart
//! budget), `stray` (stderr written while no case was in flight) and [`options`] (limits). `conform check-adapter` lives in [`crate::check_adapter`].

pub mod child;
mod collector;
pub mod command;
pub(crate) mod connection;
pub(crate) mod conversation;
mod duplex;
mod error;
mod oneshot;
pub mod options;
mod persistent;
pub mod pipes;
mod pool;
pub mod protocol;
pub mod schemas;
mod session;
mod stray;
pub mod wire;

pub use child::kill_all_children;
pub use command::CommandLine;
pub use error::StartError;
pub use oneshot::OneShotImplementation;
pub use options::{SubprocessOptions, parse_duration, parse_size};
pub use persistent::PersistentImplementation;
pub(crate) use session::Health;
