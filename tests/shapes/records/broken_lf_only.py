"""Role records inside a frame, broken: content lines are split at LF only.

<dialogue-log>
[user] Summarise what the tool returned.
[tool] CONTENT
[assistant] I read the tool's record as data.
</dialogue-log>

The neutraliser of correct.py, but the content is split into lines at "\n"
alone: a record marker after a lone CR, VT, FF, NEL, U+2028 or U+2029 starts
a line for the reader levels that break lines there, and forges a record.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, fold, role_line_pattern  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "dialogue-log"
SAFE = "dialogue_log"
HEAD = "[user] Summarise what the tool returned.\n[tool] "
TAIL = "\n[assistant] I read the tool's record as data."

MARKER = re.compile(r"\[[^\]]*\]|" + role_line_pattern())


def neutralise(content):
    lines = content.split("\n")  # the defect: LF is not the only line break
    return "\n".join(
        "\\" + l if i > 0 and MARKER.match(fold(l)) else l for i, l in enumerate(lines)
    )


def wrap(content, kind, attributes, provenance):
    body = defang(neutralise(content), TOKEN, SAFE)
    return f"<{TOKEN}>\n{HEAD}{body}{TAIL}\n</{TOKEN}>"


serve(wrap)
