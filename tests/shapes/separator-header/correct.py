"""Metadata lines ended by a `---` separator, correct.

<<<RETRIEVED_DOCUMENT>>>
Source: <provenance>
Type: <kind>
Subject: <attribute title>
From: <attribute author>
---
CONTENT
<<<END_RETRIEVED_DOCUMENT>>>

Every field is defanged and kept on one line (each line break, as any
reader sees one, becomes a space), so no field can add a line, forge a
separator or end the block; the content is defanged. The four field lines
are always written, empty when a value is missing, so the header has one
shape. Attributes other than title and author have no slot and are ignored.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, one_line  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "RETRIEVED_DOCUMENT"
SAFE = "RETRIEVED-DOCUMENT"


def field(value):
    return one_line(defang(value, TOKEN, SAFE))


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
