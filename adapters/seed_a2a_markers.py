"""framecheck adapter reproducing the behaviour of the Python A2A marker seed.

A subject under test, weaknesses included; rewritten from the described
behaviour, not copied. Wrap only: the seed has no reader, and inventing one
would audit this file instead of the seed.

Sanitising, in order: the exact-case start marker becomes
``[/ A2A_RESULT_FROM_PEER]`` and the end marker ``[/ /A2A_RESULT_FROM_PEER]``;
then injection words are escaped case-insensitively: SYSTEM, OVERRIDE,
IGNORE ALL and YOU ARE NOW after a non-word character or at the start, and
INSTRUCTION(S) at the start or after a newline, where the newline itself is
replaced by a space. Empty content is left as it is.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from framecheck_adapter import serve  # noqa: E402

START = "[A2A_RESULT_FROM_PEER]"
END = "[/A2A_RESULT_FROM_PEER]"

ESCAPES = [
    (re.compile(r"(^|[^\w])SYSTEM\b", re.I), r"\1[ESCAPED_SYSTEM]"),
    (re.compile(r"(^|[^\w])OVERRIDE\b", re.I), r"\1[ESCAPED_OVERRIDE]"),
    # The seed drops what it matched before the word (a newline) on purpose or
    # not; reproduced as it behaves.
    (re.compile(r"(^|\n)INSTRUCTIONS?\b", re.I), " [ESCAPED_INSTRUCTIONS]"),
    (re.compile(r"(^|[^\w])IGNORE\s+ALL\b", re.I), r"\1[ESCAPED_IGNORE_ALL]"),
    (re.compile(r"(^|[^\w])YOU\s+ARE\s+NOW\b", re.I), r"\1[ESCAPED_YOU_ARE_NOW]"),
]


def sanitize(text):
    if not text:
        return text
    text = text.replace(START, "[/ A2A_RESULT_FROM_PEER]").replace(END, "[/ /A2A_RESULT_FROM_PEER]")
    for pattern, replacement in ESCAPES:
        text = pattern.sub(replacement, text)
    return text


def wrap(content, **_ignored):
    return f"{START}\n{sanitize(content)}\n{END}"


if __name__ == "__main__":
    serve(wrap)
