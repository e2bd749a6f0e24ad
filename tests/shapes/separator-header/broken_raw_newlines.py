"""Separator header, broken: field values keep their line breaks.

Values are defanged but written as they are. A newline in the provenance
or the subject starts a new header line the caller wrote, `---` on its own
line ends the header early, and the caller's text lands in the body.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "RETRIEVED_DOCUMENT"
SAFE = "RETRIEVED-DOCUMENT"


def field(value):
    return defang(value, TOKEN, SAFE)  # the defect: line breaks stay


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
