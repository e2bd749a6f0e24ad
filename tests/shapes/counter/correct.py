"""A counter in the markers, correct: numbered extracts.

    -----[EXTRACT #3]-----
    <content>
    -----[END EXTRACT #3]-----

The number counts the framing's calls, so it changes from call to call and
content can write any number: a marker with any counter is read as the
framing's. Every reading of the name EXTRACT in the content (any case,
folded as the unicode level reads it) is replaced by EXTR_ACT, so no
marker, whatever its number, can be spelled inside the body.
"""

import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTRACT"
CALLS = itertools.count(1)


def wrap(content, kind, attributes, provenance):
    n = next(CALLS)
    body = defang(content, TOKEN, "EXTR_ACT")
    return f"-----[{TOKEN} #{n}]-----\n{body}\n-----[END {TOKEN} #{n}]-----"


serve(wrap)
