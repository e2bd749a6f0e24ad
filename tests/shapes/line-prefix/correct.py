"""Line-prefix quoting, correct: an email quoted for a reply, mail style.

    Email:
    > <first line of the content>
    > <every further line>
    >
    > <after an empty line, the bare `>`>
    Reply:

Every line of the content is written after `> `, after every line break
any reader level splits at (LF, CRLF, a lone CR, VT, FF, NEL, U+2028,
U+2029, and FS, GS and RS, which `str.splitlines()` splits at too); the
breaks themselves are kept as written. An empty line after the first is
written as `>` alone, consistently, as mail clients do. Nothing else is
escaped: a line that starts with the prefix is data to every reader, so a
content line `Reply:` is `> Reply:`, no label.
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
        out.append(parts[i] + (PREFIX + line if line else PREFIX.rstrip()))
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return f"Email:\n{quote(content)}\nReply:"


serve(wrap)
