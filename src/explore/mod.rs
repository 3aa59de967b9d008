//! `conform explore`: a differential fuzzer that finds the decoder bugs the
//! golden fixtures miss.
//!
//! ```text
//! seeds ─▶ generate ─▶ judge (both sides) ─▶ clusters ─▶ shrink ─▶ report + pending fixtures
//! (seeds)  (generate,   (engine, judge)       (engine)    (shrink)  (report)
//!           mutations)
//! ```
//!
//! * [`seeds`]: each suite starts from its ready fixtures and the values
//!   their inputs hold under each member name.
//! * [`generate`] makes input *i* of a suite from the run's seed alone:
//!   a seed fixture mutated one to six times by [`mutations`] (the generic,
//!   structure-aware mutations over the suite's item list and at any path,
//!   and the choice among them and the suite's own mutators, which each suite
//!   declares in its `mutate.rs` through the contract
//!   [`crate::suite_api::mutate`]); by default only valid cases are kept.
//!   Each input is labelled in contract or robustness by the suite's wire
//!   schema ([`crate::suite_api::wire`]); clusters are in contract when any
//!   of their inputs is, and come first.
//! * [`engine`] runs inputs through the implementation under test and what
//!   it is judged against (the reference, or a second implementation) on
//!   parallel workers over persistent processes, [`judge`]s each pair of
//!   outcomes and keeps one cluster per divergence signature.
//! * [`shrink`] reduces each cluster's smallest example with
//!   [`crate::reduce`] and makes it a pending fixture whose expected part is
//!   the reference's output.
//! * [`report`] holds the explore report and its writers.
//! * [`session`] is one whole exploration, from the seed pools to the
//!   report and the pending fixtures: what `conform explore` runs.

pub mod engine;
pub mod generate;
pub mod judge;
pub mod mutations;
pub mod report;
pub mod seeds;
pub mod session;
pub mod shrink;
mod tree;
pub mod values;

pub use engine::{Budget, Exploration, ExploreOptions, FoundCluster, Party, TIME_GRACE, explore};
pub use generate::{Candidate, Generated, Generator};
pub use judge::{ClusterKey, Judgement, Side};
pub use seeds::{Seed, SeedPool, keep_in_contract_seeds, keep_judgeable_seeds};
pub use shrink::{ShrinkOptions, ShrunkCluster, shrink_all, slug};
