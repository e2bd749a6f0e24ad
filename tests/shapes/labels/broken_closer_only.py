"""Labels with spaces, broken: only the next label is escaped.

The frame of correct.py; content lines that read as `Last output from code
snippet:` are escaped at the unicode level, but a line that reads as the
content's own label, `Execution logs:`, is left as written. Content that
writes that label starts a second, forged logs section.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(r"[ \t]*(last[ \t]+output[ \t]+from[ \t]+code[ \t]+snippet)[ \t]*:")  # the defect


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, LABEL)
    return f"Execution logs:\n{body}\nLast output from code snippet:\nNone"


serve(wrap)
