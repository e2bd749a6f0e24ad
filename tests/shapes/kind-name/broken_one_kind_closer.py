"""The kind in the tag name, broken: only one kind's closer is neutralised.

<web-page_output>
CONTENT
</web-page_output>

The kind is sanitised as in the correct framing, but the content
neutraliser was written for tool results: it rewrites every reading of
`tool-result_output` and no other name. A tool result cannot end its
frame; a web page writes `</web-page_output>` and ends its own.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

KNOWN = "tool-result_output"


def tag_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + "_output"


def wrap(content, kind, attributes, provenance):
    name = tag_name(kind)
    body = defang(content, KNOWN, "tool-result-output")  # the defect: one kind's name only
    return f"<{name}>\n{body}\n</{name}>"


serve(wrap)
