r"""An S-expression with the content as its string, broken: the backslash is
left as it is.

    (tool-result (name web-search) (text "<content, quotes escaped>"))

As `correct_sexpr.py`, but the framing escapes the quote and not the
backslash, so the content's `\"` comes out `\\"`: an escaped backslash,
then a live quote that ends the string, and what follows is the
S-expression's own text.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def char(c):
    if c == '"':  # the defect: a backslash is written as it is
        return '\\"'
    if c == "\n" or " " <= c <= "~":
        return c
    data = c.encode("utf-16-be")
    return "".join(
        "\\u%02x%02x" % (data[i], data[i + 1]) for i in range(0, len(data), 2)
    )


def wrap(content, kind, attributes, provenance):
    text = "".join(char(c) for c in content)
    return '(tool-result (name web-search) (text "' + text + '"))'


serve(wrap)
