//! The binary only parses arguments and prints what library writers return:
//! no subcommand's `execute` (nor the function a command group hands a
//! subcommand's parsed arguments to, like `baseline write`) is over
//! [`MAX_COMMAND_LINES`] lines. A command whose flow grows past that moves
//! the flow into the library (as `run::session` and `explore::session`
//! hold theirs), where it can be tested without the binary.

use crate::common::root;

/// Most lines of a command's function, its signature and closing brace
/// included.
const MAX_COMMAND_LINES: usize = 40;

/// Each top-level function of `source` that runs a command (named `execute`,
/// or taking a subcommand's parsed `args: …Args`), with its length in lines.
fn command_functions(source: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for (number, line) in source.lines().enumerate() {
        if let Some((name, start)) = &open {
            if line == "}" {
                found.push((name.clone(), number - start + 1));
                open = None;
            }
            continue;
        }
        let Some(signature) = line.strip_prefix("pub fn ").or_else(|| line.strip_prefix("fn ")) else { continue };
        let Some((name, rest)) = signature.split_once('(') else { continue };
        let takes_args = rest.strip_prefix("args: ").is_some_and(|rest| {
            rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().is_some_and(|ty| ty.ends_with("Args"))
        });
        if name == "execute" || takes_args {
            open = Some((name.to_owned(), number));
        }
    }
    found
}

fn the_counter_finds_command_functions_and_counts_their_lines() {
    let source = "pub fn execute(args: RunArgs) -> i32 {\n    1\n}\n\nfn helper(x: u8) {\n}\n\
                  fn write(args: WriteArgs) -> i32 {\n    let a = 1;\n    a\n}\n";
    assert_eq!(command_functions(source), [("execute".to_owned(), 3), ("write".to_owned(), 4)]);
}

fn no_command_function_of_the_binary_is_over_the_limit() {
    let dir = root().join("src/cli");
    let mut checked = 0;
    let mut long = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for (name, lines) in command_functions(&source) {
            checked += 1;
            if lines > MAX_COMMAND_LINES {
                long.push(format!("{file}: fn {name} is {lines} lines"));
            }
        }
    }
    assert!(checked >= 17, "found only {checked} command functions under {}", dir.display());
    assert!(
        long.is_empty(),
        "over {MAX_COMMAND_LINES} lines (move the flow into the library and print what it returns):\n{}",
        long.join("\n")
    );
}

crate::trials!(
    the_counter_finds_command_functions_and_counts_their_lines,
    no_command_function_of_the_binary_is_over_the_limit
);
