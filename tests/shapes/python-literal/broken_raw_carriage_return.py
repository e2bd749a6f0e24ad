"""Python-literal body, broken: a hand-written repr that leaves a carriage return raw.

<tool_result>
{'type': 'text', 'text': 'CONTENT AS A HAND-WRITTEN repr()'}
</tool_result>

The literal is written as `repr` writes it (the same quote choice, every
escape, the backslash included) except for CR: its table of escapes maps
CR to itself, so a carriage return is written raw, and Python reads a
raw CR as the line break that ends a one-line literal unterminated. The
token is neutralised as in the correct fixture.
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

ESCAPES = {"\n": "\\n", "\r": "\r", "\t": "\\t"}  # the defect: "\r" left as it is


def literal(text):
    """`text` as a Python string literal, written by hand."""
    quote = '"' if "'" in text and '"' not in text else "'"
    out = []
    for ch in text:
        if ch == quote:
            out.append("\\" + ch)
        elif ch == "\\":
            out.append("\\\\")
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
