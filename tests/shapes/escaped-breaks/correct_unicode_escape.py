r"""Escaped line breaks, correct: Python's `unicode_escape` on one observation line.

    Observation: line one\nline two caf\xe9 \u2028 \U0001f600
    Thought:

`content.encode("unicode_escape")` doubles the backslash and writes every
line break, control and non-ASCII character as an escape (`\n`, `\xNN`,
`\uNNNN`, `\UNNNNNNNN`), so the content stays on the label's line and no
lookalike of `Thought:` is readable. A reader gives every escape back
exactly, so none of them is a change to report.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    line = content.encode("unicode_escape").decode("ascii")
    return f"Observation: {line}\nThought:"


serve(wrap)
