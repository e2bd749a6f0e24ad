"""Line-prefix quoting under a lone introduction, correct.

    Untrusted email:
    > <first line of the content>
    > <every further line>
    End of email.

The quote alone sets the content apart: the line before it is the only
label the framing writes, and the line after it is a sentence. Every line
of the content is written after `> `, after every line break any reader
level splits at (the breaks kept as written); an empty line after the
first is `>` alone.
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
    return f"Untrusted email:\n{quote(content)}\nEnd of email."


serve(wrap)
