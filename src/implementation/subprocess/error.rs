//! Why an external implementation could not be started at all. These are
//! setup errors (exit code 2): nothing about the implementation's behavior
//! can be judged. A persistent implementation that fails its very first
//! handshake is one too: the same would happen to every case. Everything
//! that goes wrong once it has said hello is a verdict.

use thiserror::Error;

/// An implementation command that cannot be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum StartError {
    /// `--impl-cmd` is empty or its quoting is unbalanced.
    #[error("cannot read the implementation command `{text}`: {reason}")]
    BadCommand {
        /// The command as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The program does not exist.
    #[error("cannot start the implementation: `{program}` was not found{where_}", where_ = if .program.contains('/') { "" } else { " on PATH" })]
    NotFound {
        /// The program (first word of the command).
        program: String,
    },
    /// The program exists but is not an executable file.
    #[error("cannot start the implementation: `{program}` is not an executable file{hint}")]
    NotExecutable {
        /// The program.
        program: String,
        /// A suggestion (e.g. prefix an interpreter).
        hint: String,
    },
    /// The operating system refused to start it.
    #[error("cannot start the implementation `{program}`: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The operating system's reason.
        message: String,
    },
    /// A persistent implementation started but failed its first handshake,
    /// so no case can run.
    #[error("the implementation failed its first handshake, so no case can run: {problem}")]
    Handshake {
        /// The command as given.
        command: String,
        /// How the process ended: `exit status 1`, or that the harness
        /// killed it.
        ended: String,
        /// What went wrong, in plain words.
        problem: String,
        /// The tail of its stderr, if it wrote any.
        stderr: Option<String>,
        /// The start was interrupted (Ctrl-C) rather than refused.
        interrupted: bool,
    },
}
