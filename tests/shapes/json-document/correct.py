"""JSON document, correct: `json.dumps` of a record whose other values vary.

    {"source": "tool", "content": "<content>", "chars": 42, "lines": 1}

The content is one string value at `/content`; `chars` and `lines` change
with it. `json.dumps` escapes the quote, the backslash and every control
character, and (with its default `ensure_ascii`) writes every non-ASCII
character as a `\\uXXXX` escape, so no character a reader folds to a quote
is left raw either.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    record = {
        "source": "tool",
        "content": content,
        "chars": len(content),
        "lines": content.count("\n") + 1,
    }
    return json.dumps(record)


serve(wrap)
