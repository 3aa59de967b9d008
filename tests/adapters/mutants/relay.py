"""The shared part of the planted decoder mutants: a protocol v1 relay to
the reference (`conform adapter`, the binary given as the first argument)
that lets a mutant rewrite each case's input before the reference sees it
and each output after. A mutant is then the reference with one rule wrong.

Lines pass through untouched unless a rewrite changes something, so the
relay itself changes no number, key order or escape.
"""

import json
import subprocess
import sys


def encode(message):
    # ensure_ascii keeps lone surrogates as \\uXXXX escapes, as the harness writes them.
    return json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"


def walk(value, visit):
    """Calls visit(node) on every object and array below value, depth first."""
    stack = [value]
    while stack:
        node = stack.pop()
        visit(node)
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def serve(name, rewrite_input=None, rewrite_output=None):
    """Relays protocol v1 on stdin/stdout. rewrite_input(suite, input) and
    rewrite_output(suite, input, output) change their argument in place and
    return True when they changed something."""
    reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        op = message.get("op")
        original = None
        if op == "run" and rewrite_input is not None:
            original = json.loads(raw)["input"]
            if rewrite_input(message["suite"], message["input"]):
                raw = encode(message)
        reference.stdin.write(raw if raw.endswith(b"\n") else raw + b"\n")
        reference.stdin.flush()
        if op == "bye":
            break
        if op not in ("hello", "run"):
            continue
        reply = reference.stdout.readline()
        if op == "hello":
            hello = json.loads(reply)
            hello["implementation"] = {"name": name, "version": "1", "language": "python"}
            reply = encode(hello)
        elif rewrite_output is not None:
            answer = json.loads(reply)
            if "output" in answer:
                case_input = original if original is not None else message["input"]
                if rewrite_output(message["suite"], case_input, answer["output"]):
                    reply = encode(answer)
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
    reference.stdin.close()
    reference.wait()
