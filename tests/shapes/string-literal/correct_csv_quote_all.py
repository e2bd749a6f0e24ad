"""A CSV record (RFC 4180), the content one quoted field, correct.

    "origin","text","seen"\r\n
    "tool","<content, each " doubled>","ok"\r\n

Every field is quoted and a quote of the text is doubled (`""`), so no
quote of the content ends the field; a line break inside the quotes is
text of the field, not a new record. The reader is a strict CSV parser
that wants exactly the header and one record of three fields.
"""

import csv
import io

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

csv.field_size_limit(sys.maxsize)


def wrap(content, kind, attributes, provenance):
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerows([["origin", "text", "seen"], ["tool", content, "ok"]])
    return out.getvalue()


def read(text):
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error:
        return None
    if len(rows) != 2 or rows[0] != ["origin", "text", "seen"] or len(rows[1]) != 3:
        return None
    return rows[1][1]


serve(wrap, read)
