//! Limits that keep an external implementation from stalling or exhausting
//! the harness: the per-case time limit, the restart budget, the longest
//! stdout line, and how much stderr is kept per case.
//!
//! The parsers accept what people type on a command line (`10s`, `500ms`,
//! `64MiB`) and are here rather than in the CLI so that every front end
//! (run, check-adapter, benches) reads them the same way.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// Default time an implementation gets for one case (and for its hello).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default number of restarts after crashes and timeouts, per run.
pub const DEFAULT_MAX_RESTARTS: u32 = 10;
/// Default longest stdout line (persistent mode) or stdout (one-shot mode).
pub const DEFAULT_MAX_OUTPUT: u64 = 64 * 1024 * 1024;
/// How long an implementation gets to exit after `bye`, whatever
/// `--timeout` says: the per-case limit is about decoding, and a runtime
/// that flushes and closes on its way out (a JVM, say) needs its own time.
/// Past it, the process is killed and a warning printed.
pub const BYE_GRACE: Duration = Duration::from_secs(5);
/// How much of an implementation's stderr is kept per case: the tail, since
/// the last lines of a dying process are the ones that explain it.
pub const DEFAULT_STDERR_TAIL: usize = 32 * 1024;

/// How external implementations are run.
#[derive(Clone, Debug)]
pub struct SubprocessOptions {
    /// Time limit per case.
    pub timeout: Duration,
    /// Time limit for the hello after a start; `None` means the larger of
    /// `timeout` and [`DEFAULT_TIMEOUT`] (start-up of a JVM or a `swift run`
    /// often takes longer than a case should).
    pub hello_timeout: Option<Duration>,
    /// Restarts allowed after crashes and timeouts, over the whole run.
    pub max_restarts: u32,
    /// Longest accepted stdout line (persistent) or stdout (one-shot), in bytes.
    pub max_output: u64,
    /// Bytes of stderr kept per case.
    pub stderr_tail: usize,
    /// When set (by Ctrl-C), cases in flight are abandoned and their
    /// processes killed.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for SubprocessOptions {
    fn default() -> Self {
        SubprocessOptions {
            timeout: DEFAULT_TIMEOUT,
            hello_timeout: None,
            max_restarts: DEFAULT_MAX_RESTARTS,
            max_output: DEFAULT_MAX_OUTPUT,
            stderr_tail: DEFAULT_STDERR_TAIL,
            cancel: None,
        }
    }
}

impl SubprocessOptions {
    /// The time limit for the hello.
    pub fn hello_timeout(&self) -> Duration {
        self.hello_timeout.unwrap_or(self.timeout.max(DEFAULT_TIMEOUT))
    }

    /// Whether the run was interrupted.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::SeqCst))
    }
}

/// A limit that does not parse.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LimitError {
    /// Not a duration.
    #[error("`{0}` is not a duration: write a number with a unit, e.g. 10s, 500ms, 2m")]
    Duration(String),
    /// Not a size.
    #[error("`{0}` is not a size: write a number of bytes with an optional unit, e.g. 65536, 512KiB, 64MiB, 1GiB")]
    Size(String),
}

/// Parses `10s`, `1.5s`, `500ms`, `2m` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, LimitError> {
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let value: f64 = number.parse().map_err(|_| LimitError::Duration(text.to_owned()))?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => value,
        "ms" => value / 1000.0,
        "m" | "min" => value * 60.0,
        _ => return Err(LimitError::Duration(text.to_owned())),
    };
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| LimitError::Duration(text.to_owned()))
}

/// Parses `65536`, `512KiB`, `64MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`,
/// `GB`, all binary multiples).
pub fn parse_size(text: &str) -> Result<u64, LimitError> {
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| !c.is_ascii_digit()).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let value: u64 = number.parse().map_err(|_| LimitError::Size(text.to_owned()))?;
    let multiplier: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(LimitError::Size(text.to_owned())),
    };
    value.checked_mul(multiplier).filter(|&n| n > 0).ok_or_else(|| LimitError::Size(text.to_owned()))
}

/// Formats a byte count for messages (`64 MiB`, `1.5 KiB`, `12 bytes`).
pub fn describe_size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            let value = bytes as f64 / size as f64;
            return if bytes.is_multiple_of(size) {
                format!("{} {unit}", bytes / size)
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    if bytes == 1 { "1 byte".to_owned() } else { format!("{bytes} bytes") }
}

/// Formats a duration for messages (`10 s`, `250 ms`, `1.5 s`).
pub fn describe_duration(duration: Duration) -> String {
    let millis = duration.as_secs_f64() * 1000.0;
    if millis < 1000.0 {
        format!("{} ms", millis.round())
    } else if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        for bad in ["", "s", "ten", "0", "5h", "-1s", "1e3"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("65536"), Ok(65536));
        assert_eq!(parse_size("512KiB"), Ok(512 * 1024));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1 GiB"), Ok(1 << 30));
        for bad in ["", "MiB", "0", "1.5MiB", "12 apples", "99999999999999999999"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_and_durations_read_well() {
        assert_eq!(describe_size(64 << 20), "64 MiB");
        assert_eq!(describe_size(1536), "1.5 KiB");
        assert_eq!(describe_size(12), "12 bytes");
        assert_eq!(describe_duration(Duration::from_secs(10)), "10 s");
        assert_eq!(describe_duration(Duration::from_millis(250)), "250 ms");
        assert_eq!(describe_duration(Duration::from_millis(1500)), "1.5 s");
    }
}
