//! `conform decode`.

use anyhow::{Context, bail};
use clap::Args;
use conform::error::exit_code;
use conform::files::ShowPath;
use conform::fixture::unknown_suite;
use conform::suite_api::NoTrace;
use conform::suite_api::call_reference;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The suite whose reference decodes the input.
    #[arg(long, value_name = "SUITE", long_help = super::selection::naming_suites("The suite whose reference decodes the input"))]
    suite: String,
    /// The input JSON file (the suite's input part), or `-` for stdin.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Decode by the rules of this fixtureVersion (default: the newest the reference implements).
    #[arg(long, value_name = "N")]
    fixture_version: Option<u32>,
}

pub fn execute(args: DecodeArgs) -> anyhow::Result<i32> {
    let Some(suite) = conform::suites::find(&args.suite) else {
        return Err(unknown_suite(&args.suite).into());
    };
    if suite.reference().is_none() {
        bail!("no reference implementation for suite {} yet", suite.name());
    }
    let version = args.fixture_version.unwrap_or_else(|| suite.newest_reference_version());
    let Some(reference) = suite.reference_for(version) else {
        bail!("{}", conform::implementation::unimplemented_version(suite, version));
    };
    let limit = conform::files::max_file_bytes();
    let (text, origin) = if args.input.as_os_str() == "-" {
        let text = super::adapter::read_stdin_within(limit).context("cannot read stdin")?;
        (text, "stdin".to_owned())
    } else {
        let bytes = conform::files::read_limited(&args.input, conform::files::Bound::fixture())
            .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", args.input.shown()))?;
        let text = String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8", args.input.shown()))?;
        (text, args.input.shown().to_string())
    };
    let input = conform::json::parse_document(&text).map_err(|err| anyhow::anyhow!("{origin}:{err}"))?.value;
    let input = suite.coerce_decode_input(input);
    match call_reference(reference, &input, &mut NoTrace) {
        Ok(output) => {
            std::io::stdout().lock().write_all(conform::json::to_canonical_string(&output).as_bytes())?;
            Ok(exit_code::CONFORMANT)
        }
        Err(failure) => bail!("the {} reference cannot decode this input: {failure}", suite.name()),
    }
}
