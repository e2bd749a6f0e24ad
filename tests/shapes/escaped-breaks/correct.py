r"""Escaped line breaks, correct: a ReAct-style observation kept on one line.

    Observation: <the content, every line break written as an escape>
    Thought:

The content is written on the label's own line: the backslash is doubled,
LF is written as the two characters `\n`, CR as `\r`, a tab as `\t`, and
every other line break any reader level splits at (VT, FF, NEL, U+2028,
U+2029, and FS, GS and RS, which `str.splitlines()` splits at too) as
`\u` and four hex digits. Quotes and everything else stay as written. No
line of the content can start, so nothing in it reads as the `Thought:`
label.
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
    return f"Observation: {escape(content)}\nThought:"


serve(wrap)
