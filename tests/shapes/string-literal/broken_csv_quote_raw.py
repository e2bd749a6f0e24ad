"""A CSV record written by hand, broken: the quote of the text is not doubled.

    "origin","text","seen"\r\n
    "tool","<content as it is>","ok"\r\n

The field is quoted but a quote of the content is written as it is, so it
ends the field for a CSV reader: content `x","evil` adds a field, and a
quote then a line break starts a record of the content's choosing. The
reader is a strict CSV parser (RFC 4180, quotes doubled).
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
    row = ["tool", content, "ok"]
    line = ",".join('"' + field + '"' for field in row)  # the defect
    return '"origin","text","seen"\r\n' + line + "\r\n"


def read(text):
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error:
        return None
    if len(rows) != 2 or rows[0] != ["origin", "text", "seen"] or len(rows[1]) != 3:
        return None
    return rows[1][1]


serve(wrap, read)
