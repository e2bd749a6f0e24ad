r"""A TOML table, the content in a one-line basic string, broken at the
unicode level: non-ASCII is written raw.

    [search_result]
    rank = 1
    body = "<content escaped>"

As `correct_toml_basic.py`, but every non-ASCII character is written as
it is, which TOML allows: a fullwidth quote `＂` or backslash `＼` stays
raw, and a reader that folds it to `"` or `\` reads the string's end there.
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
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return "\\u%04X" % ord(c)
    return c  # the defect: a fullwidth quote or backslash is left raw


def wrap(content, kind, attributes, provenance):
    return '[search_result]\nrank = 1\nbody = "' + "".join(map(char, content)) + '"\n'


serve(wrap)
