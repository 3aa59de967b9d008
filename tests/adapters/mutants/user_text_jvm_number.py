#!/usr/bin/env python3
"""Planted mutant (chat): the stringified text of a user payload that is
neither a string nor a text object writes a number of 1e21 or more as a JVM
double prints it (`1.0E21`) instead of as JavaScript's JSON.stringify does
(`1e+21`): a decoder that keeps numbers as doubles and formats them itself.
It bends `user.text.stringified` only; the fixtures stringify no such
number, so they all pass."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chat_rows  # noqa: E402
import relay  # noqa: E402

# A JSON string (skipped as it is) or a number in JavaScript's exponent form.
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(-?)(\d)(?:\.(\d+))?e\+(\d+)')


def jvm(match):
    if match.group(2) is None:
        return match.group(0)
    sign, digit, fraction, exponent = match.group(1), match.group(2), match.group(3), match.group(4)
    return "%s%s.%sE%s" % (sign, digit, fraction or "0", exponent)


def stringified(record):
    payload = record.get("content")
    if record.get("role") != "user" or isinstance(payload, str):
        return False
    return not (isinstance(payload, dict) and payload.get("type") == "text" and isinstance(payload.get("text"), str))


def rewrite_output(suite, case_input, output):
    if suite != "chat":
        return False
    ids = chat_rows.row_ids(case_input, stringified)
    changed = []

    def visit(node):
        if isinstance(node, dict) and isinstance(node.get("text"), str) and chat_rows.made_by(node, ids):
            text = TOKEN.sub(jvm, node["text"])
            if text != node["text"]:
                node["text"] = text
                changed.append(True)

    if ids:
        relay.walk(output, visit)
    return bool(changed)


if __name__ == "__main__":
    relay.serve("mutant-user-text-jvm-number", rewrite_output=rewrite_output)
