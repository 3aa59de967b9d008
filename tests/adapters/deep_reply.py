#!/usr/bin/env python3
"""A protocol v1 implementation that answers every chat case with a small
but deeply nested reply: `{"blocks": [[[…"x"…]]]}` nested LEVELS levels
(default 9,990: with the reply's envelope, just within the parser's 10,000).

usage: deep_reply.py [LEVELS]

About 20 KB a case; written indented, such a value once took hundreds of
megabytes of report.
"""

import json
import sys

levels = int(sys.argv[1]) if len(sys.argv) > 1 else 9_990
body = b"[" * levels + b'"x"' + b"]" * levels

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
            "implementation": {"name": "deep-reply", "version": "1", "language": "python"},
            "suites": {"chat": [1]},
        }))
    elif op == "run":
        out.write(b'{"op":"result","id":' + json.dumps(message["id"]).encode("utf-8") + b',"output":{"blocks":')
        out.write(body)
        out.write(b"}}\n")
        out.flush()
    elif op == "bye":
        break
