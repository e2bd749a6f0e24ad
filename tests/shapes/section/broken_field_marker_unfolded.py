"""Section markers, broken: marker lines are matched without folding.

The frame of correct_field_marker.py; every line break is honoured, but
the marker pattern is matched on the raw line. A zero-width character
inside `[[`, fullwidth brackets or a no-break space slip past the pattern
and still read as a marker at the unicode level (only there: a byte reader
and a case-insensitive one see no marker).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import LINE_BREAKS  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*\[\[[ \t]+##[ \t]+\w+[ \t]+##[ \t]+\]\]")
BREAK = re.compile("(\r\n|[" + LINE_BREAKS + "])")


def wrap(content, kind, attributes, provenance):
    pieces = BREAK.split(content)
    body = "".join(
        "\\" + p if i % 2 == 0 and MARKER.match(p) else p  # the defect: not folded
        for i, p in enumerate(pieces)
    )
    return (
        "[[ ## question ## ]]\nWhat does the document say?\n\n"
        f"[[ ## context ## ]]\n{body}\n\n"
        "Respond with the field `[[ ## answer ## ]]`."
    )


serve(wrap)
