//! Flags shared by the commands that run an external implementation
//! (`--impl-cmd`, `--one-shot`, the limits), and starting it.

use clap::Args;
use conform::implementation::Implementation;
use conform::implementation::subprocess::{
    CommandLine, OneShotImplementation, PersistentImplementation, SubprocessOptions, parse_duration, parse_size,
};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Limits on an external implementation.
#[derive(Clone, Debug, Args)]
pub struct LimitArgs {
    /// Time limit per case (e.g. 10s, 500ms).
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = duration)]
    pub timeout: Duration,
    /// Time limit for the implementation's hello after each start [default: the larger of --timeout and 10s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub hello_timeout: Option<Duration>,
    /// Restarts allowed after crashes and timeouts, for the whole run.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_restarts: u32,
    /// Longest stdout line (one-shot: whole stdout) accepted (e.g. 64MiB).
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = size)]
    pub max_output: u64,
}

impl LimitArgs {
    /// The options these flags describe.
    pub fn options(&self, cancel: Arc<AtomicBool>) -> SubprocessOptions {
        SubprocessOptions {
            timeout: self.timeout,
            hello_timeout: self.hello_timeout,
            max_restarts: self.max_restarts,
            max_output: self.max_output,
            cancel: Some(cancel),
            ..SubprocessOptions::default()
        }
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|err| err.to_string())
}

fn size(text: &str) -> Result<u64, String> {
    parse_size(text).map_err(|err| err.to_string())
}

/// `conform run`'s flags for an external implementation.
#[derive(Clone, Debug, Args)]
pub struct ExternalArgs {
    /// Judge an external implementation: COMMAND (split into words like a POSIX shell, no shell) speaks the
    /// conform protocol v1 on stdin/stdout. See the README's "External implementations".
    #[arg(long = "impl-cmd", value_name = "COMMAND", conflicts_with = "implementation")]
    pub impl_cmd: Option<String>,
    /// Run --impl-cmd once per case instead: the input on stdin, the output JSON on stdout.
    #[arg(long, requires = "impl_cmd")]
    pub one_shot: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// A started external implementation.
pub enum External {
    /// Protocol v1 processes.
    Persistent(Box<PersistentImplementation>),
    /// One process per case.
    OneShot(OneShotImplementation),
}

impl External {
    /// As an implementation to run.
    pub fn implementation(&self) -> &dyn Implementation {
        match self {
            External::Persistent(persistent) => persistent.as_ref(),
            External::OneShot(one_shot) => one_shot,
        }
    }

    /// Prints what happened outside any case (failed restarts, bad exits).
    pub fn print_notes(&self) {
        if let External::Persistent(persistent) = self {
            for note in persistent.notes() {
                eprintln!("warning: {note}");
            }
        }
    }
}

impl ExternalArgs {
    /// Starts the external implementation, if one was asked for. A command
    /// that cannot be started is an error (exit 2); one whose handshake fails
    /// runs, and every case gets that failure as its verdict.
    pub fn start(&self, cancel: Arc<AtomicBool>) -> anyhow::Result<Option<External>> {
        let Some(text) = &self.impl_cmd else { return Ok(None) };
        let command = CommandLine::parse(text)?;
        let options = self.limits.options(cancel);
        if self.one_shot {
            return Ok(Some(External::OneShot(OneShotImplementation::new(command, options)?)));
        }
        let persistent = PersistentImplementation::start(command, options)?;
        if let Some(problem) = persistent.startup_problem() {
            eprintln!(
                "error: the implementation failed its handshake, so no case can run: {}",
                problem.outcome.message().unwrap_or_default()
            );
            eprintln!("       (`conform check-adapter --impl-cmd '{text}'` explains protocol problems step by step)");
        } else if let Some(hello) = persistent.hello() {
            let id = &hello.implementation;
            eprintln!("implementation: {} {} ({}), suites: {}", id.name, id.version, id.language, hello.suite_list());
        }
        Ok(Some(External::Persistent(Box::new(persistent))))
    }
}
