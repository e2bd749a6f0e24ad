"""The kind in a section heading, broken: only one kind's heading is escaped.

    ### Task
    Summarise the output below.

    ### web-page output
    CONTENT

    ### Summary

The kind is sanitised as in the correct framing, but the neutraliser was
written for tool results: it escapes a content line that reads as
`Task`, `Summary` or `tool-result output`, and no other kind's heading.
A tool result cannot open a section; a web page's content writes
`### web-page output` and opens a second section of its own kind.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

KNOWN = "tool-result output"


def heading_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + " output"


def wrap(content, kind, attributes, provenance):
    known = re.escape(KNOWN).replace(r"\ ", r"[ \t]+")
    heading = re.compile(rf"[ \t]*#{{1,6}}[ \t]+({known}|task|summary)[ \t]*:?[ \t]*$")
    body = defang_marker_lines(content, heading)  # the defect: one kind's heading only
    return (
        "### Task\nSummarise the output below.\n\n"
        f"### {heading_name(kind)}\n{body}\n\n### Summary\n"
    )


serve(wrap)
