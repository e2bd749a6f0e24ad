"""JSON lines, broken: the content's record keeps non-ASCII characters raw.

    {"type": "start", "origin": "<provenance>"}
    {"type": "chunk", "body": "<content>", "size": 42}
    {"type": "stop"}

Each record is `json.dumps`, but the content's with `ensure_ascii=False`:
the quote, the backslash and the controls are still escaped, so no byte
reader is fooled, but a fullwidth quote or backslash is left raw, and a
reader at the unicode level folds it to `"` or `\\`, which ends the string
or escapes the framing's closing quote (a Unicode-level defect).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    start = json.dumps({"type": "start", "origin": provenance or ""})
    chunk = {"type": "chunk", "body": content, "size": len(content)}
    body = json.dumps(chunk, ensure_ascii=False)  # the defect
    stop = json.dumps({"type": "stop"})
    return "\n".join([start, body, stop])


serve(wrap)
