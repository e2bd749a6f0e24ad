"""Echoed title, correct: the title line names the content by its digest.

    Title: document sha256:<64 hex digits of the content's digest>
    <document>
    <content, tags defanged, HTML-escaped>
    </document>

The title line before the frame changes with the content, but only as a
digest, in an alphabet no content chooses the characters of: nothing the
content writes stands outside the frame.
"""

import hashlib
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
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
    # Every reading of the tag defanged (fullwidth, spliced, any case),
    # then every `<`, `&` and quote escaped.
    body = html.escape(defang(content, TOKEN, SAFE))
    return f"Title: document sha256:{digest}\n<{TOKEN}>\n{body}\n</{TOKEN}>"


serve(wrap)
