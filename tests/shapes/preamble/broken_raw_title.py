"""Echoed title, broken: the content's first line written raw as a title.

    Title: <first line of content>
    <document>
    <content, tags defanged, HTML-escaped>
    </document>

The body is defanged as `preamble/correct.py` defangs it and then
HTML-escaped, so no tag of the content is live in it, but
the title line before the frame is the content's first line as it is:
text the content's author wrote stands outside the frame, where a first
line that writes `</document>`, `<document>` or an instruction reads as
the framing's own. (Until issue 57's echo fix calibration refused this
framing: the content's first word is written twice, in the title and in
the escaped body.)
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
    title = content.split("\n", 1)[0]  # the defect: the first line, raw, outside the frame
    # Every reading of the tag defanged (fullwidth, spliced, any case),
    # then every `<`, `&` and quote escaped.
    body = html.escape(defang(content, TOKEN, SAFE))
    return f"Title: {title}\n<{TOKEN}>\n{body}\n</{TOKEN}>"


serve(wrap)
