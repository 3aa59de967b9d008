#!/usr/bin/env python3
"""Planted mutant (pagination): when two rows tie on `at` and only one of
them has a numeric `seq`, the row without one goes first (its missing seq
read as 0) instead of the tie being broken by id. The fixtures never tie a
row with a seq against one without at the same position, so they all
pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def at(row):
    return row.get("invokedAt") if number(row.get("invokedAt")) else row.get("createdAt")


def rewrite_output(suite, case_input, output):
    state = output.get("expectedState") if suite == "pagination" and isinstance(output, dict) else None
    rows = state.get("messages") if isinstance(state, dict) else None
    if not isinstance(rows, list):
        return False
    changed = False
    for i in range(len(rows) - 1):
        a, b = rows[i], rows[i + 1]
        if not (isinstance(a, dict) and isinstance(b, dict)) or at(a) != at(b):
            continue
        if number(a.get("seq")) and not number(b.get("seq")):
            rows[i], rows[i + 1] = b, a
            changed = True
    return changed


relay.serve("mutant-pagination-tie", rewrite_output=rewrite_output)
