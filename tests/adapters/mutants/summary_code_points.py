#!/usr/bin/env python3
"""Planted mutant (event-fold): a tool block's summary measures its output in
code points (Python's len) instead of UTF-16 units, so an output under 80
code points but at least 80 UTF-16 units (astral characters) becomes the
summary instead of "Done"."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay  # noqa: E402

# JavaScript's String.prototype.trim whitespace set.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def utf16_len(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def rewrite_output(suite, case_input, output):
    if suite != "event-fold":
        return False
    changed = []

    def visit(node):
        if isinstance(node, dict) and node.get("kind") == "tool" and node.get("summary") == "Done":
            text = node.get("output")
            if isinstance(text, str) and "\n" not in text and len(text) < 80 <= utf16_len(text):
                node["summary"] = text.strip(JS_SPACE)
                changed.append(True)

    relay.walk(output, visit)
    return bool(changed)


relay.serve("mutant-summary-code-points", rewrite_output=rewrite_output)
