//! Running a corpus: select cases, hand them to an implementation in
//! parallel, judge each outcome, and collect one [`RunReport`](crate::report::RunReport);
//! [`session`] is one whole `conform run`, from the selection to the report
//! files and the exit code.
//!
//! Cases run on worker threads with large stacks (fixtures may nest deeply);
//! the report keeps discovery order whatever order the cases finish in.

mod execute;
mod judge;
mod select;
pub mod session;

// The events a run emits live beside the report model their consumers build.
pub use crate::report::{RunConsumer, RunEvent};
pub use crate::workers::WORKER_STACK_BYTES;
pub use execute::{BaselineOptions, Keep, RunOptions, run};
pub use judge::judge;
pub use select::{
    Selection, fnv1a_64, in_partition, keep_declared_suites, parse_partition, select, shard_of, summarize_selection,
};
