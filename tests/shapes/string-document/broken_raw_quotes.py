"""A string with nothing around it, broken: the content between two quotes, unescaped.

    "<content>"

The framing writes what looks like a JSON string but escapes nothing: a
quote in the content ends the string, and a backslash or line break makes
it unreadable to `JSON.parse`.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return '"' + content + '"'  # the defect


serve(wrap)
