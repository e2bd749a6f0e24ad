r"""A record list of roles, correct: a numbered transcript with no outer frame.

    1. user: Summarise the page the tool fetched.
    2. tool: <the content, every line break written as an escape>
    3. assistant:

Each record starts at a numbered role marker first on its line, and the
content's record ends where the next one starts. The content is written on
its record's own line: the backslash is doubled, LF is written as `\n`, CR
as `\r`, a tab as `\t`, and every other line break any reader level splits
at (VT, FF, NEL, U+2028, U+2029, and FS, GS, RS) as `\u` and four hex
digits. No line of the content can start, so none forges a record.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def escape(content):
    out = []
    for c in content:
        if c in ESCAPES:
            out.append(ESCAPES[c])
        elif c in OTHER_BREAKS:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return (
        "1. user: Summarise the page the tool fetched.\n"
        f"2. tool: {escape(content)}\n"
        "3. assistant:"
    )


serve(wrap)
