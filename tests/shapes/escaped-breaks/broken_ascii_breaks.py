r"""Escaped line breaks, broken: only the ASCII newlines are escaped.

    Observation: <the content, LF as `\n` and CR as `\r`>
    Thought:

The escaping of correct.py for the backslash, LF, CR and the tab, but not
for VT, FF, NEL, U+2028 or U+2029, which stay raw: a reader that splits
lines there (the unicode level) sees the content start a line, and a
`Thought:` there is the framing's next label. Readers that split at LF and
CR alone see one line.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}  # the defect: no other break


def escape(content):
    return "".join(ESCAPES.get(c, c) for c in content)


def wrap(content, kind, attributes, provenance):
    return f"Observation: {escape(content)}\nThought:"


serve(wrap)
