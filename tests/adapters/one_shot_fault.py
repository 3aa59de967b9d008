#!/usr/bin/env python3
"""A one-shot implementation that misbehaves on purpose, for the tests.

It reads the case's input from stdin and prints the answer for
$CONFORM_FIXTURE from the answers file given as the first argument. The
second argument maps fixtures to faults, `case-01:exit1,case-02:signal,…`:
exit1, signal, hang, garbage, huge (2 MiB of stdout), silent (exit 0,
nothing on stdout).
"""

import json
import os
import signal
import sys
import time

answers_path = sys.argv[1]
faults = dict(item.split(":") for item in sys.argv[2].split(",") if item)
with open(answers_path, encoding="utf-8") as f:
    answers = json.load(f)
json.load(sys.stdin)
fixture = os.environ["CONFORM_FIXTURE"]
assert os.environ["CONFORM_SUITE"] == "chat"
assert os.environ["CONFORM_FIXTURE_VERSION"] == "1"

fault = faults.get(fixture)
if fault:
    if fault == "exit1":
        sys.stderr.write("decoder: cannot decode " + fixture + "\n")
        sys.exit(1)
    if fault == "signal":
        sys.stderr.write("decoder: about to crash\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if fault == "hang":
        time.sleep(3600)
    if fault == "garbage":
        print("decoded OK:")
    if fault == "huge":
        sys.stdout.write('"' + "x" * (2 << 20) + '"')
        sys.exit(0)
    if fault == "silent":
        sys.exit(0)

print(json.dumps(answers[fixture]))
