//! What the check says about a hello: who answered, how fast, and what the
//! suites it declares mean for a run.

use super::{CheckReport, Level};
use crate::implementation::subprocess::options::{SubprocessOptions, describe_duration};
use crate::implementation::subprocess::protocol::HelloReply;
use std::time::Duration;

/// A hello slower than this gets a warning.
pub const SLOW_START: Duration = Duration::from_secs(2);

/// Reports the first hello of a check, taken `startup` after the start.
pub(super) fn describe_hello(
    report: &mut CheckReport,
    hello: &HelloReply,
    startup: Duration,
    options: &SubprocessOptions,
) {
    let identity = &hello.implementation;
    report.add(
        Level::Ok,
        format!(
            "hello: {} {} ({}) after {}",
            identity.name,
            identity.version,
            identity.language,
            describe_duration(startup)
        ),
        Vec::new(),
    );
    if startup > SLOW_START {
        report.add(
            Level::Warning,
            format!("slow start: the hello took {}", describe_duration(startup)),
            vec![
                "every restart after a crash or timeout costs this much, and each --jobs worker starts one process"
                    .to_owned(),
                format!(
                    "the harness waits at most --hello-timeout ({}) for a hello",
                    describe_duration(options.hello_timeout())
                ),
            ],
        );
    }
    for (suite, versions) in &hello.suites {
        match crate::suites::find(suite) {
            None => {
                let known: Vec<&str> = crate::suites::all().iter().map(|s| s.name()).collect();
                let nearest = crate::suites::nearest(suite).unwrap_or_default();
                report.add(
                    Level::Problem,
                    format!(
                        "declares a suite `{suite}` this harness does not know (the nearest known name is \
                         `{nearest}`): a run sends none of its cases"
                    ),
                    vec![
                        format!("the suites this harness knows: {}", known.join(", ")),
                        "suite names are spelled as the fixture folders are (lowercase, words joined by `-`)"
                            .to_owned(),
                    ],
                );
            }
            Some(known) => {
                let supported: Vec<u64> = known.readable_versions().into_iter().map(u64::from).collect();
                let overlap: Vec<String> =
                    versions.iter().filter(|v| supported.contains(v)).map(u64::to_string).collect();
                if overlap.is_empty() {
                    report.add(
                            Level::Warning,
                            format!("declares `{suite}` versions {versions:?}, none of which this harness judges ({supported:?})"),
                            vec!["its cases will all be `unsupported`".to_owned()],
                        );
                } else {
                    report.add(
                        Level::Ok,
                        format!("declares `{suite}` fixtureVersions [{}]", overlap.join(", ")),
                        Vec::new(),
                    );
                }
            }
        }
    }
    let missing: Vec<&str> =
        crate::suites::all().iter().map(|s| s.name()).filter(|name| hello.versions(name).is_none()).collect();
    if !missing.is_empty() {
        report.add(
            Level::Note,
            format!(
                "does not declare {}: those cases will be `unsupported` (they do not fail a run)",
                missing.join(", ")
            ),
            Vec::new(),
        );
    }
}
