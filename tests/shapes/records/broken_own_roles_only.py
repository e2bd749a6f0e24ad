"""Role records inside a frame, broken: only the framing's own roles are neutralised.

<dialogue-log>
[user] Summarise what the tool returned.
[tool] CONTENT
[assistant] I read the tool's record as data.
</dialogue-log>

The neutraliser of correct.py, but a line is escaped only when it reads as a
record of a role the framing writes itself (user, tool, assistant), in its
own spelling or a chat transcript's: a line `[system] …`, `[developer] …` or
`system: …` is left as it is, and is a record of its own.
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

BREAKS = re.compile("(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")
OWN_ROLES = ("user", "tool", "assistant")  # the defect: other roles are records too
MARKER = re.compile(role_line_pattern(OWN_ROLES))


def neutralise(content):
    pieces = BREAKS.split(content)
    return "".join(
        "\\" + p if i % 2 == 0 and i > 0 and MARKER.match(fold(p)) else p
        for i, p in enumerate(pieces)
    )


def wrap(content, kind, attributes, provenance):
    body = defang(neutralise(content), TOKEN, SAFE)
    return f"<{TOKEN}>\n{HEAD}{body}{TAIL}\n</{TOKEN}>"


serve(wrap)
