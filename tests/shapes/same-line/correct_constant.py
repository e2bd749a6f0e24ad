"""The same line before and after the content, correct: a constant line.

    =====
    <content>
    =====

The first line opens and the next one closes, so any reading of the line
in the content would end the frame: every span the unicode level reads as
`=====` (fullwidth, spliced with invisible characters …) is replaced by
`-=-=-`, repeatedly, so no replacement completes a line with its
neighbours.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LINE = "====="


def wrap(content, kind, attributes, provenance):
    return f"{LINE}\n{defang(content, LINE, '-=-=-')}\n{LINE}"


serve(wrap)
