"""A header of exactly two lines, correct.

<web-page>
Source: <provenance>
Type: <kind>
CONTENT
</web-page>

The reader counts two lines after the opening tag; the content starts on
the third. Both fields are defanged and kept on one line (every line break
any reader sees becomes a space), and the labels keep an empty value's line
from vanishing, so the count always holds.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, one_line  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "web-page"
SAFE = "web_page"


def field(value):
    return one_line(defang(value, TOKEN, SAFE))


def wrap(content, kind, attributes, provenance):
    body = defang(content, TOKEN, SAFE)
    return f"<{TOKEN}>\nSource: {field(provenance)}\nType: {field(kind)}\n{body}\n</{TOKEN}>"


serve(wrap)
