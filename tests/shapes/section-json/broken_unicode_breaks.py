"""A JSON list inside a section, broken: non-ASCII line breaks left raw.

    [[ ## sources ## ]]
    ["The build runs on every push.", "<content as a JSON string>", "Releases are tagged after review."]

    [[ ## query ## ]]
    Who signs the releases?

    Answer in the field `[[ ## answer ## ]]`.

The framing of correct.py, but the list is dumped with
`ensure_ascii=False`, which writes NEL, U+2028 and U+2029 raw inside the
string (JSON requires escapes for C0 controls only). The string still
parses, but a reader that splits lines there (the unicode level) sees a
content line that starts with `[[ ## query ## ]]`: a forged section. A
Unicode-level defect: the ASCII line breaks are all escaped.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

BEFORE = "The build runs on every push."
AFTER = "Releases are tagged after review."


def wrap(content, kind, attributes, provenance):
    sources = json.dumps([BEFORE, content, AFTER], ensure_ascii=False)  # the defect
    return (
        f"[[ ## sources ## ]]\n{sources}\n\n"
        "[[ ## query ## ]]\nWho signs the releases?\n\n"
        "Answer in the field `[[ ## answer ## ]]`."
    )


serve(wrap)
