#!/usr/bin/env python3
"""A one-shot implementation that misbehaves on purpose, for the tests.

It reads the case's input from stdin and prints the answer for
$CONFORM_FIXTURE from the answers file given as the first argument. The
second argument maps fixtures to faults, `case-01:exit1,case-02:signal,…`:
exit1, signal, hang, garbage, huge (2 MiB of stdout), silent (exit 0,
nothing on stdout), detach (print the answer, leave a grandchild in a session
of its own holding stdout and stderr, exit 0), detach-exit1 (the same, but
write to stderr and exit 1 instead of answering). A grandchild's pid is
appended to $CONFORM_TEST_GRANDCHILD_PIDFILE, if set.
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



def leave_grandchild():
    """Forks a process out of the group that holds the pipes for two minutes."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        time.sleep(120)
        os._exit(0)
    if os.environ.get("CONFORM_TEST_GRANDCHILD_PIDFILE"):
        with open(os.environ["CONFORM_TEST_GRANDCHILD_PIDFILE"], "a", encoding="utf-8") as f:
            f.write(str(pid) + "\n")


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
    if fault == "detach":
        print(json.dumps(answers[fixture]), flush=True)
        leave_grandchild()
        sys.exit(0)
    if fault == "detach-exit1":
        sys.stderr.write("decoder: cannot decode " + fixture + " (a helper stays)\n")
        sys.stderr.flush()
        leave_grandchild()
        sys.exit(1)

print(json.dumps(answers[fixture]))
