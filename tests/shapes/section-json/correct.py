"""A JSON list inside a section, correct: the content one string of the list.

    [[ ## sources ## ]]
    ["The build runs on every push.", "<content as a JSON string>", "Releases are tagged after review."]

    [[ ## query ## ]]
    Who signs the releases?

    Answer in the field `[[ ## answer ## ]]`.

The section is the frame (no closer: it ends where the next marker
begins); its body is `json.dumps` of three sources, the content the second.
ASCII-only `json.dumps` writes every line break a reader level splits at
(LF, CR, VT, FF, NEL, U+2028, U+2029) as an escape inside the string, so
no line of the content can start with a section marker, and the content's
quotes and backslashes are escaped.
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
    sources = json.dumps([BEFORE, content, AFTER])
    return (
        f"[[ ## sources ## ]]\n{sources}\n\n"
        "[[ ## query ## ]]\nWho signs the releases?\n\n"
        "Answer in the field `[[ ## answer ## ]]`."
    )


serve(wrap)
