"""Wrap a decoder as a conform implementation: protocol v1, standard library only.

Usage, in your own script:

    from conform_adapter import serve, Skip

    def decode(suite, input, fixture_version):
        if suite == "chat":
            return my_package.decode_chat(input)      # a JSON-ready value
        raise Skip("not implemented yet")

    serve(decode, name="my-decoder", version="1.0.0", suites={"chat": [1]})

`serve` speaks the persistent protocol on stdin/stdout (hello, run, bye). When
the environment has CONFORM_SUITE (`conform run --one-shot`), it handles the one
case on stdin instead and prints its output. `decode` may raise `Skip(reason)`
to decline a case; any other exception answers the case with `error` (its
traceback goes to stderr, which conform attaches to the report).

stdout belongs to the protocol: while `serve` runs, `print()` writes to stderr.

Every request line other than hello and bye gets one result at once. A line this
module cannot read (not JSON, not an object, a run request without an integer
id, an unknown op) is answered with an `error` result carrying the id read from
the line's start (conform writes every run request as `{"op":"run","id":N,…`),
or 0 when it has none. Lone-surrogate escapes (`"a\\udc00b"`, which `conform
explore` sends) are read by `json` as lone surrogates in a `str` and written
back as `\\udc00` escapes.
"""

import json
import os
import re
import sys
import traceback

__all__ = ["Skip", "serve"]

PROTOCOL = 1


class Skip(Exception):
    """Raised by a decode function to decline a case (verdict `skipped`)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = str(reason)


def serve(decode, *, name, version, suites, language="python"):
    """Serves `decode` until bye (persistent mode) or for one case (one-shot mode)."""
    if "CONFORM_SUITE" in os.environ:
        sys.exit(_one_shot(decode))
    sys.exit(_persistent(decode, name, version, language, suites))


def _encode(message):
    # ensure_ascii keeps lone surrogates and non-BMP text intact as \u escapes;
    # allow_nan=False refuses NaN and Infinity, which are not JSON.
    return json.dumps(message, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii") + b"\n"


# How conform starts every run request line: the id comes before the input.
_REQUEST_START = re.compile(rb'\s*\{\s*"op"\s*:\s*"run"\s*,\s*"id"\s*:\s*(\d{1,15})(?=[\s,}])')


def _is_integer(value):
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


def _unreadable(raw, why):
    """The error result for a request line this module cannot read."""
    print(f"conform_adapter: cannot read a request: {why}", file=sys.stderr)
    sys.stderr.flush()
    start = _REQUEST_START.match(raw)
    # 0 is an id conform never uses: the case in flight becomes a protocol error at once.
    ident = int(start.group(1)) if start else 0
    return {"op": "result", "id": ident, "error": f"the adapter could not read the request: {why}"}


def _persistent(decode, name, version, language, suites):
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol

    def send(line):
        stdout.write(line)
        stdout.flush()

    for raw in stdin:
        if not raw.strip():
            continue
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
            send(_encode(_unreadable(raw, f"the line is not JSON: {type(err).__name__}: {err}")))
            continue
        if not isinstance(message, dict):
            send(_encode(_unreadable(raw, "the line is not a JSON object")))
            continue
        op = message.get("op")
        if op == "hello":
            send(_encode({
                "op": "hello",
                "protocol": PROTOCOL,
                "implementation": {"name": name, "version": version, "language": language},
                "suites": suites,
            }))
        elif op == "bye":
            return 0
        elif op == "run" and _is_integer(message.get("id")):
            send(_answer(decode, message))
        elif op == "run":
            send(_encode(_unreadable(raw, "the run request has no integer id")))
        else:
            send(_encode(_unreadable(raw, f"unknown op {op!r}" if isinstance(op, str) else "the message has no op")))
    return 0


def _answer(decode, message):
    """The encoded result line for a run request with an integer id."""
    ident = int(message["id"])
    try:
        if not all(key in message for key in ("suite", "input", "fixtureVersion")):
            raise ValueError("the run request lacks suite, fixtureVersion or input")
        output = decode(message["suite"], message["input"], message["fixtureVersion"])
        # Encoded here, so an output that is not JSON is this case's error rather than a crash.
        return _encode({"op": "result", "id": ident, "output": output})
    except Skip as skip:
        return _encode({"op": "result", "id": ident, "skipped": skip.reason})
    except Exception as err:  # the decoder failed on this case: an `error` verdict, not a crash
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        reply = {"op": "result", "id": ident, "error": f"{type(err).__name__}: {err}"}
        try:
            return _encode(reply)
        except ValueError:
            reply["error"] = type(err).__name__
            return _encode(reply)


def _one_shot(decode):
    suite = os.environ["CONFORM_SUITE"]
    fixture_version = int(os.environ.get("CONFORM_FIXTURE_VERSION", "1"))
    input_value = json.loads(sys.stdin.buffer.read())
    real_stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        output = decode(suite, input_value, fixture_version)
        real_stdout.write(_encode(output))
        real_stdout.flush()
        return 0
    except Skip as skip:
        print(f"skipped: {skip.reason}", file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc(file=sys.stderr)
        return 1
