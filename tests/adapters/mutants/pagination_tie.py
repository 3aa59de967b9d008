#!/usr/bin/env python3
"""Planted mutant (pagination): rows that tie in display order (same
createdAt, and the same or a missing seq) are ordered by id descending
instead of ascending. The fixtures never tie, so they all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def ties(a, b):
    if not (isinstance(a, dict) and isinstance(b, dict)) or a.get("createdAt") != b.get("createdAt"):
        return False
    return a.get("seq") is None or b.get("seq") is None or a.get("seq") == b.get("seq")


def utf16(text):
    return str(text).encode("utf-16-be", "surrogatepass")


def rewrite_output(suite, case_input, output):
    state = output.get("expectedState") if suite == "pagination" else None
    rows = state.get("messages") if isinstance(state, dict) else None
    if not isinstance(rows, list):
        return False
    changed = False
    for i in range(len(rows) - 1):
        a, b = rows[i], rows[i + 1]
        if ties(a, b) and utf16(a.get("id")) < utf16(b.get("id")):
            rows[i], rows[i + 1] = b, a
            changed = True
    return changed


relay.serve("mutant-pagination-tie", rewrite_output=rewrite_output)
