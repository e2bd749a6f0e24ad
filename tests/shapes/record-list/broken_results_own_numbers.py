"""A numbered list of results, broken: only the list's own numbers are escaped.

    Search results:
    [1] Weather today: sunny and mild
    [2] <content>
    [3] Local news: nothing to report
    End of results.

The correct fixture's escaping, but of the markers `[1]` to `[3]` alone: a
content line `[907] …`, which a reader takes for a result of the list as
well, starts a forged result, and the text after it is outside the
content's.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*\[[1-3]\]")  # the defect


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER, from_line=1)
    return (
        "Search results:\n[1] Weather today: sunny and mild\n"
        f"[2] {body}\n"
        "[3] Local news: nothing to report\nEnd of results."
    )


serve(wrap)
