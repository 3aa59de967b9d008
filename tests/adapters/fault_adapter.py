#!/usr/bin/env python3
"""A protocol v1 implementation that misbehaves on purpose, for the tests.

It answers every case from an answers file (fixture name -> expected output),
so every case passes, except the one named by --on (default "case-03"),
where it commits the fault named by --fault:

  none          behave
  crash         write to stderr, then exit with status 3 (no reply)
  hang          never reply
  garbage       print a line that is not JSON, then the reply
  wrong-id      reply with an id the harness never sent
  twice         reply twice
  no-hello      never send the hello (answer runs anyway)
  exit0         exit with status 0 without replying
  stderr-flood  write 10 MiB to stderr, then reply with an error
  long-line     write a 100 MiB line, then the reply
  no-read       send the hello, then never read stdin again
"""

import argparse
import json
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--fault", default="none")
parser.add_argument("--on", default="case-03")
parser.add_argument("--answers", required=True)
args = parser.parse_args()

with open(args.answers, encoding="utf-8") as f:
    answers = json.load(f)

out = sys.stdout.buffer

# Lets a test check that the harness killed this process.
if os.environ.get("CONFORM_TEST_PIDFILE"):
    with open(os.environ["CONFORM_TEST_PIDFILE"], "a", encoding="utf-8") as f:
        f.write(str(os.getpid()) + "\n")


def send(message):
    out.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    out.flush()


def hello():
    send({
        "op": "hello",
        "protocol": 1,
        "implementation": {"name": "fault-" + args.fault, "version": "1", "language": "python"},
        "suites": {"chat": [1], "sse": [1], "pagination": [1], "catalogs": [1]},
    })


if args.fault == "no-read":
    hello()
    time.sleep(3600)

for raw in sys.stdin.buffer:
    message = json.loads(raw)
    op = message.get("op")
    if op == "hello":
        if args.fault != "no-hello":
            hello()
        continue
    if op == "bye":
        sys.exit(0)
    if op != "run":
        continue
    ident = message["id"]
    reply = {"op": "result", "id": ident, "output": answers.get(message["fixture"])}
    if message["fixture"] != args.on:
        send(reply)
        continue
    fault = args.fault
    if fault == "crash":
        sys.stderr.write("decoder: fatal error in " + message["fixture"] + "\n")
        sys.stderr.flush()
        sys.exit(3)
    elif fault == "hang":
        time.sleep(3600)
    elif fault == "garbage":
        out.write(b"Loading model weights... done\n")
        out.flush()
        send(reply)
    elif fault == "wrong-id":
        reply["id"] = ident + 1000
        send(reply)
    elif fault == "twice":
        send(reply)
        send(reply)
    elif fault == "exit0":
        sys.exit(0)
    elif fault == "stderr-flood":
        chunk = ("e" * 1023 + "\n") * 1024
        for _ in range(10):
            sys.stderr.write(chunk)
        sys.stderr.write("decoder: gave up after logging 10 MiB\n")
        sys.stderr.flush()
        send({"op": "result", "id": ident, "error": "the decoder gave up"})
    elif fault == "long-line":
        out.write(b'{"op":"result","id":' + str(ident).encode() + b',"output":"')
        block = b"x" * (1 << 20)
        for _ in range(100):
            out.write(block)
        out.write(b'"}\n')
        out.flush()
        send(reply)
    else:
        send(reply)
