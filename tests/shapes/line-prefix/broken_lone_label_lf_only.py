"""Line-prefix quoting under a lone introduction, broken: the prefix follows LF only.

    Untrusted email:
    > <first line of the content>
    > <every further line>
    End of email.

A line after a lone CR, U+2028 or another break a reader splits at (other
than LF) is written without the prefix: it leaves the quote and reads as
the framing's own text.
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
    return f"Untrusted email:\n{quote(content)}\nEnd of email."


serve(wrap)
