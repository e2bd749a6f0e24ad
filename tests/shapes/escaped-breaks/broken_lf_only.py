r"""Escaped line breaks, broken: LF is the only line break escaped.

    Observation: <the content, its LFs written as `\n`>
    Thought:

The one-liner many agent loops use,
`text.replace("\\", "\\\\").replace("\n", "\\n")`: the backslash is
doubled and LF escaped, but a lone CR, VT, FF, NEL, U+2028 or U+2029 stays
raw, so for the reader levels that split lines there the content starts a
line of its own, and a `Thought:` there is the framing's next label. (The
tab stays raw too, which starts no line.)
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def escape(content):
    return content.replace("\\", "\\\\").replace("\n", "\\n")  # the defect: LF alone


def wrap(content, kind, attributes, provenance):
    return f"Observation: {escape(content)}\nThought:"


serve(wrap)
