"""A JSON string after a label, correct: `json.dumps` of the content alone.

    Observation: "<content as a JSON string>"
    Thought:

The content is one JSON string literal (`ensure_ascii`, so every line
break and every non-ASCII character is an escape) after a label on the
same line. No content line can start: nothing reads as `Thought:` or as
the string's end.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"Observation: {json.dumps(content)}\nThought:"


serve(wrap)
