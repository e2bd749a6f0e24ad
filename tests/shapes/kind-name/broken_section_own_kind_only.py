"""The kind in a section heading, broken: only the request's own kind's heading is escaped.

    ### Task
    Summarise the output below.

    ### web-page output
    CONTENT

    ### Summary

The kind is sanitised as in the correct framing, but the neutraliser was
written from the frame it writes: it escapes a content line that reads
as `Task`, `Summary` or this request's own heading, and no other kind's.
A web page's content writes `### tool-result output` and opens a section
the reader takes for a tool's output.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def heading_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + " output"


def wrap(content, kind, attributes, provenance):
    name = re.escape(heading_name(kind)).replace(r"\ ", r"[ \t]+")
    own = re.compile(rf"[ \t]*#{{1,6}}[ \t]+({name}|task|summary)[ \t]*:?[ \t]*$")
    body = defang_marker_lines(content, own)  # the defect: the request's own kind only
    return (
        "### Task\nSummarise the output below.\n\n"
        f"### {heading_name(kind)}\n{body}\n\n### Summary\n"
    )


serve(wrap)
