"""A string with nothing around it, correct: `json.dumps` of the content alone.

    "<content as a JSON string>"

The whole output is one JSON string literal: the document is the content's
string itself (pointer `""`). `json.dumps` escapes the quote, the
backslash and every control character and (with its default
`ensure_ascii`) writes every non-ASCII character as `\\uXXXX`, so nothing
a reader at any level folds to a quote is left raw.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return json.dumps(content)


serve(wrap)
