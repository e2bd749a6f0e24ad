"""Boundary lines, broken: the boundary is the same for every call.

--frontier
Content-Type: text/plain
X-Source: PROVENANCE

CONTENT
--frontier--

The frame of correct_boundary.py with a fixed boundary: content that holds
a `--frontier--` line ends the part early, and what follows reads as text
outside it.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import one_line  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

BOUNDARY = "frontier"  # the defect: a boundary content can know


def wrap(content, kind, attributes, provenance):
    return (
        f"--{BOUNDARY}\nContent-Type: text/plain\nX-Source: {one_line(provenance)}\n\n"
        f"{content}\n--{BOUNDARY}--"
    )


serve(wrap)
