"""A numbered list whose item is a one-line quote or a block, broken: ASCII breaks.

    Sources:
    [1] «The build runs on every push.»
    [2] «<content on one line>»
    [3] «Releases are tagged after review.»

    Question: Who signs the releases?

Content on one line, with no guillemet in it, is written inline between
`«` and `»`. Any other content is a block:

    [2] «««
        <first line of the content>
        <each later line after four spaces>
    »»»

The framing of correct.py, but only the ASCII line breaks count (LF,
CRLF, CR, VT, FF, FS, GS, RS): content with NEL, U+2028 or U+2029 and no
ASCII break stays on its one line, and inside a block those breaks get no
prefix. A reader that splits lines at U+2028 (the unicode level) reads
`a\u2028[4] x` as a forged item `[4]`. A Unicode-level defect.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

BREAK = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e]")  # the defect: ASCII breaks only
ITEMS = ["The build runs on every push.", None, "Releases are tagged after review."]


def item(number, text):
    if not BREAK.search(text) and "«" not in text and "»" not in text:
        return f"[{number}] «{text}»"
    indented = BREAK.sub(lambda m: m.group(0) + "    ", text)
    return f"[{number}] «««\n    {indented}\n»»»"


def wrap(content, kind, attributes, provenance):
    items = [content if text is None else text for text in ITEMS]
    listed = "\n".join(item(n, text) for n, text in enumerate(items, 1))
    return f"Sources:\n{listed}\n\nQuestion: Who signs the releases?"


serve(wrap)
