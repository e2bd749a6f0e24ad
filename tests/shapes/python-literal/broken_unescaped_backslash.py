"""Python-literal body, broken: a hand-written repr that leaves the backslash as it is.

<tool_result>
{'type': 'text', 'text': 'CONTENT AS A HAND-WRITTEN repr()'}
</tool_result>

The literal is written as `repr` writes it (the same quote choice, the
same escapes) except that a backslash in the content is left as it is:
`\\frac` reads back as a form feed and `rac`, and a backslash before a
quote ends the literal early. The token is neutralised as in the correct
fixture.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_result"
SAFE = "tool-result"

ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def literal(text):
    """`text` as a Python string literal, written by hand."""
    quote = '"' if "'" in text and '"' not in text else "'"
    out = []
    for ch in text:
        if ch == quote:
            out.append("\\" + ch)
        # the defect: a backslash is not written as "\\\\"
        elif ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif not ch.isprintable():
            out.append(repr(ch)[1:-1])  # \xNN, \uNNNN or \UNNNNNNNN
        else:
            out.append(ch)
    return quote + "".join(out) + quote


def wrap(content, kind, attributes, provenance):
    text = literal(defang(content, TOKEN, SAFE))
    return f"<{TOKEN}>\n{{'type': 'text', 'text': {text}}}\n</{TOKEN}>"


serve(wrap)
