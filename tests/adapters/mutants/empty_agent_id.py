#!/usr/bin/env python3
"""Planted mutant (chat): an empty `agentId` on a Codex agent-run event is
taken as a real agent id instead of as no id. The reference treats "" as
absent; this decoder keys CodexAgent cards by "" like any other id."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402

# Stands in for "" while the reference decodes, then becomes "" again.
SENTINEL = "mutant-empty-agent-id"


def rewrite_input(suite, case_input):
    changed = []

    def visit(node):
        if isinstance(node, dict) and str(node.get("type", "")).startswith("agent-run-"):
            for key in ("agentId", "agent_id"):
                if node.get(key) == "":
                    node[key] = SENTINEL
                    changed.append(True)

    if suite == "chat":
        relay.walk(case_input, visit)
    return bool(changed)


def restore(value):
    if isinstance(value, dict):
        return {key.replace(SENTINEL, ""): restore(member) for key, member in value.items()}
    if isinstance(value, list):
        return [restore(item) for item in value]
    if isinstance(value, str):
        return value.replace(SENTINEL, "")
    return value


def rewrite_output(suite, case_input, output):
    if suite != "chat" or SENTINEL not in repr(output):
        return False
    restored = restore(output)
    output.clear()
    output.update(restored)
    return True


relay.serve("mutant-empty-agent-id", rewrite_input=rewrite_input, rewrite_output=rewrite_output)
