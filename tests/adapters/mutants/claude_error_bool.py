#!/usr/bin/env python3
"""Planted mutant (claude-events): a tool_result's `is_error` is coerced to a
boolean (Python's bool()) instead of passed on as `block.is_error || false`,
so a truthy non-boolean flag comes out as true."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def rewrite_input(suite, case_input):
    changed = []

    def visit(node):
        if isinstance(node, dict) and node.get("type") == "tool_result" and "is_error" in node:
            flag = node["is_error"]
            if not isinstance(flag, bool) and flag:
                node["is_error"] = True
                changed.append(True)

    if suite == "claude-events":
        relay.walk(case_input, visit)
    return bool(changed)


relay.serve("mutant-claude-error-bool", rewrite_input=rewrite_input)
