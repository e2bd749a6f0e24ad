"""The kind in the tag name, broken: the kind is written into the name raw.

<web-page_output>
CONTENT
</web-page_output>

The content is neutralised as in the correct framing (every reading of
`_output` written `-output`), but the kind goes into both tags as the
caller sent it: a kind holding `>`, a line break or a whole closer ends
the opening tag and writes its own text outside any frame.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SUFFIX = "_output"


def wrap(content, kind, attributes, provenance):
    name = (kind or "data") + SUFFIX  # the defect: the kind is not sanitised
    return f"<{name}>\n{defang(content, SUFFIX, '-output')}\n</{name}>"


serve(wrap)
