"""Separator header, broken: only ASCII line ends are removed from fields.

CR LF, LF and CR become spaces. U+2028, U+2029, NEL, vertical tab and form
feed are left in place, and a Unicode-aware reader breaks the line there:
the caller can still write header lines, or a `---` line of its own.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "RETRIEVED_DOCUMENT"
SAFE = "RETRIEVED-DOCUMENT"
ASCII_LINE_ENDS = re.compile(r"\r\n|\r|\n")  # the defect: misses the other breaks


def field(value):
    return ASCII_LINE_ENDS.sub(" ", defang(value, TOKEN, SAFE))


def wrap(content, kind, attributes, provenance):
    header = (
        f"Source: {field(provenance)}\n"
        f"Type: {field(kind)}\n"
        f"Subject: {field(attributes.get('title', ''))}\n"
        f"From: {field(attributes.get('author', ''))}\n"
    )
    body = defang(content, TOKEN, SAFE)
    return f"<<<{TOKEN}>>>\n{header}---\n{body}\n<<<END_{TOKEN}>>>"


serve(wrap)
