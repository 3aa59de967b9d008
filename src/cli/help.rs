//! The long help of each subcommand (`conform CMD --help`): examples a user
//! can paste, and the exit codes the command uses. Short help (`-h`) stays
//! one screen.

/// Exit codes shared by the commands that judge fixtures.
const JUDGING_CODES: &str = "\
Exit codes:
  0  conformant: every selected case passed (or was skipped, or failed as a baseline expects)
  1  conformance failures (a case failed, passed unexpectedly, or nothing was judged)
  2  usage or setup error: bad options, no fixture selected, invalid fixtures, an unsupported
     fixtureVersion, an implementation that cannot start
  130 interrupted by Ctrl-C (the reports cover the cases that ran)";

/// Exit codes of the commands that only read or write files.
const TOOL_CODES: &str = "\
Exit codes:
  0  done
  2  usage or setup error (bad options, unreadable or invalid files, nothing selected)";

/// A closed stdout (`conform … | head -1`) ends every command quietly with
/// status 0; said once in the top-level help.
pub const TOP: &str = "\
Examples:
  conform run                                   judge the bundled fixtures with the reference
  conform run fixtures ../shared/hapi/fixtures --impl-cmd 'python3 my_adapter.py'
  conform check-adapter --impl-cmd 'java -jar decoder-adapter.jar'
  conform CMD --help                            examples and exit codes of one command

Exit codes: 0 conformant, 1 conformance failures, 2 usage or setup error, 130 interrupted.
When the reader of stdout goes away (`conform list | head -1`), a command ends quietly with 0.";

/// `conform run`.
pub fn run() -> String {
    format!(
        "\
Examples:
  conform run                                            the bundled fixtures, reference implementation
  conform run fixtures ../shared/hapi/fixtures --suite chat --filter 'chat/claude-*'
  conform run --impl-cmd 'swift run -c release MyAdapter' --format junit --out reports
  conform run --impl-cmd 'conform adapter' --one-shot    one process per case
  conform run --baseline conform-baseline.toml --partition 2/4 --format json

{JUDGING_CODES}"
    )
}

/// `conform list`.
pub fn list() -> String {
    format!(
        "\
Examples:
  conform list                                   every fixture id under fixtures/
  conform list ../shared/hapi/fixtures --suite sse --paths-too

{TOOL_CODES}"
    )
}

/// `conform validate`.
pub fn validate() -> String {
    format!(
        "\
Examples:
  conform validate                               schema, name, version and form of fixtures/
  conform validate fixtures/chat/some-case.json

{TOOL_CODES}"
    )
}

/// `conform fmt`.
pub fn fmt() -> String {
    "\
Examples:
  conform fmt                                    rewrite fixtures/ in canonical bytes
  conform fmt --check fixtures ../shared/hapi/fixtures

Exit codes:
  0  every file is canonical (or was rewritten)
  1  --check: some file is not canonical (each is named)
  2  usage error, or a file that cannot be parsed (it is never touched)"
        .to_owned()
}

/// `conform decode`.
pub fn decode() -> String {
    format!(
        "\
Examples:
  conform decode --suite chat messages.json      a bare message list or a whole input part
  cat input.json | conform decode --suite sse -
  conform decode --suite chat --fixture-version 1 input.json   by the version 1 rules

{TOOL_CODES}"
    )
}

/// `conform capture`.
pub fn capture() -> String {
    format!(
        "{}
Examples:
  conform capture chat --from hapi-messages page-*.json session.json --window 20
  conform capture claude-events --from claude-stream-json run.jsonl --name-prefix cap-
  conform capture codex-exec-events --from codex-exec-jsonl exec.jsonl --out fixtures/codex-exec-events

{TOOL_CODES}",
        super::capture::formats_help()
    )
}

/// `conform review`.
pub fn review() -> String {
    "\
Examples:
  conform review                                 ask about each pending fixture under fixtures/
  conform review fixtures --accept-all
  conform review fixtures --accept 'chat/cap-*' --reject-all
  conform review fixtures --check                CI: fail when anything is pending

Exit codes:
  0  done (nothing pending, or everything decided)
  1  --check: pending fixtures exist
  2  usage or setup error"
        .to_owned()
}

/// `conform regen`.
pub fn regen() -> String {
    "\
Examples:
  conform regen --check fixtures                 the drift gate: fail when an expectation would move
  conform regen fixtures --suite chat            write the moved expectations as .json.new files

Exit codes:
  0  every expectation is reproduced (or was written for review)
  1  --check: an expectation would move, or the reference failed on an input
  2  usage or setup error, invalid fixtures"
        .to_owned()
}

/// `conform upgrade`.
pub fn upgrade() -> String {
    "\
Examples:
  conform upgrade --to 2 fixtures                write every fixture that can move as a version 2 .json.new
  conform upgrade --to 2 --check fixtures/chat   list what would be upgraded, recomputed or left, write nothing
  conform review fixtures                        then accept or reject the pending files

Exit codes:
  0  done: the upgradable fixtures were written for review (or listed with --check)
  2  usage or setup error, invalid fixtures (listed; the others are still written)"
        .to_owned()
}

/// `conform reduce`.
pub fn reduce() -> String {
    format!(
        "\
Examples:
  conform reduce fixtures/chat/long-capture.json --impl-cmd 'python3 my_adapter.py'
  conform reduce fixtures/chat/long-capture.json --impl-cmd 'java -jar a.jar' --max-tests 2000 --name small

{TOOL_CODES}"
    )
}

/// `conform explore`.
pub fn explore() -> String {
    "\
Examples:
  conform explore --impl-cmd 'python3 my_adapter.py'           10,000 inputs per suite, judged by the reference
  conform explore --impl-cmd 'swift run MyAdapter' --suite chat --time 5m -j 4
  conform explore --impl-cmd './new-build' --against-cmd './last-release'   two decoders, no reference
  conform explore --against-cmd 'java -jar decoder.jar' --seed 42            the reference under test
  conform explore --seed 42 --replay chat#1234                 print one generated input again
  conform review fixtures --list                               then review the pending explore-*.json.new

Exit codes:
  0  no divergence: every judged input agrees
  1  divergences found (clusters reported; pending fixtures written)
  2  usage or setup error: neither --impl-cmd nor --against-cmd, nothing to seed from, an implementation
     that cannot start
  130 interrupted by Ctrl-C (the reports cover the inputs that ran)"
        .to_owned()
}

/// `conform coverage`.
pub fn coverage() -> String {
    format!(
        "\
Examples:
  conform coverage fixtures ../shared/hapi/fixtures
  conform coverage fixtures --candidates fixtures/chat -v
  conform coverage --json fixtures

{TOOL_CODES}"
    )
}

/// `conform baseline`.
pub fn baseline() -> String {
    format!(
        "\
Examples:
  conform baseline write --from reports/conform-report.json > conform-baseline.toml
  conform baseline write --from reports/conform-report.json --baseline conform-baseline.toml --out new.toml
  conform baseline check conform-baseline.toml

{TOOL_CODES}"
    )
}

/// `conform baseline write`.
pub fn baseline_write() -> String {
    format!(
        "\
Examples:
  conform baseline write --from reports/conform-report.json > conform-baseline.toml
  conform baseline write --from reports/conform-report.json --baseline conform-baseline.toml --out new.toml

{TOOL_CODES}"
    )
}

/// `conform baseline check`.
pub fn baseline_check() -> String {
    format!(
        "\
Examples:
  conform baseline check conform-baseline.toml

{TOOL_CODES}"
    )
}

/// `conform compare`.
pub fn compare() -> String {
    "\
Examples:
  conform compare main-report.json pr-report.json
  conform compare main-report.json pr-report.json --format markdown > comment.md

Exit codes:
  0  no regression
  1  a case that passed before does not pass now
  2  usage error, unreadable reports"
        .to_owned()
}

/// `conform report`.
pub fn report() -> String {
    "\
Examples:
  conform report merge reports/shard-*/conform-report.json --out reports/merged
  conform report html swift.json kotlin.json --out matrix.html

Exit codes:
  0  done (merge: the merged run is conformant)
  1  merge: the merged run has conformance failures
  2  usage error, unreadable or incompatible reports"
        .to_owned()
}

/// `conform report merge`.
pub fn report_merge() -> String {
    "\
Examples:
  conform report merge reports/shard-*/conform-report.json --out reports/merged
  conform report merge shard-1.json shard-2.json --format json --format junit

Exit codes:
  0  the merged run is conformant
  1  the merged run has conformance failures
  2  usage error, unreadable or incompatible reports, or shards that do not add up to one whole
     selection (another --suite, --filter or tree, a missing shard, a shard missing cases)"
        .to_owned()
}

/// `conform report html`.
pub fn report_html() -> String {
    "\
Examples:
  conform report html reports/conform-report.json --out report.html
  conform report html swift.json kotlin.json --out matrix.html   one column per implementation

Exit codes:
  0  done
  2  usage error, unreadable or incompatible reports"
        .to_owned()
}

/// `conform adapter`.
pub fn adapter() -> String {
    "\
Examples:
  conform run --impl-cmd 'conform adapter'       the reference over the subprocess protocol
  CONFORM_SUITE=chat conform adapter < input.json  one-shot: one input part on stdin

Exit codes:
  0  the harness said bye, stdin closed or the harness stopped reading (one-shot: the case was decoded)
  1  one-shot: the case could not be decoded; or reading stdin or writing stdout failed"
        .to_owned()
}

/// `conform check-adapter`.
pub fn check_adapter() -> String {
    "\
Examples:
  conform check-adapter --impl-cmd 'python3 my_adapter.py'
  conform check-adapter --impl-cmd 'java -jar decoder-adapter.jar' fixtures --per-suite 5 --one-shot

Exit codes:
  0  no problem found (notes may remain)
  1  the adapter breaks the protocol: each problem is explained
  2  usage or setup error"
        .to_owned()
}
