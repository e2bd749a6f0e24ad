"""A counter in the markers, broken: only this call's number is escaped.

The frame of correct.py; the name is defanged only where it is followed by
this call's own number (`EXTRACT #3` in the third call), in every spelling
the unicode level reads. A marker with another number, which a reader
takes for the framing's as readily, comes through and ends the extract.
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
    body = defang(content, f"{TOKEN} #{n}", f"EXTR_ACT #{n}")  # the defect: own number only
    return f"-----[{TOKEN} #{n}]-----\n{body}\n-----[END {TOKEN} #{n}]-----"


serve(wrap)
