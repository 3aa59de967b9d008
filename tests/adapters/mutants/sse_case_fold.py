#!/usr/bin/env python3
"""Planted mutant (sse): a flat patch member is compared with the cached
session's value case-insensitively (Python's str.lower() on both sides), so a
patch that only changes letter case (`"Plan"` over `"plan"`) is `unchanged`
and the session keeps the old spelling; JavaScript's === tells them apart."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def rewrite_input(suite, case_input):
    session = case_input.get("initialSession") if suite == "sse" else None
    patches = case_input.get("patches")
    if not isinstance(session, dict) or not isinstance(patches, list):
        return False
    changed = False
    for patch in patches:
        if not isinstance(patch, dict):
            continue
        for key, value in patch.items():
            cached = session.get(key)
            if isinstance(value, str) and isinstance(cached, str) and value != cached and value.lower() == cached.lower():
                patch[key] = cached
                changed = True
    return changed


relay.serve("mutant-sse-case-fold", rewrite_input=rewrite_input)
