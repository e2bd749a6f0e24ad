"""Section markers, broken: content lines are split at LF only.

The frame of correct_field_marker.py; marker lines are escaped after
folding, but the content is split into lines at "\n" alone. A marker after
a lone CR, VT, FF, NEL or U+2028 starts a line for a reader that breaks
lines there, and opens a forged section.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*\[\[[ \t]+##[ \t]+\w+[ \t]+##[ \t]+\]\]")


def wrap(content, kind, attributes, provenance):
    lines = content.split("\n")  # the defect: LF is not the only line break
    body = "\n".join("\\" + l if MARKER.match(fold(l)) else l for l in lines)
    return (
        "[[ ## question ## ]]\nWhat does the document say?\n\n"
        f"[[ ## context ## ]]\n{body}\n\n"
        "Respond with the field `[[ ## answer ## ]]`."
    )


serve(wrap)
