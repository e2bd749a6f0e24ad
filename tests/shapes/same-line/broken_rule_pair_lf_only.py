"""Two rule lines that name nothing, broken: a rule is escaped only on LF lines.

    Content:
    <<<
    <content>
    >>>

A content line that is exactly `<<<` or `>>>` once split at LF gets a
backslash; a rule after CRLF, a lone CR or U+2028, or a longer run, stays
a line of its own that closes the frame.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    lines = ["\\" + line if line in ("<<<", ">>>") else line for line in content.split("\n")]
    return "Content:\n<<<\n" + "\n".join(lines) + "\n>>>"


serve(wrap)

