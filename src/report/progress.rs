//! The live progress of a run, on stderr (never stdout, which carries the
//! report): a consumer of [`RunEvent`]s.
//!
//! On a terminal, a line redrawn in place once the run has taken about a
//! second: cases done of all, failures so far, elapsed time, rate, and the
//! case that has been running longest. It is cleared when the run ends, so
//! the terminal report that follows reads as it always did. Anywhere else
//! (a CI log, a pipe) a plain line every few seconds, `1200/3000 cases, 3
//! failed, 41 s`, and nothing at all for a run shorter than that.

use super::model::Tally;
use super::{RunConsumer, RunEvent};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a run goes before the terminal line appears.
const TERMINAL_DELAY: Duration = Duration::from_secs(1);

/// How often the plain line is written (and after how long the first).
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(5);

/// Where the progress goes and how it looks.
enum Display {
    /// A line redrawn in place on the terminal.
    Terminal(Option<ProgressBar>),
    /// A plain line every `every`.
    Plain { out: Box<dyn Write + Send>, every: Duration, next: Duration },
}

/// The progress display (see the module docs).
pub struct Progress {
    display: Display,
    clock: Instant,
    total: usize,
    done: usize,
    failed: usize,
    /// Cases started and not yet finished: id and start time, by position.
    running: BTreeMap<usize, (String, Instant)>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress").field("total", &self.total).field("done", &self.done).finish_non_exhaustive()
    }
}

impl Progress {
    /// Progress on stderr: the redrawn line when stderr is a terminal, else
    /// the plain line every [`PLAIN_INTERVAL`].
    pub fn stderr() -> Self {
        if io::stderr().is_terminal() {
            Progress::with(Display::Terminal(None))
        } else {
            Progress::plain(Box::new(io::stderr()), PLAIN_INTERVAL)
        }
    }

    /// The plain line written to `out` every `every`.
    pub fn plain(out: Box<dyn Write + Send>, every: Duration) -> Self {
        Progress::with(Display::Plain { out, every, next: every })
    }

    fn with(display: Display) -> Self {
        Progress { display, clock: Instant::now(), total: 0, done: 0, failed: 0, running: BTreeMap::new() }
    }

    /// Runs `write` (which prints to stderr) with the terminal line out of
    /// its way.
    pub fn suspend(&self, write: impl FnOnce()) {
        match &self.display {
            Display::Terminal(Some(bar)) => bar.suspend(write),
            _ => write(),
        }
    }

    /// `1200/3000 cases, 3 failed, 41 s`.
    fn plain_line(&self, elapsed: Duration) -> String {
        format!("{}/{} cases, {} failed, {} s", self.done, self.total, self.failed, elapsed.as_secs())
    }

    /// The terminal line after the bar.
    fn terminal_line(&self, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 { self.done as f64 / seconds } else { 0.0 };
        let mut line =
            format!("{}/{} cases, {} failed, {seconds:.1} s, {rate:.0} cases/s", self.done, self.total, self.failed);
        if let Some((id, since)) = self.running.values().min_by_key(|(_, since)| *since) {
            line.push_str(&format!(
                ", slowest: {} ({:.1} s)",
                crate::files::one_line(id),
                since.elapsed().as_secs_f64()
            ));
        }
        line
    }

    fn update(&mut self, finished: bool) {
        let elapsed = self.clock.elapsed();
        let line = match &self.display {
            Display::Terminal(_) => self.terminal_line(elapsed),
            Display::Plain { .. } => self.plain_line(elapsed),
        };
        let (done, total) = (self.done as u64, self.total as u64);
        match &mut self.display {
            Display::Terminal(bar) => {
                if finished {
                    if let Some(bar) = bar.take() {
                        bar.finish_and_clear();
                    }
                    return;
                }
                if bar.is_none() && elapsed >= TERMINAL_DELAY {
                    let shown = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                    let style = ProgressStyle::with_template("[{bar:24}] {wide_msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> ");
                    shown.set_style(style);
                    *bar = Some(shown);
                }
                if let Some(bar) = bar {
                    bar.set_position(done);
                    bar.set_message(line);
                }
            }
            Display::Plain { out, every, next } => {
                if !finished && elapsed >= *next {
                    let _ = writeln!(out, "{line}");
                    let _ = out.flush();
                    while *next <= elapsed {
                        *next += *every;
                    }
                }
            }
        }
    }
}

impl RunConsumer for Progress {
    fn handle(&mut self, event: &RunEvent<'_>) {
        match *event {
            RunEvent::RunStarted { cases, .. } => {
                self.total = cases;
                self.clock = Instant::now();
            }
            RunEvent::CaseStarted { index, id } => {
                self.running.insert(index, (id.to_owned(), Instant::now()));
            }
            RunEvent::CaseFinished { index, case, .. } => {
                self.running.remove(&index);
                self.done += 1;
                self.failed += usize::from(case.verdict.tally() == Tally::Failed);
                self.update(false);
            }
            RunEvent::Tick { .. } => self.update(false),
            RunEvent::RunFinished { .. } => self.update(true),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{CaseReport, Verdict};
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_plain_line_counts_cases_and_failures_and_waits_for_its_interval() {
        let out = Shared::default();
        let mut progress = Progress::plain(Box::new(out.clone()), Duration::from_millis(30));
        let info = crate::implementation::Implementation::info(&crate::implementation::ReferenceImplementation);
        progress.handle(&RunEvent::RunStarted { cases: 3, implementation: &info, started_at: "" });
        let failing = CaseReport::new("chat/a".into(), "chat", "a".into(), "a.json".into(), Verdict::Fail);
        progress.handle(&RunEvent::CaseStarted { index: 0, id: "chat/a" });
        progress.handle(&RunEvent::CaseFinished { index: 0, case: &failing, notices: &[] });
        // A short run says nothing.
        assert!(out.0.lock().unwrap().is_empty());
        std::thread::sleep(Duration::from_millis(40));
        progress.handle(&RunEvent::Tick { elapsed: Duration::from_millis(40) });
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "1/3 cases, 1 failed, 0 s\n");
    }
}
