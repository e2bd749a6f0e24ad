"""The kind in a bracket marker, upper-cased, correct: [TOOL-RESULT_DATA] … [/TOOL-RESULT_DATA].

[WEB-PAGE_DATA]
CONTENT
[/WEB-PAGE_DATA]

The kind is upper-cased and written with letters, digits and `-` only
(anything else dropped; `DATA` when nothing is left). Every reading of
`_data` in the content (any case, fullwidth or lookalike letters,
invisible characters inside it) is written `-data`: the name of no kind's
marker can be spelled inside the body, whichever kind the content names.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SUFFIX = "_DATA"


def marker_name(kind):
    return (re.sub(r"[^A-Z0-9-]", "", kind.upper()) or "DATA") + SUFFIX


def wrap(content, kind, attributes, provenance):
    name = marker_name(kind)
    return f"[{name}]\n{defang(content, SUFFIX, '-DATA')}\n[/{name}]"


serve(wrap)
