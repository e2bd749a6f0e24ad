"""Echoed title over a text-only body, broken: the first line raw as a title.

    Title: <first line of content>
    <document>
    <content, its tags stripped, the tag name defanged>
    </document>

The body keeps the content's text only: every `<…>` tag is dropped (so
HTML markup, and the probe calibration sends, come back rewritten) and
every reading of `document` left is defanged, so nothing in the body
opens or closes the frame. The title line before the frame is the
content's first line as it is: text the content's author wrote stands
outside the frame. (Before issue 57's plain-probe echo fix, calibration
fell back to one-line plain content, which the title writes whole a
second time, and both the run and `init` refused this framing.)
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "document"
SAFE = "doc_ument"
TAG = re.compile(r"<[^<>]*>")


def wrap(content, kind, attributes, provenance):
    title = content.split("\n", 1)[0]  # the defect: the first line, raw, outside the frame
    body = defang(TAG.sub("", content), TOKEN, SAFE)
    return f"Title: {title}\n<{TOKEN}>\n{body}\n</{TOKEN}>"


serve(wrap)
