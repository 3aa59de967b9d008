#!/usr/bin/env python3
"""A protocol v1 implementation that prints credentials to stderr during
every case and names one in its error message, as a careless adapter that
logs its environment would: none of them may reach a report.

usage: chatty.py
"""

import json
import sys

GITHUB = "ghp_R8kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh8Jk2Z"
ANTHROPIC = "sk-ant-api03-Qm7Zt2Lx9Vb4Nc8Rk1Hs6Jd3Fw5Gy0PaQm7Zt2Lx9"

out = sys.stdout.buffer


def send(value):
    out.write(json.dumps(value).encode("utf-8") + b"\n")
    out.flush()


for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "hello":
        send({
            "op": "hello",
            "protocol": 1,
            "implementation": {"name": "chatty", "version": "1", "language": "python"},
            "suites": {"chat": [1]},
        })
    elif op == "run":
        sys.stderr.write(f"env: GITHUB_TOKEN={GITHUB}\nANTHROPIC_API_KEY={ANTHROPIC} loaded\n")
        sys.stderr.flush()
        send({"op": "result", "id": message["id"], "error": f"could not decode with key {ANTHROPIC}"})
    elif op == "bye":
        break
