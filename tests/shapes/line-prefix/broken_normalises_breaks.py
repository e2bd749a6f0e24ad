"""Line-prefix quoting, broken: every line break is rewritten as LF.

    Email:
    > <first line of the content>
    > <every further line>
    Reply:

The quoting of correct.py, but each line break the content holds is
written as LF (as `"\n".join(... content.splitlines())` does): every line
still carries the prefix, so nothing leaves the quote, but a CRLF, a lone
CR or U+2028 in the content comes back as LF. A fidelity defect alone: the
run holds unicode.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PREFIX = "> "
BREAKS = re.compile("(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")


def quote(content):
    parts = BREAKS.split(content)  # line, break, line, break, ..., line
    out = [PREFIX + parts[0]]
    for i in range(1, len(parts), 2):
        line = parts[i + 1]
        out.append("\n" + (PREFIX + line if line else PREFIX.rstrip()))  # the defect
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return f"Email:\n{quote(content)}\nReply:"


serve(wrap)
