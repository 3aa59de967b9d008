"""A stand-in decoder for the examples: asks conform's own reference
implementations, through `conform adapter`, for each output.

It shows the adapter end to end before your decoder is wired in, and how to
wrap a decoder that runs in another process. The conform binary is taken from
$CONFORM_BIN, else `conform` on PATH, else this repository's target/ folder.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

_child = None
_next_id = 0
_suites = {}


class DecodeError(Exception):
    """The reference answered the case with an error."""


def _conform_binary():
    if os.environ.get("CONFORM_BIN"):
        return os.environ["CONFORM_BIN"]
    found = shutil.which("conform")
    if found:
        return found
    # examples/adapters/python/ inside a clone of conform; a copy elsewhere
    # finds no build and says so below.
    parents = Path(__file__).resolve().parents
    repo = parents[3] if len(parents) > 3 else parents[-1]
    built = [repo / "target" / profile / "conform" for profile in ("release", "debug")]
    built = [path for path in built if path.is_file()]
    if built:
        # The most recent build, release or debug.
        return str(max(built, key=lambda path: path.stat().st_mtime))
    raise RuntimeError("conform binary not found: set CONFORM_BIN or put conform on PATH")


def _exchange(message):
    _child.stdin.write(json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n")
    _child.stdin.flush()
    line = _child.stdout.readline()
    if not line:
        raise RuntimeError("conform adapter exited")
    return json.loads(line)


def _start():
    global _child, _suites
    # In one-shot mode this process sees CONFORM_SUITE & co.; `conform adapter`
    # must not, or it would take them as its own one-shot case.
    env = {key: value for key, value in os.environ.items() if not key.startswith("CONFORM_")}
    _child = subprocess.Popen(
        [_conform_binary(), "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    hello = _exchange({"op": "hello", "protocol": 1, "harness": {"name": "reference_decoder.py", "version": "1"}})
    if hello.get("op") != "hello":
        raise RuntimeError(f"conform adapter said {hello!r} instead of hello")
    _suites = hello["suites"]


def suites():
    """The suites the reference implements, with their fixtureVersions."""
    if _child is None:
        _start()
    return dict(_suites)


def decode(suite, input_value, fixture_version):
    """The reference's output for one case; raises DecodeError for its errors."""
    global _next_id
    if _child is None:
        _start()
    _next_id += 1
    reply = _exchange({
        "op": "run", "id": _next_id, "suite": suite, "fixture": "", "fixtureVersion": fixture_version,
        "input": input_value,
    })
    if "output" in reply:
        return reply["output"]
    raise DecodeError(reply.get("error") or reply.get("skipped") or "no output")
