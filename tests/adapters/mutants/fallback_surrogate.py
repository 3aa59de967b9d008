#!/usr/bin/env python3
"""Planted mutant (chat): the stringified fallback text of an agent payload
of an unknown type keeps a lone surrogate raw, as JSON.stringify did before
ES2019, instead of writing it as a \\uXXXX escape. It bends
`agent.unknown-payload-type-stringified` only (the other stringified
fallbacks escape as they should). The fixtures hold no lone surrogate, so
they all pass."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chat_rows  # noqa: E402
import relay  # noqa: E402

ESCAPE = re.compile(r"\\u(d[89a-f][0-9a-f]{2})")


KNOWN_AGENT_TYPES = ("output", "event", "codex")


def unknown_agent_type(record):
    payload = record.get("content")
    kind = payload.get("type") if isinstance(payload, dict) else None
    return record.get("role") == "agent" and isinstance(kind, str) and kind not in KNOWN_AGENT_TYPES


def rewrite_output(suite, case_input, output):
    if suite != "chat":
        return False
    ids = chat_rows.row_ids(case_input, unknown_agent_type)
    changed = []

    def visit(node):
        if (
            isinstance(node, dict)
            and isinstance(node.get("text"), str)
            and node["text"].startswith(("{", "["))
            and chat_rows.made_by(node, ids)
        ):
            text = ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), node["text"])
            if text != node["text"]:
                node["text"] = text
                changed.append(True)

    relay.walk(output, visit)
    return bool(changed)


relay.serve("mutant-fallback-surrogate", rewrite_output=rewrite_output)
