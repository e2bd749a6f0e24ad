"""Section markers, broken: labels are matched as written, case included.

The frame of correct_label.py; label lines are found after every line
break, but the names are compared as the framing writes them, neither
case-folded nor Unicode-folded. `ANSWER:` or `question:` on a line of the
content opens a forged section for any reader that ignores case.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import LINE_BREAKS  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(r"[ \t]*(Question|Context|Answer)[ \t]*:")  # the defect: as written
BREAK = re.compile("(\r\n|[" + LINE_BREAKS + "])")


def wrap(content, kind, attributes, provenance):
    pieces = BREAK.split(content)
    body = "".join(
        "\\" + p if i >= 2 and i % 2 == 0 and LABEL.match(p) else p
        for i, p in enumerate(pieces)
    )
    return f"Question: What does the document say?\nContext: {body}\nAnswer:"


serve(wrap)
