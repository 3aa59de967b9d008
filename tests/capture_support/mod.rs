//! Helpers shared by the capture and redaction tests.

pub mod planted;
pub mod session;
