//! Child process lifecycle: start the implementation in a process group of
//! its own, learn when it exits, kill it (and anything it started), and
//! always reap it.
//!
//! The process group matters twice. Wrappers such as `swift run`, `java -jar`
//! behind a shell script or `npx` start the real decoder as a grandchild;
//! killing only the direct child would leave the grandchild holding our
//! pipes open, and the harness would wait for an end of file that never
//! comes. And a terminal's Ctrl-C goes to the foreground group only, so the
//! harness, not the terminal, decides how its children stop.

use super::command::CommandLine;
use super::error::StartError;
use std::collections::BTreeSet;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A started child process. Dropping it kills its process group and reaps it.
#[derive(Debug)]
pub struct ChildProcess {
    child: Child,
    pid: u32,
    status: Option<ExitStatus>,
    started: Instant,
}

/// The pipes of a started child.
#[derive(Debug)]
pub struct ChildPipes {
    /// Its stdin.
    pub stdin: ChildStdin,
    /// Its stdout.
    pub stdout: ChildStdout,
    /// Its stderr.
    pub stderr: ChildStderr,
}

impl ChildProcess {
    /// Starts `command` with piped stdio, in a new process group, with
    /// `env` added to the harness's environment.
    pub fn spawn(command: &CommandLine, env: &[(&str, &str)]) -> Result<(ChildProcess, ChildPipes), StartError> {
        let mut builder = Command::new(command.program());
        builder.args(command.args()).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        for (key, value) in env {
            builder.env(key, value);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            builder.process_group(0);
        }
        let mut child = spawn_tied(builder).map_err(|err| command.spawn_error(&err))?;
        let pid = child.id();
        register(pid);
        let pipes = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(stdin), Some(stdout), Some(stderr)) => ChildPipes { stdin, stdout, stderr },
            _ => {
                let mut process = ChildProcess { child, pid, status: None, started: Instant::now() };
                process.kill();
                return Err(StartError::Spawn {
                    program: command.program().to_owned(),
                    message: "its standard streams could not be connected".to_owned(),
                });
            }
        };
        Ok((ChildProcess { child, pid, status: None, started: Instant::now() }, pipes))
    }

    /// The process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Time since the process started.
    pub fn age(&self) -> Duration {
        self.started.elapsed()
    }

    /// The exit status, if the process has exited. Reaps it, after killing
    /// whatever it left behind in its group.
    pub fn try_status(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() && has_exited(&mut self.child, self.pid) {
            // The exited leader still holds the group id, so this cannot hit
            // an unrelated process; it ends any grandchild left behind.
            kill_group(self.pid);
            self.reap();
        }
        self.status
    }

    /// Waits until the process exits or `deadline` passes.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        // Polling keeps the harness free to give up at the deadline; the
        // back-off keeps the common quick exit cheap.
        let mut pause = Duration::from_micros(50);
        loop {
            if let Some(status) = self.try_status() {
                return Some(status);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep(pause.min(deadline - now));
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// Kills the process group and reaps the process; returns its status.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            kill_group(self.pid);
            let _ = self.child.kill();
            self.reap();
        }
        self.status
    }

    fn reap(&mut self) {
        if let Ok(status) = self.child.wait() {
            self.status = Some(status);
        }
        unregister(self.pid);
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Says how a process ended: `exit status 3`, `signal 11 (SIGSEGV)`.
pub fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let core = if status.core_dumped() { ", core dumped" } else { "" };
            return match signal_name(signal) {
                Some(name) => format!("killed by signal {signal} ({name}{core})"),
                None => format!("killed by signal {signal}{core}"),
            };
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "an unknown status".to_owned(),
    }
}

/// Whether a status is a death by signal.
pub fn killed_by_signal(status: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal().is_some()
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        false
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return None,
    })
}

/// Whether the process has exited, without reaping it (so that its id, and
/// its group's, stay reserved until we kill the group).
#[cfg(unix)]
fn has_exited(_child: &mut Child, pid: u32) -> bool {
    // SAFETY: waitid only writes into the zeroed siginfo we own; WNOWAIT
    // leaves the child waitable so `Child::wait` still reaps it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        libc::waitid(libc::P_PID, pid, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

#[cfg(not(unix))]
fn has_exited(child: &mut Child, _pid: u32) -> bool {
    matches!(child.try_wait(), Ok(Some(_)))
}

/// Spawns `command` tied to the harness: on Linux, the child is killed
/// (`PR_SET_PDEATHSIG`) when the harness dies, even by SIGKILL, which no
/// handler sees; an adapter that hangs would otherwise outlive it. The
/// kernel sends that signal when the *thread* that spawned the child ends,
/// so every child is spawned from one thread that lives as long as the
/// process; without it (it could not start), children are spawned here,
/// untied.
#[cfg(target_os = "linux")]
fn spawn_tied(command: Command) -> std::io::Result<Child> {
    use std::sync::mpsc;
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Option<Mutex<mpsc::Sender<Request>>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, received) = mpsc::channel::<Request>();
        let started = std::thread::Builder::new().name("conform-spawner".to_owned()).spawn(move || {
            for (mut command, reply) in received {
                tie_to_harness(&mut command);
                let _ = reply.send(command.spawn());
            }
        });
        started.ok().map(|_| Mutex::new(requests))
    });
    let Some(spawner) = spawner else {
        let mut command = command;
        return command.spawn();
    };
    let (reply, answer) = mpsc::channel();
    let sent = spawner.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).send((command, reply));
    if let Err(mpsc::SendError((mut command, _))) = sent {
        return command.spawn();
    }
    answer.recv().unwrap_or_else(|_| Err(std::io::Error::other("the thread that starts processes stopped")))
}

#[cfg(not(target_os = "linux"))]
fn spawn_tied(mut command: Command) -> std::io::Result<Child> {
    command.spawn()
}

/// Asks the kernel to SIGKILL the child when the thread spawning it (a
/// thread that lives as long as the harness) ends.
#[cfg(target_os = "linux")]
fn tie_to_harness(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: getpid is a plain system call.
    let harness = unsafe { libc::getpid() };
    // SAFETY: the hook runs in the forked child before exec and calls only
    // async-signal-safe system calls (prctl, getppid).
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The harness died before the hook ran: no signal will come.
            if libc::getppid() != harness {
                return Err(std::io::Error::other("the harness ended while the process was starting"));
            }
            Ok(())
        });
    }
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: plain system call; a group that is already gone yields ESRCH.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

fn live() -> &'static Mutex<BTreeSet<u32>> {
    static LIVE: OnceLock<Mutex<BTreeSet<u32>>> = OnceLock::new();
    LIVE.get_or_init(Default::default)
}

fn register(pid: u32) {
    live().lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(pid);
}

fn unregister(pid: u32) {
    live().lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&pid);
}

/// Kills every implementation process this harness started and has not
/// reaped yet (for a second Ctrl-C, just before the harness exits).
pub fn kill_all_children() {
    let pids: Vec<u32> = live().lock().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().copied().collect();
    for pid in pids {
        kill_group(pid);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> CommandLine {
        CommandLine::parse(&format!("sh -c '{script}'")).unwrap()
    }

    #[test]
    fn exit_statuses_are_described() {
        let (mut child, _pipes) = ChildProcess::spawn(&sh("exit 3"), &[]).unwrap();
        let status = child.wait_until(Instant::now() + Duration::from_secs(10)).unwrap();
        assert_eq!(describe_status(status), "exit status 3");
        let (mut child, _pipes) = ChildProcess::spawn(&sh("kill -SEGV $$"), &[]).unwrap();
        let status = child.wait_until(Instant::now() + Duration::from_secs(10)).unwrap();
        assert!(describe_status(status).starts_with("killed by signal 11 (SIGSEGV"), "{}", describe_status(status));
        assert!(killed_by_signal(status));
    }

    #[test]
    fn killing_ends_grandchildren_too() {
        // The grandchild would keep stdout open for a minute if it survived.
        let (mut child, pipes) = ChildProcess::spawn(&sh("sleep 60 & sleep 60"), &[]).unwrap();
        let started = Instant::now();
        assert!(child.wait_until(Instant::now() + Duration::from_millis(100)).is_none());
        child.kill();
        let mut rest = Vec::new();
        std::io::Read::read_to_end(&mut { pipes.stdout }, &mut rest).unwrap();
        assert!(started.elapsed() < Duration::from_secs(30));
        assert!(!live().lock().unwrap().contains(&child.pid()));
    }

    #[test]
    fn environment_reaches_the_child() {
        let (mut child, pipes) =
            ChildProcess::spawn(&sh("printf %s \"$CONFORM_SUITE\""), &[("CONFORM_SUITE", "chat")]).unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut { pipes.stdout }, &mut out).unwrap();
        child.wait_until(Instant::now() + Duration::from_secs(10));
        assert_eq!(out, "chat");
    }
}
