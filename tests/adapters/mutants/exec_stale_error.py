#!/usr/bin/env python3
"""Planted mutant (codex-exec-events): the error a turn's `error` line
reported is never forgotten, so a later turn that fails with the same
message (after a `turn.started`) emits no `error` event. The reference
forgets it at `turn.started`. The fixtures never fail two turns with one
message, so they all pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402


def rewrite_input(suite, case_input):
    lines = case_input.get("lines") if suite == "codex-exec-events" else None
    if not isinstance(lines, list):
        return False
    changed = False
    reported = None  # what the reference remembers (forgotten at turn.started)
    remembered = None  # what this decoder remembers (never forgotten)
    for line in lines:
        if not isinstance(line, dict):
            continue
        kind = line.get("type")
        message = line.get("message")
        if kind == "turn.started":
            reported = None
        elif kind == "error" and isinstance(message, str) and not message.startswith("Reconnecting..."):
            reported = remembered = message
        elif kind == "turn.failed" and isinstance(line.get("error"), dict):
            failed = line["error"].get("message")
            if isinstance(failed, str) and failed == remembered and failed != reported:
                # Hide the message from the reference: it then emits only `done`.
                del line["error"]["message"]
                changed = True
    return changed


relay.serve("mutant-exec-stale-error", rewrite_input=rewrite_input)
