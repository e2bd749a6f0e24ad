"""JSON document, broken: `json.dumps(..., ensure_ascii=False)`.

    {"source": "tool", "content": "<content>", "chars": 42}

Valid JSON, and a `JSON.parse` reader is never fooled; but non-ASCII
characters are written raw, so a fullwidth quote (U+FF02) or backslash
(U+FF3C) in the content stays in the document, where a reader that folds
lookalikes (the unicode level) reads the string's end.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    record = {"source": "tool", "content": content, "chars": len(content)}
    return json.dumps(record, ensure_ascii=False)  # the defect


serve(wrap)
