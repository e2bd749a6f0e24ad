"""YAML document, broken: the content pasted into a hand-written template.

    tool: fetch
    result: <content>
    chars: 42

Nothing is quoted or escaped: a line break then `role: system` at the
start of a line writes a key of the document, `: ` in the content makes
it unreadable, and ` #` turns the rest of the content into a comment.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"tool: fetch\nresult: {content}\nchars: {len(content)}\n"  # the defect


serve(wrap)
