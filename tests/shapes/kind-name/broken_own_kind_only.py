"""The kind in the tag name, broken: only the request's own kind's name is neutralised.

<web-page_output>
CONTENT
</web-page_output>

The kind is sanitised as in the correct framing, but the content
neutraliser was written from the frame it writes: it rewrites every
reading of this request's own tag name and no other kind's. No content
ends its own frame; a web page's content writes a whole
`<tool-result_output>` frame, which reads as the framing's own.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def tag_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + "_output"


def wrap(content, kind, attributes, provenance):
    name = tag_name(kind)
    body = defang(content, name, name.replace("_", "-"))  # the defect: this kind's name only
    return f"<{name}>\n{body}\n</{name}>"


serve(wrap)
