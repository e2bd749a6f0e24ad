r"""Escaped line breaks, broken: the backslash is not doubled.

    Observation: <the content, every line break escaped, `\` left single>
    Thought:

Every line break is escaped as in correct.py, but the content's own
backslashes are written as they are, so a backslash before `n`, `r`, `t`
and the rest reads back as an escape: `\rangle` in LaTeX content reads as
a carriage return and `angle`. No raw line break is written, so no line of
the content starts and nothing reads as the `Thought:` label: a fidelity
loss, not a breakout.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}  # the defect: no "\\": "\\\\"
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
