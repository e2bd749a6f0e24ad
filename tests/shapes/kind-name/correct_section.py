"""The kind in a section heading, correct: `### {kind} output`.

    ### Task
    Summarise the output below.

    ### web-page output
    CONTENT

    ### Summary

The kind is written into the heading only as lower-case letters, digits
and `-` (anything else dropped; `data` when nothing is left). Every
content line that reads as a heading of any kind's output, of `Task` or
of `Summary` (any level, any case, folded, after any line break a reader
honours) is escaped with a backslash: no content line opens a section,
whichever kind it names.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

# Any kind's heading: a kind is any run of name characters.
HEADING = re.compile(r"[ \t]*#{1,6}[ \t]+([a-z0-9._-]*[ \t]+output|task|summary)[ \t]*:?[ \t]*$")


def heading_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + " output"


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, HEADING)
    return (
        "### Task\nSummarise the output below.\n\n"
        f"### {heading_name(kind)}\n{body}\n\n### Summary\n"
    )


serve(wrap)
