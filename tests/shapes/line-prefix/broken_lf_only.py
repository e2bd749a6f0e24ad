"""Line-prefix quoting, broken: the prefix is written after LF alone.

    Email:
    > <first line of the content>
    > <every further line, as split at LF>
    Reply:

The quoting of correct.py, but the content is split into lines at LF
alone (as `content.split("\n")` does): a line after a lone CR, VT, FF, NEL,
U+2028 or U+2029 starts without the prefix for the reader levels that
break lines there, and reads as the framing's own text (a `Reply:` there
is the framing's next label). CRLF still gets the prefix after its LF.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PREFIX = "> "
BREAKS = re.compile("(\n)")  # the defect: LF is not the only line break


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
