"""A counter in the markers, broken: the name is found in ASCII case only.

The frame of correct.py; the name EXTRACT is replaced wherever it appears
in any ASCII case, but not Unicode-folded: a fullwidth, zero-width-spliced
or lookalike spelling of a marker comes through and, for a reader that
folds Unicode, ends the extract.
"""

import itertools
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTRACT"
NAME = re.compile(TOKEN, re.IGNORECASE | re.ASCII)  # the defect: ASCII case only
CALLS = itertools.count(1)


def wrap(content, kind, attributes, provenance):
    n = next(CALLS)
    body = NAME.sub("EXTR_ACT", content)
    return f"-----[{TOKEN} #{n}]-----\n{body}\n-----[END {TOKEN} #{n}]-----"


serve(wrap)
