//! Running the real `conform` binary as a developer would: from the
//! repository root, without colors, outside CI (tests that check what CI
//! refuses set `CI` themselves), output captured in files so no pipe can
//! fill up, and killed (failing the test) if it outlives a hard time limit.

use super::root;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The default hard bound of one run: far beyond any normal run on a loaded
/// CI machine, far below a hang.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(300);

/// What a finished `conform` process left behind.
#[derive(Debug)]
pub struct Finished {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
    /// How long it ran.
    pub elapsed: Duration,
}

impl Finished {
    /// Whether it exited with status 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// Stdout followed by stderr, for assertion messages and searches over both.
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `conform` with `args` from the repository root.
pub fn conform<S: AsRef<OsStr>>(args: &[S]) -> Finished {
    Conform::new(args).run()
}

/// Runs `conform` with `args` in `dir`.
pub fn conform_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Finished {
    Conform::new(args).dir(dir).run()
}

/// A `conform` invocation with more settings than [`conform`] takes.
pub struct Conform {
    command: Command,
    stdin: Option<Vec<u8>>,
    limit: Duration,
    closed_stdout: bool,
}

impl Conform {
    /// `conform ARGS` from the repository root, with `NO_COLOR` set and `CI` unset.
    pub fn new<S: AsRef<OsStr>>(args: &[S]) -> Conform {
        let mut command = Command::new(env!("CARGO_BIN_EXE_conform"));
        command.args(args).current_dir(root()).env("NO_COLOR", "1").env_remove("CI");
        Conform { command, stdin: None, limit: DEFAULT_LIMIT, closed_stdout: false }
    }

    /// Runs in `dir` instead of the repository root.
    pub fn dir(mut self, dir: &Path) -> Conform {
        self.command.current_dir(dir);
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Conform {
        self.command.env(key, value);
        self
    }

    /// Removes an environment variable (`NO_COLOR`, for instance).
    pub fn env_remove(mut self, key: &str) -> Conform {
        self.command.env_remove(key);
        self
    }

    /// Feeds `bytes` on stdin (stdin is empty otherwise).
    pub fn stdin(mut self, bytes: &[u8]) -> Conform {
        self.stdin = Some(bytes.to_vec());
        self
    }

    /// Gives the child a stdout pipe whose reader has already gone, as
    /// `conform … | head -1` does once `head` has its line: every write to
    /// stdout fails with a broken pipe. (`Finished::stdout` is then empty.)
    pub fn closed_stdout(mut self) -> Conform {
        self.closed_stdout = true;
        self
    }

    /// Changes the hard time bound.
    pub fn limit(mut self, limit: Duration) -> Conform {
        self.limit = limit;
        self
    }

    /// Runs to the end.
    pub fn run(self) -> Finished {
        self.run_with(|_| {})
    }

    /// Runs to the end, calling `during` once with the child's pid right
    /// after it starts (to signal it, for instance).
    pub fn run_with(mut self, during: impl FnOnce(u32)) -> Finished {
        let logs = tempfile::tempdir().expect("a temporary folder for the output");
        let file = |name: &str| std::fs::File::create(logs.path().join(name)).expect("an output file");
        let stdin = match &self.stdin {
            Some(bytes) => {
                std::fs::write(logs.path().join("stdin"), bytes).expect("the stdin file");
                Stdio::from(std::fs::File::open(logs.path().join("stdin")).expect("the stdin file"))
            }
            None => Stdio::null(),
        };
        let stdout = if self.closed_stdout {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            Stdio::from(writer)
        } else {
            Stdio::from(file("stdout"))
        };
        self.command.stdin(stdin).stdout(stdout).stderr(file("stderr"));
        let read = |name: &str| {
            String::from_utf8_lossy(&std::fs::read(logs.path().join(name)).unwrap_or_default()).into_owned()
        };
        let started = Instant::now();
        let mut child = self.command.spawn().expect("conform starts");
        during(child.id());
        let mut pause = Duration::from_millis(1);
        let status = loop {
            if let Some(status) = child.try_wait().expect("the child can be waited for") {
                break status;
            }
            if started.elapsed() > self.limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("conform did not finish within {:?}: it hung\nstderr:\n{}", self.limit, read("stderr"));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        };
        Finished { code: status.code(), stdout: read("stdout"), stderr: read("stderr"), elapsed: started.elapsed() }
    }
}
