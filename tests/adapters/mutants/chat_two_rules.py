#!/usr/bin/env python3
"""Planted mutant (chat) with two bugs, each bending its own rule: a Codex
tool result's numeric `is_error` is not an error (`reduce.tool.result-error`,
as codex_numeric_error.py) and a stringified user payload writes numbers of
1e21 or more as a JVM double (`user.text.stringified`, as
user_text_jvm_number.py). Explore must report it as exactly two findings."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codex_numeric_error  # noqa: E402
import relay  # noqa: E402
import user_text_jvm_number  # noqa: E402

relay.serve(
    "mutant-chat-two-rules",
    rewrite_input=codex_numeric_error.rewrite_input,
    rewrite_output=user_text_jvm_number.rewrite_output,
)
