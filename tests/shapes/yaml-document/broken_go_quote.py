"""YAML document, broken: a label and the content quoted as Go's %q writes it.

    Tool output: "<content as strconv.Quote writes it>"
    Answer:

Go's `%q` escapes `"`, `\\`, controls and non-printable characters, but
leaves printable non-ASCII as it is, so a fullwidth `＂` in the content
ends the double-quoted scalar for a reader that folds it (a Unicode-level
defect): what follows is the document's own syntax.
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
    if c == " " or (c.isprintable() and not c.isspace()):
        return c  # the defect: printable non-ASCII left raw, as %q does
    if o < 0x80:
        return "\\x%02x" % o
    return "\\u%04x" % o if o < 0x10000 else "\\U%08x" % o


def wrap(content, kind, attributes, provenance):
    return 'Tool output: "' + "".join(map(quote, content)) + '"\nAnswer:'


serve(wrap)
