//! `conform adapter`: the reference implementations served over the
//! subprocess protocol on stdin/stdout, or, when `CONFORM_SUITE` is set,
//! in one-shot mode (one case from stdin, its output on stdout).

use clap::Args;
use conform::error::exit_code;
use conform::implementation::serve::{self, ServeError};
use std::io::{BufReader, BufWriter, Read, Write};

#[derive(Debug, Args)]
pub struct AdapterArgs {}

pub fn execute(_args: AdapterArgs) -> anyhow::Result<i32> {
    let result = match std::env::var("CONFORM_SUITE") {
        Ok(suite) => one_shot(&suite),
        Err(_) => {
            let stdin = std::io::stdin();
            let mut input = BufReader::with_capacity(1 << 20, stdin.lock());
            let stdout = std::io::stdout();
            let mut output = BufWriter::with_capacity(1 << 20, stdout.lock());
            serve::serve(&mut input, &mut output, &mut std::io::stderr())
        }
    };
    match result {
        Ok(()) => Ok(exit_code::CONFORMANT),
        // A crashing reference must look like a crashing decoder: die by a
        // signal, so the harness reports `crash` as it does in-process.
        Err(err @ ServeError::ReferenceCrashed { .. }) => {
            eprintln!("conform adapter: {err}");
            std::process::abort();
        }
        // The harness stopped reading: like any command whose reader went
        // away, the adapter ends quietly.
        Err(ServeError::Io(err)) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(exit_code::CONFORMANT),
        // A one-shot case without an output: the harness reads any exit
        // status but 0 as `error`.
        Err(err) => {
            eprintln!("conform adapter: {err}");
            Ok(exit_code::FAILURES)
        }
    }
}

fn one_shot(suite: &str) -> Result<(), ServeError> {
    let fixture = std::env::var("CONFORM_FIXTURE").unwrap_or_default();
    let version = std::env::var("CONFORM_FIXTURE_VERSION").unwrap_or_else(|_| "1".to_owned());
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let output = serve::one_shot(suite, &fixture, &version, &input)?;
    let mut text = String::new();
    conform::implementation::subprocess::wire::write(&output, &mut text);
    text.push('\n');
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
