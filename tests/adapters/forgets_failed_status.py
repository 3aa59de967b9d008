#!/usr/bin/env python3
"""A message-window implementation with one bug, for the reduce tests: it
forgets the client status of rows appended as `failed`, so a failed send is
still queued. Everything else is right: it relays protocol v1 to the
reference (`conform adapter`, the binary given as the first argument) after
removing that status from each pagination case's input.
"""

import json
import subprocess
import sys


def forget_failed_status(case_input):
    for op in case_input.get("ops", []):
        message = op.get("message") if isinstance(op, dict) else None
        if op.get("op") == "append-optimistic" and isinstance(message, dict) and message.get("status") == "failed":
            message.pop("status")


reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "run" and message.get("suite") == "pagination" and isinstance(message.get("input"), dict):
        forget_failed_status(message["input"])
    reference.stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    reference.stdin.flush()
    if op == "bye":
        break
    if op in ("hello", "run"):
        reply = reference.stdout.readline()
        if op == "hello":
            hello = json.loads(reply)
            hello["implementation"] = {"name": "forgets-failed-status", "version": "1", "language": "python"}
            reply = json.dumps(hello, separators=(",", ":")).encode("utf-8") + b"\n"
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
reference.stdin.close()
reference.wait()
