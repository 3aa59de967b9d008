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
"""

import json
import os
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


def _persistent(decode, name, version, language, suites):
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol

    def send(message):
        stdout.write(_encode(message))
        stdout.flush()

    for raw in stdin:
        if not raw.strip():
            continue
        try:
            message = json.loads(raw)
        except ValueError as err:
            print(f"conform_adapter: skipping a line that is not JSON: {err}", file=sys.stderr)
            continue
        op = message.get("op")
        if op == "hello":
            send({
                "op": "hello",
                "protocol": PROTOCOL,
                "implementation": {"name": name, "version": version, "language": language},
                "suites": suites,
            })
        elif op == "run":
            send(_answer(decode, message))
        elif op == "bye":
            return 0
    return 0


def _answer(decode, message):
    ident = message["id"]
    try:
        output = decode(message["suite"], message["input"], message["fixtureVersion"])
        return {"op": "result", "id": ident, "output": output}
    except Skip as skip:
        return {"op": "result", "id": ident, "skipped": skip.reason}
    except Exception as err:  # the decoder failed on this case: an `error` verdict, not a crash
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        reply = {"op": "result", "id": ident, "error": f"{type(err).__name__}: {err}"}
        try:
            _encode(reply)
        except ValueError:
            reply["error"] = type(err).__name__
        return reply


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
