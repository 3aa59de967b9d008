#!/usr/bin/env python3
"""Planted mutant (chat): the stringified fallback text of an undecodable
message keeps a lone surrogate raw, as JSON.stringify did before ES2019,
instead of writing it as a \\uXXXX escape. The fixtures hold no lone
surrogate, so they all pass."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402

ESCAPE = re.compile(r"\\u(d[89a-f][0-9a-f]{2})")


def rewrite_output(suite, case_input, output):
    if suite != "chat":
        return False
    changed = []

    def visit(node):
        if isinstance(node, dict) and isinstance(node.get("text"), str) and node["text"].startswith(("{", "[")):
            text = ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), node["text"])
            if text != node["text"]:
                node["text"] = text
                changed.append(True)

    relay.walk(output, visit)
    return bool(changed)


relay.serve("mutant-fallback-surrogate", rewrite_output=rewrite_output)
