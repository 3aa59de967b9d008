//! Which implementation a command judges: the built-in reference (`--impl`)
//! or an external program (`--impl-cmd`, `--one-shot` and the limits), as
//! argument groups flattened into `run`, `reduce` and `check-adapter`, and
//! starting it.

use clap::{Args, ValueEnum};
use conform::implementation::subprocess::options::DEFAULT_MAX_RESTARTS;
use conform::implementation::subprocess::protocol::HelloReply;
use conform::implementation::subprocess::{
    CommandLine, OneShotImplementation, PersistentImplementation, StartError, SubprocessOptions, parse_duration,
    parse_size,
};
use conform::implementation::{Implementation, ReferenceImplementation};
use conform::report::visible_controls;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The implementations built into conform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Builtin {
    #[default]
    Reference,
}

/// `--impl` or an external implementation.
#[derive(Clone, Debug, Args)]
#[command(next_help_heading = "Implementation")]
pub struct ImplementationArgs {
    /// The built-in implementation to judge when there is no --impl-cmd.
    #[arg(long = "impl", value_enum, value_name = "NAME", default_value_t, conflicts_with = "impl_cmd")]
    pub builtin: Builtin,
    #[command(flatten)]
    pub external: ExternalArgs,
}

/// An external implementation and its limits.
#[derive(Clone, Debug, Args)]
#[command(next_help_heading = "Implementation")]
pub struct ExternalArgs {
    /// An external implementation: COMMAND (split into words like a POSIX shell, no shell) speaks the conform
    /// protocol v1 on stdin/stdout (see docs/external-implementations.md).
    #[arg(long = "impl-cmd", value_name = "COMMAND")]
    pub impl_cmd: Option<String>,
    /// Run --impl-cmd once per case instead: the input on stdin, the output JSON on stdout.
    #[arg(long, requires = "impl_cmd")]
    pub one_shot: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

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
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_RESTARTS)]
    pub max_restarts: u32,
    /// Longest stdout line (one-shot: whole stdout) accepted (e.g. 512KiB, 64MiB).
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

pub(super) fn size(text: &str) -> Result<u64, String> {
    parse_size(text).map_err(|err| err.to_string())
}

/// The implementation a command judges, started.
pub enum Subject {
    /// A built-in implementation, in-process.
    Builtin(ReferenceImplementation),
    /// An external program.
    External(External),
}

impl Subject {
    /// As an implementation to run.
    pub fn implementation(&self) -> &dyn Implementation {
        match self {
            Subject::Builtin(reference) => reference,
            Subject::External(external) => external.implementation(),
        }
    }

    /// The external program, when that is what runs.
    pub fn external(&self) -> Option<&External> {
        match self {
            Subject::Builtin(_) => None,
            Subject::External(external) => Some(external),
        }
    }
}

impl ImplementationArgs {
    /// Starts the implementation the flags name (see [`ExternalArgs::start`]).
    pub fn start(&self, cancel: Arc<AtomicBool>, quiet: bool) -> anyhow::Result<Subject> {
        Ok(match self.external.start(cancel, quiet)? {
            Some(external) => Subject::External(external),
            None => match self.builtin {
                Builtin::Reference => Subject::Builtin(ReferenceImplementation),
            },
        })
    }
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

    /// What a persistent implementation declared in its hello.
    pub fn hello(&self) -> Option<HelloReply> {
        match self {
            External::Persistent(persistent) => persistent.hello(),
            External::OneShot(_) => None,
        }
    }

    /// Prints what happened outside any case (failed restarts, bad exits).
    pub fn print_notes(&self) {
        if let External::Persistent(persistent) = self {
            for note in persistent.notes() {
                super::warning(visible_controls(&note));
            }
        }
    }
}

impl ExternalArgs {
    /// The parsed `--impl-cmd`, when one was given. A leading `conform`
    /// that is not on `PATH` is this very binary.
    pub fn command(&self) -> anyhow::Result<Option<CommandLine>> {
        let command = self.impl_cmd.as_deref().map(CommandLine::parse).transpose()?;
        Ok(command.map(|command| command.or_binary_for("conform", || std::env::current_exe().ok())))
    }

    /// Starts the external implementation, if one was asked for, and says
    /// who answered (the `implementation:` line, left out when `quiet`). A
    /// command that cannot be started, or whose first handshake fails, is an
    /// error (exit 2): a failed first handshake is one block with the
    /// command, how it ended, its stderr tail and the `check-adapter` hint.
    pub fn start(&self, cancel: Arc<AtomicBool>, quiet: bool) -> anyhow::Result<Option<External>> {
        let Some(command) = self.command()? else { return Ok(None) };
        let options = self.limits.options(cancel);
        if self.one_shot {
            return Ok(Some(External::OneShot(OneShotImplementation::new(command, options)?)));
        }
        let persistent = match PersistentImplementation::start(command, options) {
            Ok(persistent) => persistent,
            Err(StartError::Handshake { interrupted: true, .. }) => return Err(super::Interrupted.into()),
            Err(StartError::Handshake { command, ended, problem, stderr, .. }) => {
                anyhow::bail!(handshake_block(&command, &ended, &problem, stderr.as_deref()))
            }
            Err(err) => return Err(err.into()),
        };
        if let Some(hello) = persistent.hello() {
            let id = &hello.implementation;
            let line = format!("{} {} ({}), suites: {}", id.name, id.version, id.language, hello.suite_list());
            if !quiet {
                eprintln!("implementation: {}", visible_controls(&line));
            }
            // A misspelt suite name would only show as every case unsupported.
            for (suite, _) in hello.suites.iter().filter(|(suite, _)| conform::suites::find(suite).is_none()) {
                let nearest = conform::suites::nearest(suite).unwrap_or_default();
                super::warning(format!(
                    "the implementation declares a suite `{}` this harness does not know (the nearest known name \
                     is `{nearest}`): none of its cases is sent",
                    visible_controls(suite)
                ));
            }
        }
        Ok(Some(External::Persistent(Box::new(persistent))))
    }
}

/// Stderr lines quoted under a failed handshake.
const HANDSHAKE_STDERR_LINES: usize = 10;

/// The text after `error: ` when the first handshake failed.
fn handshake_block(command: &str, ended: &str, problem: &str, stderr: Option<&str>) -> String {
    let mut block = String::from("the implementation failed its first handshake, so no case can run");
    let (shown_command, problem) = (visible_controls(command), visible_controls(problem));
    block.push_str(&format!("\n  command: {shown_command}\n  ended:   {ended}\n  problem: {problem}"));
    let lines: Vec<&str> = stderr.unwrap_or_default().lines().filter(|line| !line.trim().is_empty()).collect();
    if lines.is_empty() {
        block.push_str("\n  stderr:  (nothing)");
    } else {
        let start = lines.len().saturating_sub(HANDSHAKE_STDERR_LINES);
        block.push_str(&format!("\n  stderr (last {} lines):", lines.len() - start));
        for line in &lines[start..] {
            block.push_str(&format!("\n  | {}", visible_controls(line)));
        }
    }
    let quoted = shlex::try_quote(command).unwrap_or_else(|_| command.into());
    block.push_str(&format!(
        "\n  hint: `conform check-adapter --impl-cmd {quoted}` explains protocol problems step by step"
    ));
    block
}
