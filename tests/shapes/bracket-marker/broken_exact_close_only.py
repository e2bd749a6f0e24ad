"""Bracket markers, broken: only the exact closing marker is removed.

`content.replace("[/TOOL_OUTPUT]", "")` stops the one spelling the author
tried. A lowercase or spaced closer still ends the block for a reader, and
an opening marker can be forged as written.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "TOOL_OUTPUT"


def wrap(content, kind, attributes, provenance):
    body = content.replace(f"[/{TOKEN}]", "")  # the defect: one exact spelling
    return f"[{TOKEN}]\n{body}\n[/{TOKEN}]"


serve(wrap)
