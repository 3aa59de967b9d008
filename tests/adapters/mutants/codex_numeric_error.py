#!/usr/bin/env python3
"""Planted mutant (chat): a Codex `tool-call-result` whose `is_error` is a
number is shown as completed. The decoder tests `is_error` for `true` and for
a non-empty string, not for JavaScript truthiness, so a non-zero number (1,
-1, 1.5) no longer fails the call. The fixtures pin booleans and strings
only, so they all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def is_truthy_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


def rewrite_input(suite, case_input):
    changed = []

    def visit(node):
        if isinstance(node, dict) and node.get("type") == "tool-call-result" and is_truthy_number(node.get("is_error")):
            del node["is_error"]
            changed.append(True)

    if suite == "chat":
        relay.walk(case_input, visit)
    return bool(changed)


if __name__ == "__main__":
    relay.serve("mutant-codex-numeric-error", rewrite_input=rewrite_input)
