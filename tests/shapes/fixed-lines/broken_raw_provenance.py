"""Two-line header, broken: the provenance keeps its line breaks.

Provenance is "our own metadata", so it is defanged but not kept on one
line. A newline in it pushes the Type line into the body and lets the
caller decide what the header's second line says.
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


def wrap(content, kind, attributes, provenance):
    source = defang(provenance, TOKEN, SAFE)  # the defect: not kept on one line
    kind_line = one_line(defang(kind, TOKEN, SAFE))
    body = defang(content, TOKEN, SAFE)
    return f"<{TOKEN}>\nSource: {source}\nType: {kind_line}\n{body}\n</{TOKEN}>"


serve(wrap)
