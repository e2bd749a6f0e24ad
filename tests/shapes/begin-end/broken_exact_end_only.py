"""Begin/end markers, broken: only the exact END marker is removed.

`content.replace("<<<END_EXTERNAL_CONTENT>>>", "")` stops the one spelling
the author tried. A lowercase, spaced, zero-width or fullwidth END marker
still ends the block for a reader, and a BEGIN marker can be forged.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTERNAL_CONTENT"
END = f"<<<END_{TOKEN}>>>"


def wrap(content, kind, attributes, provenance):
    return f"<<<{TOKEN}>>>\n{content.replace(END, '')}\n{END}"  # the defect


serve(wrap)
