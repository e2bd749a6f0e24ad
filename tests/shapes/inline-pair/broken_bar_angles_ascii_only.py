"""An inline pair of ASCII marks, broken: exact ASCII only.

The frame of correct_bar_angles.py; `|>` and `<|` are broken only where
spelled in ASCII, so a fullwidth, lookalike or invisibly spliced mark comes
through and, for a reader that folds Unicode, ends the quote.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

OPEN = "<|"
CLOSE = "|>"


def wrap(content, kind, attributes, provenance):
    body = content
    while CLOSE in body or OPEN in body:
        # the defect: exact ASCII only
        body = body.replace(CLOSE, "| >").replace(OPEN, "< |")
    return f"Context: {OPEN}{body}{CLOSE} Answer in one line."


serve(wrap)
