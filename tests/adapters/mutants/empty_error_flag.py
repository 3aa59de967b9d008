#!/usr/bin/env python3
"""Planted mutant (chat): a tool result (Claude `tool_result` or Codex
`tool-call-result`) whose `is_error` is the empty string is an error, where
the reference (like JavaScript, where `''` is falsy) completes the tool: a
decoder testing the flag for presence instead of truthiness. It bends
`reduce.tool.result-completed` only, by giving the reference `true` for such
a flag; no fixture has an empty `is_error`, so they all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def empty_flag_made_true(result):
    if isinstance(result, dict) and result.get("is_error") == "":
        result["is_error"] = True
        return True
    return False


def rewrite_input(suite, case_input):
    """Only where the reference reads the flag: a Codex `tool-call-result`
    payload and a `tool_result` block of a Claude output message (an
    unknown payload type holding one is stringified with its flag as is)."""
    if suite != "chat":
        return False
    changed = []

    def visit(node):
        if not isinstance(node, dict):
            return
        data = node.get("data")
        if not isinstance(data, dict):
            return
        if node.get("type") == "codex" and data.get("type") == "tool-call-result":
            changed.append(empty_flag_made_true(data))
        elif node.get("type") == "output":
            message = data.get("message")
            blocks = message.get("content") if isinstance(message, dict) else None
            for block in blocks if isinstance(blocks, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    changed.append(empty_flag_made_true(block))

    relay.walk(case_input, visit)
    return any(changed)


relay.serve("mutant-empty-error-flag", rewrite_input=rewrite_input)
