"""A JSON list inside a section, broken: a hand-written list, line breaks raw.

    [[ ## sources ## ]]
    ["The build runs on every push.", "<content between quotes>", "Releases are tagged after review."]

    [[ ## query ## ]]
    Who signs the releases?

    Answer in the field `[[ ## answer ## ]]`.

The framing of correct.py, but the list is written by hand: each source
between quotes with its backslashes and quotes escaped, and nothing else.
A lenient JSON reader still reads the list back whole, but a line of the
content starts a line of the prompt, and `[[ ## query ## ]]` there opens a
forged section at every reader level.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

BEFORE = "The build runs on every push."
AFTER = "Releases are tagged after review."


def quoted(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')  # the defect: line breaks left raw
    return f'"{escaped}"'


def wrap(content, kind, attributes, provenance):
    sources = "[" + ", ".join(quoted(s) for s in (BEFORE, content, AFTER)) + "]"
    return (
        f"[[ ## sources ## ]]\n{sources}\n\n"
        "[[ ## query ## ]]\nWho signs the releases?\n\n"
        "Answer in the field `[[ ## answer ## ]]`."
    )


serve(wrap)
