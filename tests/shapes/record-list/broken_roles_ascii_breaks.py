r"""A record list of roles, broken: only the ASCII line breaks are escaped.

    1. user: Summarise the page the tool fetched.
    2. tool: <the content, LF and CR written as escapes>
    3. assistant:

The correct fixture's escaping, but of the backslash, LF, CR and tab alone:
VT, FF, NEL, U+2028 and U+2029 stay raw, so a record marker after one of
them starts a line for a reader that splits there (the unicode level) and
forges a record. A Unicode-level defect: the byte readers see one line.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape(content):
    return "".join(ESCAPES.get(c, c) for c in content)  # the defect


def wrap(content, kind, attributes, provenance):
    return (
        "1. user: Summarise the page the tool fetched.\n"
        f"2. tool: {escape(content)}\n"
        "3. assistant:"
    )


serve(wrap)
