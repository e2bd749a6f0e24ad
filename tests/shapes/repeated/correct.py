"""Content written twice, correct: a preview frame and the full frame.

    <document part="preview">
    <the content's first 200 characters, defanged, HTML-escaped>
    </document>
    <document>
    <the content, defanged, HTML-escaped>
    </document>

A search result's snippet over the page: the preview is cut from the
content first and escaped after, so no escape is ever cut in half, and
both slots are framed and escaped alike. Content up to 200 characters is
written whole twice.
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


def framed(text, head):
    return f"<{TOKEN}{head}>\n{html.escape(defang(text, TOKEN, SAFE))}\n</{TOKEN}>"


def wrap(content, kind, attributes, provenance):
    return framed(content[:PREVIEW], ' part="preview"') + "\n" + framed(content, "")


serve(wrap)
