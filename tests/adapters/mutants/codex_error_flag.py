#!/usr/bin/env python3
"""Planted mutant (chat): a Codex `tool-call-result` whose `is_error` is the
boolean true is shown as completed. Truthy strings still fail the call, so
the fixtures (which pin `"is_error": "false"` and `false`) all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def rewrite_input(suite, case_input):
    changed = []

    def visit(node):
        if isinstance(node, dict) and node.get("type") == "tool-call-result" and node.get("is_error") is True:
            del node["is_error"]
            changed.append(True)

    if suite == "chat":
        relay.walk(case_input, visit)
    return bool(changed)


relay.serve("mutant-codex-error-flag", rewrite_input=rewrite_input)
