"""The same line before and after the content, broken: content left as is.

The frame of correct_constant.py, but the body is not neutralised: a line
`=====` in the content closes the frame for every reader.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

LINE = "====="


def wrap(content, kind, attributes, provenance):
    return f"{LINE}\n{content}\n{LINE}"  # the defect: the line is not neutralised


serve(wrap)
