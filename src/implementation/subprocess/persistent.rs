//! Persistent mode, the default for `--impl-cmd`: long-lived processes that
//! speak protocol v1, so that a JVM or Swift binary starts once per worker
//! instead of once per case.

use super::command::CommandLine;
use super::error::StartError;
use super::options::SubprocessOptions;
use super::pool::Pool;
use super::protocol::HelloReply;
use crate::implementation::{
    CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, LateOutcome, Outcome,
};
use std::sync::atomic::{AtomicU64, Ordering};

/// An external implementation run over protocol v1.
#[derive(Debug)]
pub struct PersistentImplementation {
    pool: Pool,
    next_id: AtomicU64,
}

impl PersistentImplementation {
    /// Starts the first process and completes its handshake. Fails when the
    /// command cannot be started, or fails that first handshake
    /// ([`StartError::Handshake`]).
    pub fn start(command: CommandLine, options: SubprocessOptions) -> Result<Self, StartError> {
        command.check_startable()?;
        Ok(PersistentImplementation { pool: Pool::start(command, options)?, next_id: AtomicU64::new(1) })
    }

    /// What the implementation declared in its hello.
    pub fn hello(&self) -> Option<HelloReply> {
        self.pool.hello()
    }

    /// Irregularities outside any case: failed restarts, exits after bye.
    pub fn notes(&self) -> Vec<String> {
        self.pool.notes()
    }

    /// Restarts spent.
    pub fn restarts(&self) -> u32 {
        self.pool.restarts()
    }

    fn unsupported(hello: &HelloReply, request: &CaseRequest<'_>) -> Option<Outcome> {
        let version = u64::from(request.fixture_version);
        match hello.versions(request.suite) {
            None => Some(Outcome::Unsupported(format!(
                "the implementation does not declare the `{}` suite in its hello (it declares: {})",
                request.suite,
                hello.suite_list()
            ))),
            Some(versions) if !versions.contains(&version) => {
                let list: Vec<String> = versions.iter().map(u64::to_string).collect();
                Some(Outcome::Unsupported(format!(
                    "the implementation declares fixtureVersions [{}] of `{}`, not {version}",
                    list.join(", "),
                    request.suite
                )))
            }
            Some(_) => None,
        }
    }
}

impl Implementation for PersistentImplementation {
    fn declared_versions(&self, suite: &str) -> Option<Vec<u32>> {
        let hello = self.hello()?;
        let versions = hello.versions(suite).unwrap_or_default();
        Some(versions.iter().filter_map(|version| u32::try_from(*version).ok()).collect())
    }

    fn info(&self) -> ImplementationInfo {
        let command = Some(self.pool.command().text().to_owned());
        match self.pool.hello() {
            Some(hello) => ImplementationInfo {
                name: hello.implementation.name,
                version: hello.implementation.version,
                language: hello.implementation.language,
                kind: ImplementationKind::Subprocess,
                command,
            },
            None => ImplementationInfo {
                name: self.pool.command().short_name(),
                version: "unknown".to_owned(),
                language: "unknown".to_owned(),
                kind: ImplementationKind::Subprocess,
                command,
            },
        }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        if let Some(outcome) = self.pool.with_hello(|hello| Self::unsupported(hello, request)) {
            return outcome.into();
        }
        let mut session = match self.pool.checkout() {
            Ok(session) => session,
            Err(verdict) => return verdict,
        };
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let mut late = Vec::new();
        let (run, health) = session.run(id, request, &mut late);
        self.pool.checkin(session, health);
        self.pool.add_late(late);
        run
    }

    fn finish(&self) {
        self.pool.shutdown();
    }

    fn exhausted(&self) -> bool {
        self.pool.exhausted()
    }

    fn late_outcomes(&self) -> Vec<LateOutcome> {
        self.pool.take_late()
    }
}
