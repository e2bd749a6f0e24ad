"""Content written twice, broken: a framed title slot written raw.

    <document part="title">
    <the content's first line, as written>
    </document>
    <document>
    <the content, defanged, HTML-escaped>
    </document>

The body is defanged and HTML-escaped, but the title slot holds the
content's first line as it is: a first line `</document>` closes the
title frame early, and what follows it on that line stands outside every
frame.
"""

import html
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "document"
SAFE = "doc_ument"


def wrap(content, kind, attributes, provenance):
    title = content.split("\n", 1)[0]  # the defect: the first line, raw, in the title frame
    body = html.escape(defang(content, TOKEN, SAFE))
    return f'<{TOKEN} part="title">\n{title}\n</{TOKEN}>\n<{TOKEN}>\n{body}\n</{TOKEN}>'


serve(wrap)
