//! The implementation command: `--impl-cmd 'COMMAND ARGS…'` split into words
//! the way a POSIX shell splits them (quotes and backslashes, no expansion,
//! no shell), and checked before anything runs so that a typo is one clear
//! setup error instead of a crash verdict on every case.

use super::error::StartError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A command line, split into program and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    text: String,
    program: String,
    args: Vec<String>,
}

impl CommandLine {
    /// Splits `text` into words (POSIX shell rules, without expansions).
    pub fn parse(text: &str) -> Result<Self, StartError> {
        let bad = |reason: &str| StartError::BadCommand { text: text.to_owned(), reason: reason.to_owned() };
        let words = shlex::split(text).ok_or_else(|| bad("unbalanced quotes or a trailing backslash"))?;
        let mut words = words.into_iter();
        let program = words.next().filter(|p| !p.is_empty()).ok_or_else(|| bad("it is empty"))?;
        Ok(CommandLine { text: text.to_owned(), program, args: words.collect() })
    }

    /// When the program is `name` and cannot be found on `PATH`, runs
    /// `binary` instead (the text as given is kept for reports). This is
    /// how `--impl-cmd 'conform adapter'` works from a build that was never
    /// installed: the running `conform` stands in for the missing one.
    pub fn or_binary_for(mut self, name: &str, binary: impl FnOnce() -> Option<PathBuf>) -> Self {
        if self.program == name
            && matches!(self.check_startable(), Err(StartError::NotFound { .. }))
            && let Some(binary) = binary()
        {
            self.program = binary.to_string_lossy().into_owned();
        }
        self
    }

    /// The command as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The program (first word).
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments after the program.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// A short name for reports when the implementation names nothing
    /// itself (one-shot mode): the program's file name.
    pub fn short_name(&self) -> String {
        Path::new(&self.program).file_name().map_or_else(|| self.program.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// Checks that the program exists and is executable, the way `execvp`
    /// will look for it.
    pub fn check_startable(&self) -> Result<PathBuf, StartError> {
        let program = &self.program;
        if program.contains('/') {
            let path = PathBuf::from(program);
            return check_executable(&path, program).map(|()| path);
        }
        let search = std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
        let mut not_executable = None;
        for folder in std::env::split_paths(&search) {
            let candidate = folder.join(program);
            match check_executable(&candidate, program) {
                Ok(()) => return Ok(candidate),
                Err(err @ StartError::NotExecutable { .. }) => not_executable = Some(err),
                Err(_) => {}
            }
        }
        Err(not_executable.unwrap_or_else(|| StartError::NotFound { program: program.clone() }))
    }

    /// Turns an operating-system spawn error into a start error.
    pub fn spawn_error(&self, error: &std::io::Error) -> StartError {
        match error.kind() {
            std::io::ErrorKind::NotFound => match self.check_startable() {
                // The file is there, so what is missing is the interpreter its `#!` line names.
                Ok(path) => StartError::Spawn {
                    program: self.program.clone(),
                    message: format!("{} exists, but the interpreter on its `#!` line was not found", path.display()),
                },
                Err(err) => err,
            },
            std::io::ErrorKind::PermissionDenied => {
                StartError::NotExecutable { program: self.program.clone(), hint: interpreter_hint(&self.program) }
            }
            _ => StartError::Spawn { program: self.program.clone(), message: error.to_string() },
        }
    }
}

fn check_executable(path: &Path, program: &str) -> Result<(), StartError> {
    let metadata = std::fs::metadata(path).map_err(|_| StartError::NotFound { program: program.to_owned() })?;
    if !metadata.is_file() {
        return Err(StartError::NotExecutable { program: program.to_owned(), hint: " (it is a folder)".to_owned() });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o111 == 0 {
            return Err(StartError::NotExecutable { program: program.to_owned(), hint: interpreter_hint(program) });
        }
    }
    Ok(())
}

/// Scripts are the usual reason a program is not executable.
fn interpreter_hint(program: &str) -> String {
    let suggestion = match Path::new(program).extension().and_then(|e| e.to_str()) {
        Some("py") => Some("python3"),
        Some("js" | "mjs" | "cjs") => Some("node"),
        Some("sh") => Some("sh"),
        Some("jar") => return format!(" (run a jar with `java -jar {program}`)"),
        _ => None,
    };
    match suggestion {
        Some(interpreter) => format!(" (run it with `{interpreter} {program}`, or `chmod +x` it)"),
        None => " (`chmod +x` it, or name its interpreter first)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell_without_expansion() {
        let command = CommandLine::parse(r#"java -jar "build/my decoder.jar" --flag='a b' $HOME"#).unwrap();
        assert_eq!(command.program(), "java");
        assert_eq!(command.args(), ["-jar", "build/my decoder.jar", "--flag=a b", "$HOME"]);
        assert_eq!(command.short_name(), "java");
        assert_eq!(CommandLine::parse("./bin/adapter").unwrap().short_name(), "adapter");
    }

    #[test]
    fn empty_and_unbalanced_commands_are_refused() {
        assert!(matches!(CommandLine::parse(""), Err(StartError::BadCommand { .. })));
        assert!(matches!(CommandLine::parse("   "), Err(StartError::BadCommand { .. })));
        assert!(matches!(CommandLine::parse("python3 'adapter.py"), Err(StartError::BadCommand { .. })));
    }

    #[test]
    fn missing_programs_are_named() {
        let err = CommandLine::parse("conform-no-such-program --x").unwrap().check_startable().unwrap_err();
        assert_eq!(err.to_string(), "cannot start the implementation: `conform-no-such-program` was not found on PATH");
        let err = CommandLine::parse("./no/such/adapter").unwrap().check_startable().unwrap_err();
        assert_eq!(err.to_string(), "cannot start the implementation: `./no/such/adapter` was not found");
    }

    #[test]
    fn a_missing_program_can_be_stood_in_for() {
        let stand_in = || Some(PathBuf::from("/opt/bin/stand-in"));
        let command = CommandLine::parse("conform-no-such-program adapter --x").unwrap();
        let resolved = command.clone().or_binary_for("conform-no-such-program", stand_in);
        assert_eq!(resolved.program(), "/opt/bin/stand-in");
        assert_eq!(resolved.args(), ["adapter", "--x"]);
        assert_eq!(resolved.text(), "conform-no-such-program adapter --x");
        // Only the named program, and only when it is missing.
        assert_eq!(command.clone().or_binary_for("other", stand_in).program(), "conform-no-such-program");
        let sh = CommandLine::parse("sh -c true").unwrap();
        assert_eq!(sh.or_binary_for("sh", stand_in).program(), "sh");
    }

    #[cfg(unix)]
    #[test]
    fn scripts_without_the_execute_bit_get_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("adapter.py");
        std::fs::write(&script, "print()\n").unwrap();
        let text = script.display().to_string();
        let err = CommandLine::parse(&text).unwrap().check_startable().unwrap_err();
        assert!(err.to_string().contains("run it with `python3 "), "{err}");
        assert!(CommandLine::parse("sh -c true").unwrap().check_startable().is_ok());
    }
}
