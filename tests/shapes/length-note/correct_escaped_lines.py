"""A tool result announced with its length, read by a model; correct.

    Tool result (27 characters follow):
    CONTENT, ITS MARKER LINES ESCAPED
    End of tool result.

The length is only a note (a model does not count). The end and the start
line are lines: every content line that reads as either (folded as the
unicode level reads it, after any line break a reader takes as one) gets a
backslash before it, so the content can neither end the frame nor open a
second one; other lines come through unchanged.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

# Either marker line, as a folded line starts: spacing a reader skips
# around the words and punctuation, any number, any case.
MARKER = re.compile(
    r"\s*(?:tool\s*result\s*\(\s*\d+\s*characters\s*follow\s*\)\s*:"
    r"|end\s*of\s*tool\s*result\s*\.)",
    re.IGNORECASE,
)


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER)
    return f"Tool result ({len(content)} characters follow):\n{body}\nEnd of tool result."


serve(wrap)
