#!/usr/bin/env python3
"""A chat decoder with one bug, for the reduce tests: it ignores the
`is_error` flag of Claude tool_result blocks, so failed tool calls show as
completed. Everything else is decoded right: it relays protocol v1 to the
reference (`conform adapter`, the binary given as the first argument) after
removing that flag from each case's input.
"""

import json
import subprocess
import sys


def strip_is_error(value):
    if isinstance(value, dict):
        if value.get("type") == "tool_result":
            value.pop("is_error", None)
        for member in value.values():
            strip_is_error(member)
    elif isinstance(value, list):
        for item in value:
            strip_is_error(item)


reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "run":
        strip_is_error(message.get("input"))
    reference.stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    reference.stdin.flush()
    if op == "bye":
        break
    if op in ("hello", "run"):
        reply = reference.stdout.readline()
        if op == "hello":
            hello = json.loads(reply)
            hello["implementation"] = {"name": "drops-tool-errors", "version": "1", "language": "python"}
            reply = json.dumps(hello, separators=(",", ":")).encode("utf-8") + b"\n"
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
reference.stdin.close()
reference.wait()
