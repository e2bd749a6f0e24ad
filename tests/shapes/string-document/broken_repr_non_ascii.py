"""A Python string literal, broken at the unicode level: `repr()` of the content.

    '<content as a Python literal>'

`repr` escapes the quote, the backslash and line breaks, but leaves every
printable non-ASCII character raw: a fullwidth apostrophe or backslash in
the content is the string's end for a reader that folds it to ASCII.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return repr(content)  # the defect


serve(wrap)
