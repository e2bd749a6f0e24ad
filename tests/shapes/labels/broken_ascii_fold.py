"""Labels with spaces, broken: labels are found in ASCII case only.

The frame of correct.py; content lines are split at every line break a
reader honours, but a label is matched after lower-casing alone, not
Unicode-folded. A fullwidth, zero-width-spliced or lookalike spelling of
`Last output from code snippet:` comes through and, for a reader that
folds Unicode, ends the logs section.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import LINE_BREAKS  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(
    r"[ \t]*(execution[ \t]+logs|last[ \t]+output[ \t]+from[ \t]+code[ \t]+snippet)[ \t]*:"
)
BREAK = re.compile("(\r\n|[" + LINE_BREAKS + "])")


def wrap(content, kind, attributes, provenance):
    pieces = BREAK.split(content)
    body = "".join(
        "\\" + p if i % 2 == 0 and LABEL.match(p.lower()) else p  # the defect: lower() only
        for i, p in enumerate(pieces)
    )
    return f"Execution logs:\n{body}\nLast output from code snippet:\nNone"


serve(wrap)
