"""JSON lines, correct: a start record, the content's record, a stop record.

    {"type": "start", "origin": "<provenance>"}
    {"type": "chunk", "body": "<content>", "size": 42}
    {"type": "stop"}

Each line is one JSON document (`json.dumps`), and the content is the
string at `/1/body`. `json.dumps` escapes the quote, the backslash and
every control character (so no line break of the content is written raw
to split the record), and with its default `ensure_ascii` writes every
non-ASCII character as a `\\uXXXX` escape.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    records = [
        {"type": "start", "origin": provenance or ""},
        {"type": "chunk", "body": content, "size": len(content)},
        {"type": "stop"},
    ]
    return "\n".join(json.dumps(record) for record in records)


serve(wrap)
