"""The same line before and after the content, broken: exact ASCII only.

The frame of correct_constant.py; `=====` is replaced only where it is
spelled in ASCII, so a fullwidth or invisibly spliced line comes through
and, for a reader that folds Unicode, closes the frame.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

LINE = "====="


def wrap(content, kind, attributes, provenance):
    body = content
    while LINE in body:
        body = body.replace(LINE, "-=-=-")  # the defect: exact ASCII only
    return f"{LINE}\n{body}\n{LINE}"


serve(wrap)
