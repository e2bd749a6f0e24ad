"""Frames only content of 40 characters or more; shorter content comes back raw.

<tool_output>
CONTENT OF 40 CHARACTERS OR MORE, DEFANGED
</tool_output>

A short message is returned as it is, with no frame at all (the defect):
nothing tells it from the text around it. Framed content is defanged at
the Unicode level, so the frame itself holds. An optional argument sets
another length (tests/it/varying.rs moves it above the plain contents the
profile-fit check wraps).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_output"
SAFE = "tool-output"
SHORT = int(sys.argv[1]) if len(sys.argv) > 1 else 40


def wrap(content, kind, attributes, provenance):
    if len(content) < SHORT:
        return content  # the defect: short content is not framed at all
    return f"<{TOKEN}>\n{defang(content, TOKEN, SAFE)}\n</{TOKEN}>"


serve(wrap)
