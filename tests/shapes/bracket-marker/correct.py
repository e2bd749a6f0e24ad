"""Bracket markers, correct: [TOOL_OUTPUT] … [/TOOL_OUTPUT].

[TOOL_OUTPUT]
CONTENT
[/TOOL_OUTPUT]

Every reading of the token in the content (any letter case, fullwidth or
lookalike letters, invisible characters inside it) is replaced by
TOOL-OUTPUT, so neither marker can be spelled inside the body.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "TOOL_OUTPUT"
SAFE = "TOOL-OUTPUT"


def wrap(content, kind, attributes, provenance):
    return f"[{TOKEN}]\n{defang(content, TOKEN, SAFE)}\n[/{TOKEN}]"


serve(wrap)
