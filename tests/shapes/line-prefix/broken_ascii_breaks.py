"""Line-prefix quoting, broken: the prefix follows the ASCII newlines only.

    Email:
    > <first line of the content>
    > <every further line, as split at CRLF, LF and CR>
    Reply:

The quoting of correct.py, but the content is split at the universal
newlines alone (CRLF, LF, a lone CR: what Python's `open()` translates): a
line after VT, FF, NEL, U+2028 or U+2029 starts without the prefix. Only a
reader that splits lines at those (the unicode level) sees such a line
leave the quote, so the run must hold ascii-case-insensitive.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PREFIX = "> "
BREAKS = re.compile("(\r\n|[\n\r])")  # the defect: Unicode line breaks are not breaks here


def quote(content):
    parts = BREAKS.split(content)  # line, break, line, break, ..., line
    out = [PREFIX + parts[0]]
    for i in range(1, len(parts), 2):
        line = parts[i + 1]
        out.append(parts[i] + (PREFIX + line if line else PREFIX.rstrip()))
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return f"Email:\n{quote(content)}\nReply:"


serve(wrap)
