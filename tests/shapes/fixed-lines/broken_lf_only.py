"""Two-line header, broken: only "\\n" is replaced in the fields.

`value.replace("\\n", " ")` handles the line ends the author thought of. A
lone CR (which most readers treat as a line end), CR LF's CR, U+2028 or NEL
still break the line, so the caller can add a header line and shift the
content start.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "web-page"
SAFE = "web_page"


def field(value):
    return defang(value, TOKEN, SAFE).replace("\n", " ")  # the defect: LF only


def wrap(content, kind, attributes, provenance):
    body = defang(content, TOKEN, SAFE)
    return f"<{TOKEN}>\nSource: {field(provenance)}\nType: {field(kind)}\n{body}\n</{TOKEN}>"


serve(wrap)
