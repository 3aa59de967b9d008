#!/usr/bin/env python3
"""Relays protocol v1 to the reference (`conform adapter`, the binary given
as the first argument) and appends every `run` request it receives, as
received, to the file named by the second argument: the tests read back
exactly what the harness told the implementation.
"""

import json
import subprocess
import sys

reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
record = open(sys.argv[2], "ab")
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "run":
        record.write(raw if raw.endswith(b"\n") else raw + b"\n")
        record.flush()
    reference.stdin.write(raw if raw.endswith(b"\n") else raw + b"\n")
    reference.stdin.flush()
    if op == "bye":
        break
    if op in ("hello", "run"):
        sys.stdout.buffer.write(reference.stdout.readline())
        sys.stdout.buffer.flush()
reference.stdin.close()
reference.wait()
