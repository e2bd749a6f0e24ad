"""Labels with spaces, correct: an agent's code-execution observation.

    Execution logs:
    <content>
    Last output from code snippet:
    None

Open-only section labels whose names are phrases with spaces: the
content's section runs from `Execution logs:` to the next label line. Every
content line that reads as one of the two labels at the unicode level (any
case, folded, after any line break a reader honours, any run of spaces
between the words) is escaped with a backslash; nothing else changes.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(
    r"[ \t]*(execution[ \t]+logs|last[ \t]+output[ \t]+from[ \t]+code[ \t]+snippet)[ \t]*:"
)


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, LABEL)
    return f"Execution logs:\n{body}\nLast output from code snippet:\nNone"


serve(wrap)
