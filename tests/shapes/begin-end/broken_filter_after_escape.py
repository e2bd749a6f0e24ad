"""Begin/end markers, broken: invisible characters are stripped after escaping.

The token is escaped case-insensitively, then zero-width spaces, word
joiners and BOMs are removed "to clean up the text". The order is wrong:
EXTERNAL\u200b_CONTENT passes the escape and becomes EXTERNAL_CONTENT when
the filter runs, so the forged marker is exact in the output.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTERNAL_CONTENT"
MARKER = re.compile(r"EXTERNAL_CONTENT", re.IGNORECASE | re.ASCII)
INVISIBLE = re.compile("[\u200b\u2060\ufeff]")


def wrap(content, kind, attributes, provenance):
    escaped = MARKER.sub("EXTERNAL-CONTENT", content)
    cleaned = INVISIBLE.sub("", escaped)  # the defect: filtering after escaping
    return f"<<<{TOKEN}>>>\n{cleaned}\n<<<END_{TOKEN}>>>"


serve(wrap)
