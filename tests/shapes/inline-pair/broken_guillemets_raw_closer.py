"""An inline pair of guillemets in running text, broken: the closer raw.

The frame of correct_guillemets.py. The opening mark is neutralised, but a
`»` in the content is written as it is, so it ends the quote early and
what follows it reads as the framing's own text.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

OPEN = "«"
CLOSE = "»"


def wrap(content, kind, attributes, provenance):
    body = defang(content, OPEN, "‹")  # the defect: CLOSE is not neutralised
    return f"The page reads Document: {OPEN}{body}{CLOSE} (end of the page)."


serve(wrap)
