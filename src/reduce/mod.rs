//! Shrinking a failing case to the smallest input that still shows the same
//! failure (`conform reduce`).
//!
//! A case on which an implementation diverges is often a long capture; the
//! bug usually needs two or three of its messages. The reducer runs the
//! implementation under test (any [`Implementation`](crate::implementation::Implementation): the reference or an
//! external program) on ever smaller inputs and keeps a reduction when the
//! [`Failure`] (its set of [`Signature`](crate::report::Signature)s) stays the same:
//!
//! 1. delta debugging ([`ddmin`]) over the case's item list (`messages`,
//!    `frames`, `lines`, `events`, …);
//! 2. then, inside what is left, over object members and array items, level
//!    by level (identity and discriminator members are kept so the result
//!    still reads as the wire format: see [`PROTECTED_MEMBERS`]);
//! 3. then long strings are shortened where that changes nothing.
//!
//! Each candidate needs an expectation. With [`Oracle::Reference`] the
//! suite's reference computes it for any input (for judging an external
//! implementation). With [`Oracle::Stored`] (judging the reference itself
//! against a fixture's stored expectation) it is the stored expectation less
//! the blocks of removed messages (see [`prune`]).

pub mod ddmin;
mod document;
mod fixture;
pub mod prune;
mod shrink;
pub mod signature;

pub use document::reduced_document;
pub use fixture::{ReduceFixtureError, ReduceFixtureOptions, ReducedFixture, reduce_fixture};
pub use shrink::{
    FailureCheck, Oracle, PROTECTED_ITEM_MEMBERS, PROTECTED_MEMBERS, ReduceError, ReduceRequest, Reduction, list_key,
    reduce, reduce_with,
};
pub use signature::Failure;
