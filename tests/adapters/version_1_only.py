#!/usr/bin/env python3
"""An implementation of fixtureVersion 1 only, for the version tests: it
relays protocol v1 to the reference (`conform adapter`, the binary given as
the first argument) and answers every case the same way, but its hello
declares only fixtureVersion 1 of each suite, as a decoder that has not
caught up with version 2 would. The harness must then give its version 2
cases `unsupported` and never send them.
"""

import json
import subprocess
import sys

reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "run" and message.get("fixtureVersion") != 1:
        # The harness must never ask: say so loudly instead of answering.
        sys.stderr.write("version_1_only.py: asked for fixtureVersion %r\n" % message.get("fixtureVersion"))
        sys.exit(3)
    reference.stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    reference.stdin.flush()
    if op == "bye":
        break
    if op in ("hello", "run"):
        reply = reference.stdout.readline()
        if op == "hello":
            hello = json.loads(reply)
            hello["implementation"] = {"name": "version-1-only", "version": "1", "language": "python"}
            hello["suites"] = {suite: [1] for suite, versions in hello["suites"].items() if 1 in versions}
            reply = json.dumps(hello, separators=(",", ":")).encode("utf-8") + b"\n"
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
reference.stdin.close()
reference.wait()
