"""A Python string literal, broken: only the quote is escaped.

    '<content>'

The framing writes a Python literal by hand and escapes `'` as `\\'`, but
not the backslash or line breaks: content's backslash before a quote turns
the escape into an escaped backslash and a live quote, and a line break
ends the one-line literal, so `ast.literal_eval` reads no string.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return "'" + content.replace("'", "\\'") + "'"  # the defect


serve(wrap)
