r"""A TOML table, the content in a one-line basic string, correct.

    [search_result]
    rank = 1
    body = "<content escaped>"

TOML's basic string reads `\\`, `\"`, `\b`, `\t`, `\n`, `\f`, `\r`,
`\uXXXX` and `\UXXXXXXXX`. The framing writes the backslash and the quote
escaped, each control character (and DEL) as an escape, and every
non-ASCII character as `\uXXXX` or `\UXXXXXXXX`, so the string stays on
its line and no character a reader folds to a quote or a backslash is
left raw.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

SHORT = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def char(c):
    if c in SHORT:
        return SHORT[c]
    if " " <= c <= "~":
        return c
    return "\\u%04X" % ord(c) if ord(c) < 0x10000 else "\\U%08X" % ord(c)


def wrap(content, kind, attributes, provenance):
    return '[search_result]\nrank = 1\nbody = "' + "".join(map(char, content)) + '"\n'


serve(wrap)
