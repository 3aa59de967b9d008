//! What every stage that works on several threads shares (run, validate,
//! explore, capture, coverage).

/// Stack size of each worker thread. Only touched memory is committed, so
/// this is cheap, and it keeps 10,000-level documents from overflowing.
pub const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;
