//! The `chat` suite's reference: the HAPI chat pipeline, normalize → fold
//! → group → project (see the suite's README.md).
//!
//! [`run`] is the suite's reference function (the newest fixtureVersion;
//! [`run_with`] takes the [`ChatOptions`] of another); [`normalize_message`] and
//! [`renders`] expose the first stage on its own (the pagination suite asks
//! it whether a row renders); [`RULES`] lists every rule id the pipeline
//! reports to a [`crate::suite::RuleTrace`].

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
