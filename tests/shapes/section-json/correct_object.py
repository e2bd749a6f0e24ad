"""A JSON object inside a section, correct: the content one string value.

    [[ ## document ## ]]
    {"title": "Release notes", "text": "<content as a JSON string>"}

    [[ ## query ## ]]
    Who signs the releases?

The section is the frame; its body is `json.dumps` of a record whose
`text` is the content. ASCII-only `json.dumps` escapes every line break a
reader level splits at, so no line of the content can start with a
section marker.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    record = json.dumps({"title": "Release notes", "text": content})
    return f"[[ ## document ## ]]\n{record}\n\n[[ ## query ## ]]\nWho signs the releases?"


serve(wrap)
