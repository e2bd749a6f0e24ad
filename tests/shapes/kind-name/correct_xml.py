"""The kind in the tag name, correct: <{kind}_output> … </{kind}_output>.

<web-page_output>
CONTENT
</web-page_output>

The kind is written into the name only as lower-case letters, digits and
`-` (anything else dropped; `data` when nothing is left), so no kind can
end the tag or carry a line. Every reading of `_output` in the content is
written `-output`: the name of no kind's marker can be spelled inside the
body, whichever kind the content names.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SUFFIX = "_output"


def tag_name(kind):
    return (re.sub(r"[^a-z0-9-]", "", kind.lower()) or "data") + SUFFIX


def wrap(content, kind, attributes, provenance):
    name = tag_name(kind)
    return f"<{name}>\n{defang(content, SUFFIX, '-output')}\n</{name}>"


serve(wrap)
