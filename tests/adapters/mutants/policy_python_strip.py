#!/usr/bin/env python3
"""Planted mutant (tool-policy): the command is trimmed with Python's
whitespace set (str.strip) before the policy looks at it, so U+001C..U+001F
and U+0085 at its ends are removed, which JavaScript's trim keeps."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def rewrite_input(suite, case_input):
    command = case_input.get("command") if suite == "tool-policy" else None
    if not isinstance(command, str) or command.strip() == command:
        return False
    case_input["command"] = command.strip()
    return True


relay.serve("mutant-policy-python-strip", rewrite_input=rewrite_input)
