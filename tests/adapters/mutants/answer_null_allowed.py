#!/usr/bin/env python3
"""Planted mutant (codex-app-server-events): a client's answer whose
`decision` is neither a string nor an object (null, a number, a boolean, a
list) gives `permission_resolved` with `"allowed": null` where the reference
leaves `allowed` out (`app-server.approval.answer-unreadable`): a decoder
with a nullable boolean that writes its nulls. The fixtures' unreadable
answers are strings, so they all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def unreadable_non_string(frame):
    client = frame.get("client") if isinstance(frame, dict) else None
    result = client.get("result") if isinstance(client, dict) else None
    if not isinstance(result, dict) or "decision" not in result:
        return False
    return not isinstance(result["decision"], (str, dict))


def rewrite_output(suite, case_input, output):
    if suite != "codex-app-server-events" or not isinstance(output, dict):
        return False
    frames = case_input.get("frames") if isinstance(case_input, dict) else None
    events, dispositions = output.get("events"), output.get("dispositions")
    if not (isinstance(frames, list) and isinstance(events, list) and isinstance(dispositions, list)):
        return False
    changed = False
    for frame, disposition in zip(frames, dispositions):
        if not unreadable_non_string(frame) or not isinstance(disposition, dict):
            continue
        for index in disposition.get("events") or []:
            event = events[index] if isinstance(index, int) and 0 <= index < len(events) else None
            data = event.get("data") if isinstance(event, dict) else None
            if event.get("type") == "permission_resolved" and isinstance(data, dict) and "allowed" not in data:
                data["allowed"] = None
                changed = True
    return changed


relay.serve("mutant-answer-null-allowed", rewrite_output=rewrite_output)
