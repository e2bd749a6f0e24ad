"""Boundary lines, correct: a MIME-style per-call boundary.

--3f9a0c1d2e3f4a5b6c7d8e9f
Content-Type: text/plain
X-Source: PROVENANCE

CONTENT
--3f9a0c1d2e3f4a5b6c7d8e9f--

The boundary is 24 random hex digits drawn for every call, so content
cannot spell the closing line; the provenance is kept on its header line.
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import one_line  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    boundary = secrets.token_hex(12)
    return (
        f"--{boundary}\nContent-Type: text/plain\nX-Source: {one_line(provenance)}\n\n"
        f"{content}\n--{boundary}--"
    )


serve(wrap)
