"""MIME part, correct: a per-call boundary around two header lines.

--3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

CONTENT
--3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d--

The boundary is 32 random hex digits drawn for every call, so content
cannot spell the closing line. The header labels are the part's own: a
content line `Content-Type:` is text of the body, not a new part (a third
blind audit saw `init` read the last header as an open-only section).
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    boundary = secrets.token_hex(16)
    return (
        f"--{boundary}\nContent-Type: text/plain; charset=utf-8\n"
        f"Content-Transfer-Encoding: 8bit\n\n{content}\n--{boundary}--"
    )


serve(wrap)
