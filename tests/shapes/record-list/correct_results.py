"""A numbered list of results, correct: the content is one of the results.

    Search results:
    [1] Weather today: sunny and mild
    [2] <content>
    [3] Local news: nothing to report
    End of results.

Each result starts at a `[number]` marker first on its line, and the
content's result ends where the next one starts. The numbers count the
results, so a marker with any number (`[907]`) reads as the list's. Every
content line after the first that reads, at the unicode level (folded,
after any line break a reader honours, after spaces or tabs), as a
bracketed number is escaped with a backslash; nothing else changes.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*\[[0-9]+\]")


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER, from_line=1)
    return (
        "Search results:\n[1] Weather today: sunny and mild\n"
        f"[2] {body}\n"
        "[3] Local news: nothing to report\nEnd of results."
    )


serve(wrap)
