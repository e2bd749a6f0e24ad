"""YAML document, correct: a label and the content quoted as Go's %+q writes it.

    Tool output: "<content as strconv.QuoteToASCII writes it>"
    Answer:

A Go double-quoted string is a YAML double-quoted scalar: `"` and `\\`
are escaped, controls written with Go's short escapes or `\\xNN`, and every
non-ASCII character as `\\uXXXX` or `\\UXXXXXXXX` (`%+q`), so nothing in the
string reads as its quote or a line break at any level.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

SHORT = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
         "\t": "\\t", "\v": "\\v", "\\": "\\\\", '"': '\\"'}


def quote(c):
    if c in SHORT:
        return SHORT[c]
    o = ord(c)
    if 0x20 <= o < 0x7F:
        return c
    if o < 0x80:
        return "\\x%02x" % o
    return "\\u%04x" % o if o < 0x10000 else "\\U%08x" % o


def wrap(content, kind, attributes, provenance):
    return 'Tool output: "' + "".join(map(quote, content)) + '"\nAnswer:'


serve(wrap)
