#!/usr/bin/env python3
"""A protocol v1 implementation that answers every chat case with one huge
array, for measuring what a valid but enormous reply costs the harness.

usage: huge_reply.py MEGABYTES [strings|numbers]

The reply's `output` is `{"blocks": [...]}` holding MEGABYTES MB of
64-character strings (about 15,000 strings per MB), or with `numbers` of
one-digit numbers (500,000 per MB, the costliest text to parse), written
as one line.
"""

import json
import sys

megabytes = float(sys.argv[1])
if len(sys.argv) > 2 and sys.argv[2] == "numbers":
    item = b"7"
else:
    item = b'"' + b"x" * 64 + b'"'
count = int(megabytes * 1_000_000 / (len(item) + 1))
# Built as one bytes object by repetition (no list, no copies), so that
# this process stays far smaller than the harness it measures: a
# measurement of the harness with `/usr/bin/time` also counts the largest
# of its children.
body = (item + b",") * (count - 1)

out = sys.stdout.buffer


def send(text):
    out.write(text.encode("utf-8") + b"\n")
    out.flush()


for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "hello":
        send(json.dumps({
            "op": "hello",
            "protocol": 1,
            "implementation": {"name": "huge-reply", "version": "1", "language": "python"},
            "suites": {"chat": [1]},
        }))
    elif op == "run":
        out.write(b'{"op":"result","id":' + json.dumps(message["id"]).encode("utf-8") + b',"output":{"blocks":[')
        out.write(body)
        out.write(item + b"]}}\n")
        out.flush()
    elif op == "bye":
        break
