"""YAML document, broken: quoted only for quotes, backslashes and line breaks.

    tool: fetch
    result: <content, plain unless it holds a quote, `\\` or a line break>
    chars: 42

The framing quotes the content as a correct one does when it holds a
quote, a backslash, a line break or a non-ASCII character, but writes
anything else plain, YAML's indicators included: `: ` makes the document
unreadable, a leading `[`, `{`, `&`, `*`, `!` or `- ` is syntax, and
`true` or `42` is read as another type than a string.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def scalar(content):
    if any(c in content for c in "'\"\\\n\r") or not content.isascii():
        return json.dumps(content)
    return content  # the defect: YAML's own indicators left plain


def wrap(content, kind, attributes, provenance):
    return f"tool: fetch\nresult: {scalar(content)}\nchars: {len(content)}\n"


serve(wrap)
