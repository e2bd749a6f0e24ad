"""Role records inside a frame, correct: no content line starts a record.

<dialogue-log>
[user] Summarise what the tool returned.
[tool] CONTENT
[assistant] I read the tool's record as data.
</dialogue-log>

The frame holds one record a line, `[role] text`. Content is split at every
line break a reader level knows (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029,
and FS, GS, RS, where str.splitlines() splits too); a line that reads, folded
as the unicode level folds, as a bracketed word at its start, or as a chat
role in a transcript's spelling (`system: …`, `### System:`, which a model
takes for a turn whatever the framing's own marker), gets a backslash before
it, so no line the content starts is a record. Other lines, and content
without such lines, come through byte for byte. The tag is defanged at the
Unicode level.
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
MARKER = re.compile(r"\[[^\]]*\]|" + role_line_pattern())


def neutralise(content):
    pieces = BREAKS.split(content)
    # pieces alternate line, break, line, ...: the first line follows `[tool] `.
    return "".join(
        "\\" + p if i % 2 == 0 and i > 0 and MARKER.match(fold(p)) else p
        for i, p in enumerate(pieces)
    )


def wrap(content, kind, attributes, provenance):
    body = defang(neutralise(content), TOKEN, SAFE)
    return f"<{TOKEN}>\n{HEAD}{body}{TAIL}\n</{TOKEN}>"


serve(wrap)
