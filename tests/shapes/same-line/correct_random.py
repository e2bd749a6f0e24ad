"""The same line before and after the content, correct: a per-call line.

    ===== 3f9c0a1b2c3d4e5f =====
    <content>
    ===== 3f9c0a1b2c3d4e5f =====

The value is 64 random bits from `secrets`, new for every call. Content
cannot guess it, so a line with any other value closes nothing; the body
comes through unchanged.
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    line = f"===== {secrets.token_hex(8)} ====="
    return f"{line}\n{content}\n{line}"


serve(wrap)
