#!/usr/bin/env python3
"""A protocol v1 implementation that misbehaves on purpose, for the tests.

It answers every case from an answers file (fixture name -> expected output),
so every case passes, except the one named by --on (default "case-03"; "*"
names every case), where it commits the fault named by --fault:

  none          behave
  crash         write to stderr, then exit with status 3 (no reply)
  crash-ansi    the same, with terminal escape sequences and a carriage return in stderr
  hang          never reply
  garbage       print a line that is not JSON, then the reply
  wrong-id      reply with an id the harness never sent
  twice         reply twice
  no-hello      never send the hello (answer runs anyway)
  exit0         exit with status 0 without replying
  stderr-flood  write 10 MiB to stderr, then reply with an error
  long-line     write a 100 MiB line, then the reply
  no-read       send the hello, then never read stdin again
  skip          reply `skipped`
  no-newline    write the reply without its newline, then wait
  fork-exit     fork a grandchild that keeps stdout open, then exit with status 3
  detach-exit   the same, with the grandchild in a session (and process group) of its own
  slow-bye      take 3 s to exit after bye
  stay          keep running after bye
  slow          take 0.4 s over every case (a run that lasts, for the progress display)

--declare SUITE:VERSION,... replaces the suites declared in the hello.
A grandchild's pid is appended to $CONFORM_TEST_GRANDCHILD_PIDFILE, if set, and
the fixture a `hang` starts hanging on to $CONFORM_TEST_HANG_FILE, if set.
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
parser.add_argument("--declare", default="chat:1,sse:1,pagination:1,catalogs:1")
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


def leave_grandchild(detach):
    """Forks a process that holds this one's pipes for two minutes."""
    pid = os.fork()
    if pid == 0:
        if detach:
            os.setsid()
        time.sleep(120)
        os._exit(0)
    if os.environ.get("CONFORM_TEST_GRANDCHILD_PIDFILE"):
        with open(os.environ["CONFORM_TEST_GRANDCHILD_PIDFILE"], "a", encoding="utf-8") as f:
            f.write(str(pid) + "\n")


def hello():
    send({
        "op": "hello",
        "protocol": 1,
        "implementation": {"name": "fault-" + args.fault, "version": "1", "language": "python"},
        "suites": {suite: [int(version)] for suite, version in (item.split(":") for item in args.declare.split(","))},
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
        if args.fault == "slow-bye":
            time.sleep(3)
        elif args.fault == "stay":
            time.sleep(3600)
        sys.exit(0)
    if op != "run":
        continue
    ident = message["id"]
    reply = {"op": "result", "id": ident, "output": answers.get(message["fixture"])}
    if args.fault == "slow":
        time.sleep(0.4)
    if args.on != "*" and message["fixture"] != args.on:
        send(reply)
        continue
    fault = args.fault
    if fault == "crash":
        sys.stderr.write("decoder: fatal error in " + message["fixture"] + "\n")
        sys.stderr.flush()
        sys.exit(3)
    elif fault == "crash-ansi":
        sys.stderr.write("\x1b[31mdecoder: fatal\x1b[0m 50%\rdone\n")
        sys.stderr.flush()
        sys.exit(3)
    elif fault == "hang":
        # Lets a test wait for the hang instead of guessing how long it takes to come.
        if os.environ.get("CONFORM_TEST_HANG_FILE"):
            with open(os.environ["CONFORM_TEST_HANG_FILE"], "a", encoding="utf-8") as f:
                f.write(message["fixture"] + "\n")
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
    elif fault in ("fork-exit", "detach-exit"):
        leave_grandchild(fault == "detach-exit")
        sys.stderr.write("decoder: leaving a helper behind\n")
        sys.stderr.flush()
        sys.exit(3)
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
    elif fault == "no-newline":
        out.write(json.dumps(reply).encode("utf-8"))
        out.flush()
        time.sleep(3600)
    elif fault == "skip":
        send({"op": "result", "id": ident, "skipped": "not implemented yet"})
    else:
        send(reply)
