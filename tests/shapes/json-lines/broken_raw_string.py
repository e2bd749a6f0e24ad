"""JSON lines, broken: the content's record is written by hand, the content raw.

    {"type": "start", "origin": "<provenance>"}
    {"type": "chunk", "body": "<content>", "size": 42}
    {"type": "stop"}

The other records are `json.dumps`; the content's line is a template
with the content pasted between the quotes, so a quote in the content
ends the string (and writes keys of the record), and a line break in it
splits the record into lines that are no JSON, or that forge records.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    start = json.dumps({"type": "start", "origin": provenance or ""})
    chunk = '{"type": "chunk", "body": "%s", "size": %d}' % (content, len(content))  # the defect
    stop = json.dumps({"type": "stop"})
    return "\n".join([start, chunk, stop])


serve(wrap)
