"""Content written twice, broken: a preview cut after escaping.

    <document part="preview">
    <the content defanged and HTML-escaped, then cut at 200 characters>
    </document>
    <document>
    <the content, defanged, HTML-escaped>
    </document>

The preview is cut from the escaped text, so a cut inside an escape leaves
its first characters raw (`&am` of `&amp;`): the preview reads as text the
content never had. The full frame carries the content exactly.
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
PREVIEW = 200


def wrap(content, kind, attributes, provenance):
    body = html.escape(defang(content, TOKEN, SAFE))
    preview = body[:PREVIEW]  # the defect: cut after escaping, maybe mid-escape
    return f'<{TOKEN} part="preview">\n{preview}\n</{TOKEN}>\n<{TOKEN}>\n{body}\n</{TOKEN}>'


serve(wrap)
