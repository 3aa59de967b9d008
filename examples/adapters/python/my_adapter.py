#!/usr/bin/env python3
"""A complete conform adapter in Python: copy this file and conform_adapter.py
next to your decoder and replace the body of `decode`.

    conform run fixtures --impl-cmd 'python3 my_adapter.py'             # persistent (fast)
    conform run fixtures --impl-cmd 'python3 my_adapter.py' --one-shot  # one process per case
    conform check-adapter --impl-cmd 'python3 my_adapter.py'            # protocol smoke test

As shipped, `decode` asks conform's own reference (reference_decoder.py), so
every case passes and the wiring can be tried before any decoder exists.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conform_adapter import Skip, serve  # noqa: E402
import reference_decoder  # noqa: E402

# The suites this adapter implements, with the fixtureVersions of each, e.g.
# {"chat": [1, 2], "sse": [1, 2]} (declare 2 once the decoder follows HAPI's
# fixtureVersion 2). Cases of other suites or versions are reported as
# `unsupported` and never sent; fixture_version says which rules a case wants.
# As shipped: every suite and version the stand-in reference implements.
SUITES = reference_decoder.suites()


def decode(suite, input_value, fixture_version):
    """Maps a case's input part to its output (the suite's expected part).

    suite: a suite name from SUITES ("chat", "sse", …, "runtime-session"; the
    input and expected parts of each are in docs/suites.md and the suite's
    README: for "runtime-session" the input is the script {runtime,
    clientInfo?, steps} and the output {steps: [{expectedWrites,
    expectedEvents}], expectedState}); input_value: the parsed JSON input
    part; fixture_version: an int. Return a JSON-ready value, raise
    Skip("reason") to decline, or let any exception become an `error` verdict.
    """
    if suite not in SUITES:
        raise Skip(f"suite {suite} is not wired in yet")
    # Replace this line with a call into your decoder, for example:
    #     return my_decoder.project_chat(input_value["messages"], input_value.get("agentState"))
    return reference_decoder.decode(suite, input_value, fixture_version)


if __name__ == "__main__":
    serve(decode, name="example-python", version="1.0.0", language="python", suites=SUITES)
