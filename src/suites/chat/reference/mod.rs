//! The `chat` suite's reference: the HAPI chat pipeline, normalize → fold
//! → group → project (see the suite's README.md).
//!
//! [`run`] is the suite's reference function (the newest fixtureVersion;
//! [`run_with`] takes the [`ChatOptions`] of another); [`normalize_message`] and
//! [`renders`] expose the first stage on its own (the pagination suite asks
//! it whether a row renders); [`RULES`] lists every rule id the pipeline
//! reports to a [`crate::suite_api::RuleTrace`].
//!
//! # Where the reference follows the web pipeline's quirks
//!
//! The web pipeline generated the HAPI fixtures and is what ports are judged
//! against, so where it and the specs read differently the reference follows
//! it, even where its behaviour looks accidental:
//!
//! - **agentId on CodexAgent cards.** The agentId an agent-run event names is
//!   `agentId` when it is a string (`""` included), else `agent_id` when it is
//!   a string, else null. Every start and every update writes that value into
//!   the card's input (an update without one writes `agentId: null`, a start
//!   with `agentId: ""` keeps `""`); decisions (which card, whether there is
//!   an agent) treat `""` as none (`fold/agent_run.rs`).
//! - **Empty card ids.** A string `cardId` (else `card_id`) is the raw card id
//!   even when it is `""`; a previous card recorded as `""` counts as none, so
//!   an update after a start with `cardId: ""` opens the fallback card, and
//!   the fingerprint-based orphan removal ignores a card whose id is `""`.
//! - **Empty ids in sidechain tracing.** A Claude sidechain message whose
//!   `parentUuid` is `""` has no parent (it is not an orphan; without a group
//!   it stays in the root lane), and a spawning message whose id is `""`
//!   forms no group (its Task card gets no children) (`fold/lanes.rs`).
//! - **Pending requests' `createdAt`.** Only an absent or null `createdAt` is
//!   replaced by the wall clock; any other value is compared with the oldest
//!   message time by JavaScript's loose `<` (`""`, `" "`, `[]`, `false` are 0,
//!   `true` is 1, `{}` is NaN and never older) and goes into the card as it is
//!   (`fold/finish.rs`, [`crate::suites::js::loose_less_than`]).
//! - **Arrays read as objects.** `requests` / `completedRequests` given as an
//!   array are read by index (`"0"`, `"1"`, …) (`fold/permissions.rs`).
//! - **Id ties in trace sorts** use `localeCompare`, the ICU root collation
//!   ([`crate::suites::js::locale_compare`]).
//!
//! Outside the fixture schema (inputs `conform decode`, `conform adapter` and
//! library callers can still see), the reference is the web pipeline on every
//! input that does not make the web pipeline throw: a row that is not an
//! object (`0`, `"x"`, `[]`, `true`) is read as a row without members (an
//! agent-text block `undefined:0` with text `undefined` and no `createdAt`);
//! a row's non-string `id`, non-number `createdAt` and `invokedAt` and
//! non-string `localId` are copied as they are on every block kind (blocks
//! whose id is the message id, a CodexAgent card keyed by it included, carry
//! the id value; ids built from it use `String(id)`); a row without `localId`
//! gives blocks without one (`undefined` is left out); a CodexAgent input
//! given as an array is spread by index; request entries that are not
//! objects make the permission `{}` (completed) or `{status: "pending"}`
//! (pending).
//!
//! Where the web pipeline throws, the reference stays total instead: a `null`
//! row is dropped, and a `null` request entry is skipped. Where it does not
//! throw but the sources do not say what it computes, the reference chooses
//! (these are the choices left open): `Math.min` over times that are not
//! numbers (a tool card's createdAt, the oldest message time) gives NaN,
//! projected as null; a CodexAgent card keyed by a message id that is not a
//! string is indexed by `String(id)`.

mod blocks;
mod fast_map;
mod fold;
mod group;
mod model;
mod normalize;
mod options;
mod pipeline;
mod project;
mod review_json;
mod rules;
mod stringify;
mod timestamp;
mod verbatim;

pub use model::*;
pub use normalize::{normalize_message, renders};
pub use options::ChatOptions;
pub use pipeline::{run, run_v1, run_with};
pub use rules::RULES;
