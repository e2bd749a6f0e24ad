"""Role records inside a frame, broken: content is written as it is.

<dialogue-log>
[user] Summarise what the tool returned.
[tool] CONTENT
[assistant] I read the tool's record as data.
</dialogue-log>

The frame of correct.py, with the tag defanged, but the content's lines are
left as they are: a line `[system] …` after any line break in the content is
a record of its own, with a role the content chose.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, fold  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "dialogue-log"
SAFE = "dialogue_log"
HEAD = "[user] Summarise what the tool returned.\n[tool] "
TAIL = "\n[assistant] I read the tool's record as data."



def neutralise(content):
    return content  # the defect: lines the content starts are not neutralised


def wrap(content, kind, attributes, provenance):
    body = defang(neutralise(content), TOKEN, SAFE)
    return f"<{TOKEN}>\n{HEAD}{body}{TAIL}\n</{TOKEN}>"


serve(wrap)
