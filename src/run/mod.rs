//! Running a corpus: select cases, hand them to an implementation in
//! parallel, judge each outcome, and collect one [`RunReport`](crate::report::RunReport).
//!
//! Cases run on worker threads with large stacks (fixtures may nest deeply);
//! the report keeps discovery order whatever order the cases finish in.

mod events;
mod execute;
mod judge;
mod select;

pub use events::{RunConsumer, RunEvent};
pub use execute::{BaselineOptions, Keep, RunOptions, WORKER_STACK_BYTES, run};
pub use judge::judge;
pub use select::{Selection, fnv1a_64, parse_partition, select, shard_of};
